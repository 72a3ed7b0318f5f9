"""Conditional reads of the current state: a 304 while the client's ETag is the
encounter's version, for the GM and for players, and never for a token that no longer
opens the encounter, however it was revoked (without a revocation notice, once the
process's remembered check expires: tests/e2e/test_known_heads.py)."""

from __future__ import annotations

import asyncio

from api.settings import Settings
from tests.e2e.helpers import Client, combatant, command, create, gm_token
from tests.support.live import bearer
from tests.support.tokens import revoke_elsewhere


async def test_the_gm_gets_304_while_the_version_holds_then_the_new_state(client: Client) -> None:
    eid = await create(client, "Etag")
    await command(client, eid, combatant("aria", 12))
    first = await client.get(f"/encounters/{eid}")
    assert first.status_code == 200
    tag = first.headers["etag"]
    assert tag == f'"{first.json()["version"]}"'
    assert first.headers["aeon-chain-head"].startswith(f"{first.json()['version']}:")
    same = await client.get(f"/encounters/{eid}", headers={"If-None-Match": tag})
    assert same.status_code == 304 and same.content == b""
    assert same.headers["etag"] == tag
    await command(client, eid, combatant("borin", 9))
    moved = await client.get(f"/encounters/{eid}", headers={"If-None-Match": tag})
    assert moved.status_code == 200
    assert moved.json()["version"] == first.json()["version"] + 1
    assert "borin" in moved.text
    for other in ('"0"', "*", "13", 'W/"x"', '"' + "9" * 30 + '"'):
        answered = await client.get(f"/encounters/{eid}", headers={"If-None-Match": other})
        assert answered.status_code == 200, other


async def test_a_player_gets_304_until_the_token_is_revoked(
    client: Client, database_url: str
) -> None:
    eid = await create(client, "Player etag")
    await command(client, eid, combatant("aria", 12))
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    player = minted.json()["token"]
    seen = await client.get(f"/encounters/{eid}", headers=bearer(player))
    assert seen.status_code == 200
    tag = seen.headers["etag"]
    conditional = {**bearer(player), "If-None-Match": tag}
    assert (await client.get(f"/encounters/{eid}", headers=conditional)).status_code == 304
    await revoke_elsewhere(database_url, player)  # no notice: the cached check expires
    await asyncio.sleep(Settings().read_cache_seconds)
    refused = await client.get(f"/encounters/{eid}", headers=conditional)
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer")


async def test_a_current_etag_opens_nothing_without_a_token_of_the_encounter(
    client: Client,
) -> None:
    eid = await create(client, "Mine")
    other = await create(client, "Theirs")
    tag = (await client.get(f"/encounters/{eid}")).headers["etag"]
    foreign = {**bearer(gm_token(client, other)), "If-None-Match": tag}
    assert (await client.get(f"/encounters/{eid}", headers=foreign)).status_code == 401
    garbled = {"Authorization": "Bearer nodot", "If-None-Match": tag}
    assert (await client.get(f"/encounters/{eid}", headers=garbled)).status_code == 401
    missing = {**bearer(gm_token(client, eid)), "If-None-Match": tag}
    unknown = await client.get("/encounters/00000000-0000-0000-0000-000000000000", headers=missing)
    assert unknown.status_code == 401
