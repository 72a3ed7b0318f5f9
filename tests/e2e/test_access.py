"""Tokens, roles and redaction over HTTP (design section 6)."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import Client, combatant, command, create, gm_token, inner_events
from tests.scaleout.sse import parse
from tests.support.live import serving

ATTACK = {"type": "generic.attack", "attacker": "aria", "target": "grak", "using": "sword"}
SWORD = {"sword": {"notation": "1d20+5", "damage": "1d8"}}


def fighter(ident: str) -> dict[str, Any]:
    """A combatant whose sheet has the sword its player attacks with."""
    return {**combatant(ident, 20, ac=10), "attacks": SWORD}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(client: Client) -> tuple[str, str, str]:
    """An encounter with Aria (player Sam), Borin (player Kim) and Grak; returns the id
    and Sam's and Kim's tokens."""
    eid = await create(client, "Access")
    for who in ("aria", "borin", "grak"):
        await command(client, eid, fighter(who))
    tokens = []
    for who in ("aria", "borin"):
        minted = await client.post(
            f"/encounters/{eid}/tokens", json={"combatants": [who], "label": f"{who}'s player"}
        )
        assert minted.status_code == 201, minted.text
        tokens.append(minted.json()["token"])
    return eid, tokens[0], tokens[1]


async def test_creation_returns_a_gm_token_once(client: Client) -> None:
    headers = {"Idempotency-Key": "create-once-with-token"}
    body = {"ruleset": "generic", "name": "Once"}
    first = await client.post("/encounters", json=body, headers=headers)
    again = await client.post("/encounters", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json()["gm_token"]
    assert again.json()["gm_token"] is None
    assert again.json()["encounter_id"] == first.json()["encounter_id"]


async def test_a_player_acts_only_for_their_own_combatant(client: Client) -> None:
    eid, sam, _kim = await _table(client)
    mine = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer(sam)
    )
    assert mine.status_code == 200, mine.text
    assert mine.json()["events"][0]["metadata"]["actor"]["role"] == "player"
    theirs = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": {**ATTACK, "attacker": "borin"}},
        headers=bearer(sam),
    )
    assert theirs.status_code == 403
    assert theirs.json()["detail"] == "this token may act only for aria, not for borin"
    gm_only = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": {"type": "generic.damage", "target": "grak", "amount": 5}},
        headers=bearer(sam),
    )
    assert gm_only.status_code == 403
    assert "GM's to issue" in gm_only.json()["detail"]


async def test_players_may_not_undo_redo_fork_reveal_or_mint(client: Client) -> None:
    eid, sam, _kim = await _table(client)
    for path, body in (
        ("undo", {}),
        ("redo", {}),
        ("fork", {}),
        ("dice/reveal", {}),
        ("rolls/reveal", {"roll_ids": ["r1"]}),
        ("tokens", {"combatants": ["grak"]}),
    ):
        response = await client.post(f"/encounters/{eid}/{path}", json=body, headers=bearer(sam))
        assert response.status_code == 403, path
        assert response.json()["detail"].startswith("only the GM may"), path
    listing = await client.get(f"/encounters/{eid}/tokens", headers=bearer(sam))
    assert listing.status_code == 403


async def test_players_need_permission_for_physical_dice_and_never_roll_in_secret(
    client: Client,
) -> None:
    eid, sam, _kim = await _table(client)
    manual = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": ATTACK, "manual_dice": [[20], [8]]},
        headers=bearer(sam),
    )
    assert manual.status_code == 403
    assert "allow_player_dice" in manual.json()["detail"]
    secret = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK, "hidden": True}, headers=bearer(sam)
    )
    assert secret.status_code == 403

    allowed = await create(client, "Own dice", allow_player_dice=True)
    await command(client, allowed, fighter("aria"))
    await command(client, allowed, fighter("grak"))
    token = (
        await client.post(f"/encounters/{allowed}/tokens", json={"combatants": ["aria"]})
    ).json()["token"]
    own = await client.post(
        f"/encounters/{allowed}/commands",
        json={"command": ATTACK, "manual_dice": [[20], [8]]},
        headers=bearer(token),
    )
    assert own.status_code == 200, own.text
    assert inner_events(own.json()["events"])[0]["data"]["rolls"][0]["source"] == "manual"


async def test_wrong_revoked_and_foreign_tokens_are_refused(client: Client) -> None:
    eid, sam, _kim = await _table(client)
    other = await create(client, "Elsewhere")
    assert (await client.get(f"/encounters/{eid}", headers=bearer(sam))).status_code == 200
    for headers in (
        {"Authorization": ""},
        bearer("not-a-token"),
        bearer(sam + "x"),
        bearer(sam.split(".")[0] + ".forged"),
        {"Authorization": "Basic abc"},
    ):
        response = await client.get(f"/encounters/{eid}", headers=headers)
        assert response.status_code == 401, headers
        assert sam.split(".")[1] not in response.text
    foreign = await client.get(f"/encounters/{other}", headers=bearer(sam))
    assert foreign.status_code == 401
    assert foreign.headers["www-authenticate"].startswith("Bearer")
    gm_of_other = gm_token(client, other)
    assert (
        await client.post(f"/encounters/{eid}/undo", headers=bearer(gm_of_other))
    ).status_code == 401

    tokens = (await client.get(f"/encounters/{eid}/tokens")).json()["tokens"]
    sam_id = sam.split(".")[0]
    assert {t["token_id"] for t in tokens} >= {sam_id}
    assert all("token" not in t and "secret" not in str(t) for t in tokens)
    assert (await client.delete(f"/encounters/{eid}/tokens/{sam_id}")).status_code == 204
    revoked = await client.get(f"/encounters/{eid}", headers=bearer(sam))
    assert revoked.status_code == 401
    assert (await client.delete(f"/encounters/{eid}/tokens/nope")).status_code == 404


async def test_hidden_rolls_are_redacted_for_players_everywhere_until_revealed(
    client: Client,
) -> None:
    eid, sam, _kim = await _table(client)
    secret = await client.post(
        f"/encounters/{eid}/commands",
        json={
            "command": {
                "type": "generic.check",
                "combatant": "grak",
                "notation": "1d20+2",
                "label": "Perception",
                "target_number": 15,
            },
            "hidden": True,
        },
    )
    roll = inner_events(secret.json()["events"])[0]["data"]["rolls"][0]
    total = f"= {roll['total']} vs 15"

    async def player_sees() -> dict[str, Any]:
        log = await client.get(f"/encounters/{eid}/log.txt", headers=bearer(sam))
        rolls = await client.get(f"/encounters/{eid}/rolls", headers=bearer(sam))
        events = await client.get(f"/encounters/{eid}/events", headers=bearer(sam))
        logs = await client.get(f"/encounters/{eid}/log", headers=bearer(sam))
        replay = await client.get(f"/encounters/{eid}/rounds/1", headers=bearer(sam))
        ledger = {r["roll_id"]: r for r in rolls.json()["rolls"]}
        sealed = next(e for e in events.json()["events"] if e["type"] == "encounter.sealed")
        opened = sealed["data"].get("events")
        in_events = opened[0]["data"]["rolls"][0] if opened else sealed["data"]
        in_log = next(e["rolls"][0] for e in logs.json()["entries"] if e["rolls"])
        return {
            "text": log.text,
            # While sealed, one marker record (s1) stands for the command's rolls.
            "ledger": ledger.get(roll["roll_id"], ledger.get("s1")),
            "event": in_events,
            "log_roll": in_log,
            "replay": replay.status_code,
        }

    hidden = await player_sees()
    assert "rolls in secret" in hidden["text"] and total not in hidden["text"]
    for view in (hidden["ledger"], hidden["log_roll"]):
        assert view["redacted"] is True and view["hidden"] is True
        assert "dice" not in view and "total" not in view and "outcome" not in view
    assert "events" not in hidden["event"] and "salt" not in hidden["event"]
    gm_log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert total in gm_log

    reveal = await client.post(
        f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [roll["roll_id"]]}
    )
    assert reveal.status_code == 200, reveal.text
    shown = await player_sees()
    assert total in shown["text"]
    assert shown["ledger"]["total"] == roll["total"] and "redacted" not in shown["ledger"]
    assert shown["event"]["total"] == roll["total"]
    unknown = await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": ["r999"]})
    assert unknown.status_code == 422


async def test_no_token_is_written_into_events_logs_or_other_responses(
    client: Client, database_url: str
) -> None:
    eid, sam, kim = await _table(client)
    gm = gm_token(client, eid)
    await client.post(f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer(sam))
    await client.post(f"/encounters/{eid}/undo")
    secrets = [t.split(".")[1] for t in (gm, sam, kim)]
    responses = [
        await client.get(f"/encounters/{eid}{path}")
        for path in ("", "/events", "/log", "/rolls", "/verify", "/tokens", "/rounds/1")
    ]
    for response in responses:
        assert not any(s in response.text for s in secrets), response.url
    conn = await asyncpg.connect(database_url)
    try:
        dump = await conn.fetchval(
            "SELECT string_agg(data::text || metadata::text, '') FROM events WHERE stream_id = $1",
            eid,
        )
        stored = await conn.fetch(
            "SELECT secret_sha256 FROM access_tokens WHERE encounter_id = $1", eid
        )
        kept = await conn.fetchval(
            "SELECT string_agg(encode(response, 'escape'), '') FROM idempotency_keys"
        )
    finally:
        await conn.close()
    assert not any(s in dump for s in secrets)
    assert len(stored) == 3 and all(len(bytes(r["secret_sha256"])) == 32 for r in stored)
    assert not any(s in (kept or "") for s in secrets)


async def test_service_key_guards_creation_and_listing(service_client: Client) -> None:
    refused = await service_client.post(
        "/encounters",
        json={"ruleset": "generic", "name": "No key"},
        headers={"Authorization": "Bearer wrong"},
    )
    assert refused.status_code == 401
    created = await service_client.post("/encounters", json={"ruleset": "generic", "name": "Key"})
    assert created.status_code == 201
    listed = await service_client.get("/encounters", headers={"Authorization": "Bearer wrong"})
    assert listed.status_code == 401
    assert (await service_client.get("/encounters")).status_code == 200


async def test_rate_limit_per_token_answers_429_as_a_problem(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=5))
    async with AsyncTestClient(app=app) as limited:
        tables = [
            (await limited.post("/encounters", json={"ruleset": "generic", "name": n})).json()
            for n in ("Busy", "Quiet")
        ]
        busy, quiet = (bearer(t["gm_token"]) for t in tables)
        url = f"/encounters/{tables[0]['encounter_id']}"
        statuses = [(await limited.get(url, headers=busy)).status_code for _ in range(6)]
        assert statuses == [200] * 5 + [429]
        problem = await limited.get(url, headers=busy)
        assert problem.headers["content-type"].startswith("application/problem+json")
        assert problem.json()["status"] == 429
        # Another token has a budget of its own; health checks are never limited.
        other = await limited.get(f"/encounters/{tables[1]['encounter_id']}", headers=quiet)
        assert other.status_code == 200
        for _ in range(10):
            assert (await limited.get("/health/live")).status_code == 200


async def test_gm_only_notes_are_redacted_for_players(client: Client) -> None:
    eid, sam, _kim = await _table(client)
    secret = await client.post(
        f"/encounters/{eid}/notes", json={"text": "The bridge is rigged.", "gm_only": True}
    )
    assert secret.status_code == 200, secret.text
    public = await client.post(f"/encounters/{eid}/notes", json={"text": "Rain starts."})
    assert public.status_code == 200
    refused = await client.post(
        f"/encounters/{eid}/notes", json={"text": "mine"}, headers=bearer(sam)
    )
    assert refused.status_code == 403

    player_log = (await client.get(f"/encounters/{eid}/log.txt", headers=bearer(sam))).text
    assert "The GM makes a private note." in player_log and "rigged" not in player_log
    assert "GM note: Rain starts." in player_log
    gm_log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "GM note (GM only): The bridge is rigged." in gm_log
    events = (await client.get(f"/encounters/{eid}/events", headers=bearer(sam))).text
    assert "rigged" not in events and "Rain starts." in events
    # Notes are part of the record, not of the game: an undo passes over them.
    undo = await client.post(f"/encounters/{eid}/undo")
    assert undo.json()["events"][0]["data"]["commands"][0]["command_type"] == (
        "generic.add_combatant"
    )


async def test_a_token_revoked_by_another_process_writes_nothing_more(
    client: Client, database_url: str
) -> None:
    """Command routes trust a token this process checked before, so a revocation made
    elsewhere (here: straight in the database, as another process would) must be caught
    by the write statement itself: 401, and the stream does not move."""
    eid, sam, _kim = await _table(client)
    first = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer(sam)
    )
    assert first.status_code == 200, first.text
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(
            "UPDATE access_tokens SET revoked_at = now() WHERE token_id = $1", sam.split(".")[0]
        )
        version = await conn.fetchval("SELECT version FROM streams WHERE stream_id = $1", eid)
        again = await client.post(
            f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer(sam)
        )
        assert again.status_code == 401
        wrong = await client.post(
            f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer("t.wrong")
        )
        assert again.json() == wrong.json()  # a revoked token is not told it was revoked
        assert again.headers["www-authenticate"].startswith("Bearer")
        assert (
            await conn.fetchval("SELECT version FROM streams WHERE stream_id = $1", eid) == version
        )
    finally:
        await conn.close()


async def test_creation_keys_are_scoped_to_their_client(database_url: str) -> None:
    """Two clients that happen to send the same Idempotency-Key open two encounters: the
    second never receives the first one's encounter id."""
    body = {"ruleset": "generic", "name": "Same key"}
    key = {"Idempotency-Key": "shared-by-accident"}
    async with serving(create_app(Settings(database_url=database_url))) as url:
        here = httpx.AsyncHTTPTransport(local_address="127.0.0.1")
        there = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with (
            httpx.AsyncClient(transport=here, base_url=url) as one,
            httpx.AsyncClient(transport=there, base_url=url) as other,
        ):
            first = await one.post("/encounters", json=body, headers=key)
            second = await other.post("/encounters", json=body, headers=key)
            again = await one.post("/encounters", json=body, headers=key)
    assert first.status_code == second.status_code == again.status_code == 201
    assert second.json()["encounter_id"] != first.json()["encounter_id"]
    assert second.json()["gm_token"]
    assert again.json()["encounter_id"] == first.json()["encounter_id"]


