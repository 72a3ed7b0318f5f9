"""A command served the direct way (api/http/direct_commands.py) is answered exactly as
Litestar's own way answers it: every refusal the same status, headers and problem, and
an answer replayed by Idempotency-Key the same bytes whichever way served it first."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.http.direct_commands import CommandDispatch
from api.settings import Settings
from tests.e2e.helpers import Client, GmTokens, combatant, command, create, gm_token

VARYING = {"x-correlation-id", "ratelimit-remaining", "ratelimit-reset"}
"""Headers that differ between any two requests, whichever way serves them."""


@pytest.fixture(scope="module")
async def app(module_database: str) -> Litestar:
    return create_app(Settings(database_url=module_database, snapshot_every=5))


@pytest.fixture(scope="module")
async def direct(app: Litestar) -> AsyncIterator[Client]:
    async with AsyncTestClient(app=app) as client:
        client.auth = GmTokens()
        yield client


def _ways(app: Litestar) -> tuple[Any, Any]:
    dispatch = app.asgi_handler
    assert isinstance(dispatch, CommandDispatch), "the tested Litestar serves commands directly"
    return dispatch, dispatch.litestar


async def _both(
    app: Litestar, client: Client, path: str, body: bytes, headers: dict[str, str]
) -> list[tuple[int, list[tuple[str, str]], bytes]]:
    """The same request served the direct way, then by Litestar alone."""
    answers = []
    dispatch, litestar_only = _ways(app)
    for way in (dispatch, litestar_only):
        app.asgi_handler = way
        try:
            answer = await client.post(path, content=body, headers=headers)
        finally:
            app.asgi_handler = dispatch
        kept = [(k, v) for k, v in answer.headers.multi_items() if k not in VARYING]
        answers.append((answer.status_code, kept, answer.content))
    return answers


@pytest.fixture(scope="module")
async def encounter(direct: Client) -> str:
    eid = await create(direct)
    await command(direct, eid, combatant("alice", 10, ac=12))
    return eid


JSON = {"content-type": "application/json"}


NEXT_TURN = b'{"command": {"type": "generic.next_turn"}}'


def _damage(target: str, amount: str) -> bytes:
    return b'{"command": {"type": "generic.damage", "target": "%s", "amount": %s}}' % (
        target.encode(),
        amount.encode(),
    )


@pytest.mark.parametrize(
    ("case", "body", "headers", "status"),
    [
        ("rule", _damage("nobody", "5"), {}, 422),
        ("strict", _damage("alice", '"5"'), {}, 400),
        ("malformed", b'{"command": {"type": "generic.next_turn"', {}, 400),
        ("no body", b"", {}, 400),
        ("unknown command", b'{"command": {"type": "generic.fly"}}', {}, 400),
        ("wrong token", NEXT_TURN, {"authorization": "Bearer nope"}, 401),
        ("stale If-Match", NEXT_TURN, {"if-match": '"1"'}, 409),
        ("bad If-Match", NEXT_TURN, {"if-match": "seven"}, 400),
        ("text", NEXT_TURN, {"content-type": "text/plain"}, 415),
    ],
)
async def test_a_refusal_reads_the_same_either_way(
    app: Litestar,
    direct: Client,
    encounter: str,
    case: str,
    body: bytes,
    headers: dict[str, str],
    status: int,
) -> None:
    path = f"/encounters/{encounter}/commands"
    served, by_litestar = await _both(app, direct, path, body, {**JSON, **headers})
    assert served[0] == status, served
    assert served == by_litestar


@pytest.mark.parametrize("prefer", [None, "return=representation"])
async def test_an_answer_is_the_same_bytes_either_way(
    app: Litestar, direct: Client, encounter: str, prefer: str | None
) -> None:
    """The first request is served (and its answer stored); the second, with the same
    Idempotency-Key, replays the stored answer: both ways must give it byte for byte."""
    path = f"/encounters/{encounter}/commands"
    headers = {**JSON, "idempotency-key": f"same-either-way-{prefer}"}
    if prefer:
        headers["prefer"] = prefer
    body = b'{"command": {"type": "generic.damage", "target": "alice", "amount": 1}}'
    first, replayed = await _both(app, direct, path, body, headers)
    assert first[0] == 200, first
    assert first == replayed
    assert (
        "etag",
        f'"{int((await direct.get(f"/encounters/{encounter}")).json()["version"])}"',
    ) in first[1]


async def test_a_player_token_is_held_to_its_combatants_either_way(
    app: Litestar, direct: Client, encounter: str
) -> None:
    minted = await direct.post(
        f"/encounters/{encounter}/tokens", json={"combatants": ["alice"], "label": "alice's player"}
    )
    assert minted.status_code == 201, minted.text
    player = {**JSON, "authorization": f"Bearer {minted.json()['token']}"}
    path = f"/encounters/{encounter}/commands"
    body = b'{"command": {"type": "generic.add_combatant", "id": "bob", "name": "Bob", "hp": 5}}'
    served, by_litestar = await _both(app, direct, path, body, player)
    assert served[0] == 403, served
    assert served == by_litestar
    assert gm_token(direct, encounter) not in str(served)
