"""A revoked token learns nothing: on every route, before anything else, a
401; its open live streams end at once; the last GM token cannot be revoked."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import Client, combatant, command, create
from tests.scaleout.sse import follow
from tests.support.live import serving
from tests.support.tokens import revoke_elsewhere

ATTACK = {"type": "generic.attack", "attacker": "aria", "target": "grak", "using": "sword"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(client: Client) -> tuple[str, str]:
    eid = await create(client, "Revocation")
    for who in ("aria", "grak"):
        sheet = {"sword": {"notation": "1d20+5", "damage": "1d8"}}
        await command(client, eid, {**combatant(who, 20, ac=10), "attacks": sheet})
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    return eid, minted.json()["token"]


async def test_a_revoked_token_gets_401_not_the_reason_its_command_would_fail(
    client: Client, database_url: str
) -> None:
    eid, sam = await _table(client)
    key = {"Idempotency-Key": "sams-attack"}
    first = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": ATTACK},
        headers={**bearer(sam), **key},
    )
    assert first.status_code == 200, first.text
    await revoke_elsewhere(database_url, sam)
    attempts: list[tuple[str, dict[str, Any], dict[str, str]]] = [
        ("rule", {"command": {**ATTACK, "target": "nobody"}}, {}),  # would be a 422
        ("conflict", {"command": ATTACK}, {"If-Match": '"1"'}),  # would be a 409
        ("forbidden", {"command": {**ATTACK, "attacker": "grak"}}, {}),  # would be a 403
        ("replay", {"command": ATTACK}, key),  # would replay Sam's own answer
    ]
    for what, body, headers in attempts:
        response = await client.post(
            f"/encounters/{eid}/commands", json=body, headers={**bearer(sam), **headers}
        )
        assert response.status_code == 401, (what, response.text)
        assert "events" not in response.json()
    undo = await client.post(f"/encounters/{eid}/undo", headers=bearer(sam))
    assert undo.status_code == 401  # a GM-only route: 401 first, not the player's 403


async def test_a_revocation_ends_the_tokens_live_stream_at_once(database_url: str) -> None:
    """Keepalive checks 60 s apart and a poll as slow: only the revocation's notice on
    the encounter's channel can end the stream within the test's few seconds."""
    settings = Settings(database_url=database_url, live_keepalive_seconds=60, live_poll_seconds=60)
    async with serving(create_app(settings)) as url, httpx.AsyncClient(base_url=url) as http:
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Cut"})
        eid, gm = created.json()["encounter_id"], bearer(created.json()["gm_token"])
        await http.post(
            f"/encounters/{eid}/commands", json={"command": combatant("aria", 9)}, headers=gm
        )
        minted = await http.post(
            f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=gm
        )
        sam, sams = minted.json()["token"], minted.json()["info"]["token_id"]
        async with (
            asyncio.timeout(10),
            http.stream("GET", f"/encounters/{eid}/live", headers=bearer(sam)) as live,
        ):
            assert live.status_code == 200
            messages = follow(live)
            await anext(messages)  # the backlog: the stream is open and following
            revoked = await http.delete(f"/encounters/{eid}/tokens/{sams}", headers=gm)
            assert revoked.status_code == 204
            async for _ in messages:  # ends when the server closes the stream
                pass
        again = await http.get(f"/encounters/{eid}/live", headers=bearer(sam))
        assert again.status_code == 401


async def test_the_last_gm_token_cannot_be_revoked(client: Client) -> None:
    eid, _sam = await _table(client)
    tokens = (await client.get(f"/encounters/{eid}/tokens")).json()["tokens"]
    gm = next(t["token_id"] for t in tokens if t["role"] == "gm")
    refused = await client.delete(f"/encounters/{eid}/tokens/{gm}")
    assert refused.status_code == 409
    assert "last valid GM token" in refused.json()["detail"]
    second = await client.post(f"/encounters/{eid}/tokens", json={"role": "gm"})
    assert second.status_code == 201
    assert (await client.delete(f"/encounters/{eid}/tokens/{gm}")).status_code == 204
    other = second.json()["info"]["token_id"]
    new_gm = bearer(second.json()["token"])
    last = await client.delete(f"/encounters/{eid}/tokens/{other}", headers=new_gm)
    assert last.status_code == 409