async def _spectator(client: Client, eid: str) -> str:
    minted = await client.post(
        f"/encounters/{eid}/tokens", json={"role": "spectator", "label": "stream overlay"}
    )
    assert minted.status_code == 201, minted.text
    assert minted.json()["info"]["role"] == "spectator"
    assert minted.json()["info"]["combatants"] == []
    return str(minted.json()["token"])


async def test_a_spectator_reads_what_a_player_reads(client: Client) -> None:
    eid, sam, _kim = await _table(client)
    await command(client, eid, ATTACK)
    secret = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": {**ATTACK, "attacker": "grak", "target": "aria"}, "hidden": True},
    )
    assert secret.status_code == 200, secret.text
    watcher = await _spectator(client, eid)
    for path in ("", "?at=4", "/log", "/log.txt", "/rolls", "/events"):
        as_player = await client.get(f"/encounters/{eid}{path}", headers=bearer(sam))
        as_spectator = await client.get(f"/encounters/{eid}{path}", headers=bearer(watcher))
        assert as_spectator.status_code == as_player.status_code == 200, path
        assert as_spectator.content == as_player.content, path
    rolls = (await client.get(f"/encounters/{eid}/rolls", headers=bearer(watcher))).json()
    hidden = [r for r in rolls["rolls"] if r["hidden"]]
    assert hidden and all("total" not in r for r in hidden)
    head = (await client.get(f"/encounters/{eid}")).json()["version"]
    live = await client.get(
        f"/encounters/{eid}/live?after_version=0&until_version={head}", headers=bearer(watcher)
    )
    assert live.status_code == 200
    streamed = [m.data["stream_version"] for m in parse(live.text.splitlines())]
    assert streamed == list(range(1, head + 1))
    verify = await client.get(f"/encounters/{eid}/verify", headers=bearer(watcher))
    assert verify.status_code == 200


