"""Noninterference: two encounters whose secret commands differ only in what is secret
look the same, byte for byte, to every player and spectator until the GM reveals
(docs/secrecy.md).

Per registered ruleset (a ruleset without a scenario in tests/e2e/secrecy/scenarios.py
fails), hypothesis draws a run of the ruleset's commands: hidden GM commands, the same
command in public, the bound player's own command, GM notes and undos.  The run is played
twice, on two services with databases of their own, the hidden commands' manual faces
drawn independently per world.  Ids, the clock and the dice seeds are drawn the same way
in both worlds by sources this test patches in (the production path never does); the
salts of the envelopes are the service's own.

Compared: every answer to the player's commands (status, body) and everything the player
and the spectator read (state now and at every version, events, log in JSON, text and
Markdown, the ledger, stats, rounds, verify, the live stream, and the ETag and chain-head
headers).  The one substitution: each 64-hex value (hashes, prev_hashes, commitments) is
replaced by its order of first appearance in its world, so two worlds agree only if their
hashes line up one to one; the salts that make them differ never reach a player before
the reveal.  After the reveal both worlds verify for the player.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from service.registry import RULESETS
from tests.conftest import create_database, drop_database
from tests.e2e.helpers import GmTokens
from tests.e2e.secrecy.scenarios import SCENARIOS, Scenario
from tests.support.loop_thread import LoopThread

Client = AsyncTestClient  # type: ignore[type-arg]

_HEX64 = re.compile(rb"[0-9a-f]{64}")
_READ_HEADERS = ("etag", "aeon-chain-head")


class SameDraws:
    """Ids, time and seeds, drawn the same way in every world of one example."""

    def __init__(self, example: int) -> None:
        self.example = example
        self.count = itertools.count()
        self.clock = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(days=example)

    def _next(self) -> bytes:
        return hashlib.sha256(f"{self.example}:{next(self.count)}".encode()).digest()

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(bytes=self._next()[:16], version=4)

    def token_hex(self, n: int) -> str:
        return self._next()[:n].hex()

    def token_urlsafe(self, n: int) -> str:
        return self._next().hex()[: n + 8]

    def new_seed(self) -> bytes:
        return self._next()

    def now(self, tz: Any = None) -> datetime:
        self.clock += timedelta(seconds=1)
        return self.clock

    def patches(self) -> ExitStack:
        draws = self
        stack = ExitStack()

        class Clock:
            @staticmethod
            def now(tz: Any = None) -> datetime:
                return draws.now(tz)

        fake_secrets = mock.Mock(token_hex=self.token_hex, token_urlsafe=self.token_urlsafe)
        stack.enter_context(mock.patch("service.write.prepare.uuid4", self.uuid4))
        stack.enter_context(mock.patch("service.write.unit_of_work.uuid4", self.uuid4))
        stack.enter_context(mock.patch("service.tokens.secrets", fake_secrets))
        stack.enter_context(mock.patch("service.write.dice.new_seed", self.new_seed))
        stack.enter_context(mock.patch("service.write.pipeline.datetime", Clock))
        return stack


@pytest.fixture(scope="module")
def runner() -> Iterator[LoopThread]:
    loop = LoopThread()
    yield loop
    loop.stop()


@pytest.fixture(scope="module")
def worlds(runner: LoopThread, postgres_url: str) -> Iterator[tuple[Client, Client]]:
    """Two services, each with a database of its own: the same ids mean the same
    encounter in both."""
    urls = [runner.run(create_database(postgres_url)) for _ in range(2)]
    clients = []
    with SameDraws(-1).patches():  # the pipeline's clock default is bound at creation
        for url in urls:
            client = AsyncTestClient(app=create_app(Settings(database_url=url, snapshot_every=4)))
            runner.run(client.__aenter__())
            client.auth = GmTokens()
            clients.append(client)
    yield clients[0], clients[1]
    for client in clients:
        runner.run(client.__aexit__(None, None, None))
    for url in urls:
        runner.run(drop_database(postgres_url, url))


Step = tuple[str, Any]


def _faces(dice: list[list[int]]) -> st.SearchStrategy[list[list[int]]]:
    """Faces no higher than the scenario's own (so within each die's size)."""
    return st.tuples(*(st.tuples(*(st.integers(1, f) for f in roll)) for roll in dice)).map(
        lambda rolls: [list(r) for r in rolls]
    )


def _steps(scenario: Scenario) -> st.SearchStrategy[list[Step]]:
    dice = scenario.secret[1]
    secret = st.tuples(st.just("secret"), st.tuples(_faces(dice), _faces(dice)))
    plain = st.sampled_from([("gm", None), ("player", None), ("note", None), ("undo", None)])
    moves = [secret, plain]
    if scenario.quiet_secret is not None:
        quiet = scenario.quiet_secret[1]
        moves.append(st.tuples(st.just("quiet"), st.tuples(_faces(quiet), _faces(quiet))))
    return st.lists(st.one_of(*moves), min_size=1, max_size=6)


class Transcript:
    def __init__(self) -> None:
        self.entries: list[tuple[str, int, dict[str, str], bytes]] = []

    def add(self, label: str, response: Any) -> None:
        headers = {h: response.headers[h] for h in _READ_HEADERS if h in response.headers}
        self.entries.append((label, response.status_code, headers, response.content))

    def normalised(self) -> list[tuple[str, int, dict[str, str], bytes]]:
        """Each 64-hex value replaced by its order of first appearance."""
        seen: dict[bytes, bytes] = {}

        def name(match: re.Match[bytes]) -> bytes:
            return seen.setdefault(match[0], b"<h%d>" % len(seen))

        out = []
        for label, status, headers, body in self.entries:
            headers = {k: _HEX64.sub(name, v.encode()).decode() for k, v in headers.items()}
            out.append((label, status, headers, _HEX64.sub(name, body)))
        return out


async def _send(
    client: Client, eid: str, cmd: dict[str, Any], dice: Any, hidden: bool, auth: Any = None
) -> Any:
    """A command; a GM's hidden one is sent again with more dice while it needs them, as
    a GM at the table would (that exchange is the GM's alone)."""
    body: dict[str, Any] = {"command": cmd, "hidden": hidden}
    if dice is not None:
        body["manual_dice"] = [list(r) for r in dice]
    for _ in range(6):
        response = await client.post(f"/encounters/{eid}/commands", json=body, headers=auth)
        needed = response.json().get("dice_needed") if response.status_code == 422 else None
        if auth is not None or needed is None:
            return response
        rolls = body["manual_dice"]
        while len(rolls) < needed["roll"]:
            rolls.append([])
        rolls[needed["roll"] - 1] += [1] * len(needed["dice"])
    return response


async def _play(
    client: Client, name: str, scenario: Scenario, steps: list[Step], world: int, example: int
) -> tuple[Transcript, str, dict[str, str]]:
    created = await client.post(
        "/encounters",
        json={"ruleset": name, "name": "Two worlds", "options": scenario.options},
        headers={"Idempotency-Key": f"noninterference-{example}"},
    )
    assert created.status_code == 201, created.text
    eid = created.json()["encounter_id"]
    for cmd, dice in scenario.setup:
        done = await _send(client, eid, cmd, dice, False)
        assert done.status_code == 200, done.text
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": scenario.player})
    watcher = await client.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    spectator = {"Authorization": f"Bearer {watcher.json()['token']}"}
    seen = Transcript()
    secret_cmd, public_dice = scenario.secret
    for kind, argument in steps:
        if kind == "secret":
            await _send(client, eid, secret_cmd, argument[world], True)
        elif kind == "quiet":
            assert scenario.quiet_secret is not None
            await _send(client, eid, scenario.quiet_secret[0], argument[world], True)
        elif kind == "gm":
            await _send(client, eid, secret_cmd, public_dice, False)
        elif kind == "player":
            move = scenario.player_move or secret_cmd
            seen.add("player command", await _send(client, eid, move, None, False, player))
        elif kind == "note":
            await client.post(f"/encounters/{eid}/notes", json={"text": "The lights flicker."})
        else:
            await client.post(f"/encounters/{eid}/undo", json={})
    for who, auth in (("player", player), ("spectator", spectator)):
        await _read_everything(client, eid, who, auth, seen)
    return seen, eid, player


async def _read_everything(
    client: Client, eid: str, who: str, auth: dict[str, str], seen: Transcript
) -> None:
    async def read(path: str) -> Any:
        response = await client.get(f"/encounters/{eid}{path}", headers=auth)
        seen.add(f"{who} {path}", response)
        return response

    head = (await read("")).json()["version"]
    for version in range(1, head + 1):
        await read(f"?at={version}")
    await read("/events?after_version=0&limit=1000")
    log = (await read("/log?after_version=0&limit=1000")).json()["entries"]
    await read("/log.txt?after_version=0&limit=1000")
    await read("/log.md?after_version=0&limit=1000")
    await read("/rolls?after_version=0&limit=1000")
    await read("/stats")
    for number in sorted({e["round"] for e in log if e["round"]}):
        await read(f"/rounds/{number}")
    await read("/verify")
    await read(f"/live?after_version=0&until_version={head}")


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_two_secret_worlds_look_the_same_to_players(
    name: str, runner: LoopThread, worlds: tuple[Client, Client]
) -> None:
    assert name in SCENARIOS, f"ruleset {name!r} has no scenario to generate secrets from"
    scenario = SCENARIOS[name]
    examples = itertools.count()

    @settings(
        max_examples=4,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(steps=_steps(scenario))
    def both_worlds(steps: list[Step]) -> None:
        example = next(examples) + 1000 * sorted(RULESETS).index(name)
        played = []
        for world, client in enumerate(worlds):
            with SameDraws(example).patches():
                played.append(runner.run(_play(client, name, scenario, steps, world, example)))
        (a, eid, player_a), (b, _, player_b) = played
        for left, right in zip(a.normalised(), b.normalised(), strict=True):
            assert left == right, left[0]
        for client, player in ((worlds[0], player_a), (worlds[1], player_b)):
            runner.run(_reveal_and_verify(client, eid, player))

    both_worlds()


async def _reveal_and_verify(client: Client, eid: str, player: dict[str, str]) -> None:
    """The GM reveals every secret; the chain, commitments included, verifies for the
    player."""
    state = (await client.get(f"/encounters/{eid}")).json()["state"]
    own = [s for s in state["secret_rolls"] if "." not in s]
    if own:
        revealed = await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": own})
        assert revealed.status_code == 200, revealed.text
    verified = (await client.get(f"/encounters/{eid}/verify", headers=player)).json()
    assert verified["ok"] is True, verified
    events = (await client.get(f"/encounters/{eid}/events?limit=1000", headers=player)).json()
    for event in events["events"]:
        if event["type"] == "encounter.sealed":
            assert "salt" in event["data"], event  # opened: salt and contents shown