async def test_a_spectator_writes_nothing(client: Client) -> None:
    eid, _sam, _kim = await _table(client)
    watcher = await _spectator(client, eid)
    version = (await client.get(f"/encounters/{eid}")).json()["version"]
    read_only = "a spectator token is read-only: it may not issue, undo, reveal or fork"
    for path, body in (
        ("commands", {"command": {"type": "generic.next_turn"}}),
        ("commands", {"command": ATTACK}),
        ("requests", {"command": ATTACK, "note": "please"}),
        ("requests/q1/approve", {}),
        ("requests/q1/refuse", {"reason": "no"}),
        ("requests/q1/amend", {"command": ATTACK}),
        ("requests/clear", {}),
        ("undo", {}),
        ("redo", {}),
        ("fork", {}),
        ("dice/reveal", {}),
        ("rolls/reveal", {"roll_ids": ["r1"]}),
        ("notes", {"text": "hello"}),
    ):
        response = await client.post(
            f"/encounters/{eid}/{path}", json=body, headers=bearer(watcher)
        )
        assert response.status_code == 403, (path, response.text)
        assert response.json()["detail"] == read_only, path
    for response in (
        await client.post(f"/encounters/{eid}/tokens", json={}, headers=bearer(watcher)),
        await client.get(f"/encounters/{eid}/tokens", headers=bearer(watcher)),
        await client.delete(
            f"/encounters/{eid}/tokens/{watcher.split('.')[0]}", headers=bearer(watcher)
        ),
    ):
        assert response.status_code == 403, response.text
        assert response.json()["detail"].startswith("only the GM may")
    assert (await client.get(f"/encounters/{eid}")).json()["version"] == version
    bound = await client.post(
        f"/encounters/{eid}/tokens", json={"role": "spectator", "combatants": ["aria"]}
    )
    assert bound.status_code == 422
    assert bound.json()["detail"] == (
        "only a player token is bound to combatants; a spectator token is not"
    )


async def test_a_revoked_spectator_gets_401_not_403(client: Client) -> None:
    """A write route may reuse a token its process checked before; a spectator's never is,
    so once revoked it learns nothing more, not even that it may not write."""
    eid, _sam, _kim = await _table(client)
    watcher = await _spectator(client, eid)
    body = {"command": {"type": "generic.next_turn"}}
    first = await client.post(f"/encounters/{eid}/commands", json=body, headers=bearer(watcher))
    assert first.status_code == 403
    revoked = await client.delete(f"/encounters/{eid}/tokens/{watcher.split('.')[0]}")
    assert revoked.status_code == 204
    again = await client.post(f"/encounters/{eid}/commands", json=body, headers=bearer(watcher))
    assert again.status_code == 401
    assert (await client.get(f"/encounters/{eid}", headers=bearer(watcher))).status_code == 401


async def test_the_openapi_document_has_the_spectator_role_and_whoami(client: Client) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    mint = document["components"]["schemas"]["MintToken"]["properties"]["role"]
    assert set(mint["enum"]) == {"player", "gm", "spectator"}
    whoami = document["paths"]["/encounters/{encounter_id}/whoami"]["get"]
    assert whoami["operationId"] == "whoAmI"
    eid, sam, _kim = await _table(client)
    watcher = await _spectator(client, eid)
    seen = {}
    for name, headers in (("gm", {}), ("sam", bearer(sam)), ("watcher", bearer(watcher))):
        response = await client.get(f"/encounters/{eid}/whoami", headers=headers)
        assert response.status_code == 200, response.text
        seen[name] = response.json()
    assert seen["gm"]["role"] == "gm"
    assert seen["sam"] == {"role": "player", "token_id": sam.split(".")[0], "combatants": ["aria"]}
    assert seen["watcher"] == {
        "role": "spectator",
        "token_id": watcher.split(".")[0],
        "combatants": [],
    }
    assert (await client.get(f"/encounters/{eid}/whoami", headers=bearer("x.y"))).status_code == 401


async def test_wrong_revoked_and_foreign_tokens_get_one_answer_everywhere(client: Client) -> None:
    """Whoever holds a token that opens nothing here learns nothing of why: not whether
    it was ever valid, was revoked, or opens another table."""
    eid, sam, _kim = await _table(client)
    _other, kim_elsewhere, _ = await _table(client)
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    revoked = minted.json()["token"]
    warm = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer(revoked)
    )
    assert warm.status_code == 200, warm.text  # this process has checked it before
    gone = await client.delete(f"/encounters/{eid}/tokens/{revoked.split('.')[0]}")
    assert gone.status_code == 204
    requests = [
        ("POST", "/commands", {"command": ATTACK}),
        ("POST", "/undo", None),
        ("GET", "", None),
        ("GET", "/events", None),
        ("GET", "/log", None),
        ("GET", "/whoami", None),
        ("GET", "/verify", None),
    ]
    for method, path, body in requests:
        answers = []
        for token in (revoked, kim_elsewhere, f"{sam.split('.')[0]}.not-its-secret", "nonsense"):
            r = await client.request(
                method, f"/encounters/{eid}{path}", json=body, headers=bearer(token)
            )
            assert r.status_code == 401, (method, path, r.text)
            answers.append((r.json(), r.headers["www-authenticate"]))
        assert all(a == answers[0] for a in answers), (method, path, answers)


async def test_the_ruleset_lists_what_a_player_may_send(client: Client) -> None:
    """``GET /rulesets/{name}`` names the commands a player token may send; a player's
    command of any other type is refused as the GM's, whoever it names."""
    info = (await client.get("/rulesets/generic")).json()
    assert info["player_commands"] == [
        "generic.attack",
        "generic.check",
        "generic.roll_initiative",
        "generic.next_turn",
    ]
    eid, sam, _kim = await _table(client)
    heal = {"type": "generic.heal", "target": "aria", "amount": 2}
    refused = await client.post(
        f"/encounters/{eid}/commands", json={"command": heal}, headers=bearer(sam)
    )
    assert refused.status_code == 403, refused.text
    assert "generic.heal is the GM's to issue" in refused.json()["detail"]
