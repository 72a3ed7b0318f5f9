"""A campaign's spectator token: it reads the campaign exactly as a player does, writes
nothing, watches every encounter under way when it is minted and every one started later
(as an encounter spectator), and is revoked everywhere at once."""

from __future__ import annotations

import asyncpg
import pytest

from tests.e2e.helpers import Client, campaign_with_party, posted
from tests.support.values import strings_in

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _campaign(client: Client) -> tuple[str, dict[str, str]]:
    return await campaign_with_party(client, "Watched")


async def _start(client: Client, campaign: str, gm: dict[str, str], name: str, member: str) -> str:
    body = {"name": name, "members": [member], "monsters": [{"statblock": "goblin"}]}
    started = await posted(client, f"/campaigns/{campaign}/encounters", body, gm)
    return str(started["encounter_id"])


async def test_a_spectator_reads_as_a_player_and_watches_every_encounter(client: Client) -> None:
    campaign, gm = await _campaign(client)
    old = await _start(client, campaign, gm, "Old", "borin")
    closed = {"type": "campaign.close_encounter", "encounter": old, "reason": "a what-if"}
    await posted(client, f"/campaigns/{campaign}/commands", {"command": closed}, gm)
    first = await _start(client, campaign, gm, "First", "aria")

    tokens = f"/campaigns/{campaign}/tokens"
    minted = await posted(client, tokens, {"role": "spectator", "label": "the stream"}, gm)
    assert (minted["role"], minted["member"], minted["label"]) == ("spectator", None, "the stream")
    spectator = _bearer(minted["token"])
    player = _bearer((await posted(client, tokens, {"member": "aria"}, gm))["token"])

    for path in ("", "/log", "/events", "/stats"):
        theirs = await client.get(f"/campaigns/{campaign}{path}", headers=spectator)
        assert theirs.status_code == 200, theirs.text
        mine = await client.get(f"/campaigns/{campaign}{path}", headers=player)
        assert theirs.content == mine.content, path
        assert theirs.headers.get("etag") == mine.headers.get("etag")
    seen = (await client.get(f"/campaigns/{campaign}", headers=spectator)).json()
    assert "2d6" not in strings_in(seen)

    ruling = {"type": "campaign.adjust", "member": "aria", "condition": None, "reason": "mine"}
    writes = (
        ("/commands", {"command": ruling}),
        ("/encounters", {"name": "Mine", "members": ["borin"]}),
        ("/tokens", {"role": "spectator"}),
        (f"/encounters/{first}/carry-over", None),
    )
    for path, body in writes:
        refused = await client.post(f"/campaigns/{campaign}{path}", json=body, headers=spectator)
        assert refused.status_code == 403, (path, refused.text)

    assert (await client.get(f"/encounters/{first}", headers=spectator)).status_code == 200
    who = (await client.get(f"/encounters/{first}/whoami", headers=spectator)).json()
    assert who["role"] == "spectator" and who["token_id"] == minted["token_id"]
    act = {"type": "generic.check", "combatant": "aria", "using": None}
    acting = await client.post(
        f"/encounters/{first}/commands", json={"command": act}, headers=spectator
    )
    assert acting.status_code == 403, acting.text
    assert (await client.get(f"/encounters/{old}", headers=spectator)).status_code == 401
    second = await _start(client, campaign, gm, "Second", "borin")
    assert (await client.get(f"/encounters/{second}", headers=spectator)).status_code == 200

    revoked = await client.delete(f"{tokens}/{minted['token_id']}", headers=gm)
    assert revoked.status_code == 204, revoked.text
    assert (await client.get(f"/campaigns/{campaign}", headers=spectator)).status_code == 401
    for encounter in (first, second):
        assert (await client.get(f"/encounters/{encounter}", headers=spectator)).status_code == 401
    closed = {"type": "campaign.close_encounter", "encounter": second, "reason": "done"}
    await posted(client, f"/campaigns/{campaign}/commands", {"command": closed}, gm)
    third = await _start(client, campaign, gm, "Third", "borin")
    assert (await client.get(f"/encounters/{third}", headers=spectator)).status_code == 401
    assert (await client.get(f"/encounters/{third}", headers=player)).status_code == 401


async def test_a_badly_bound_token_is_a_problem_that_mints_nothing(
    client: Client, database_url: str
) -> None:
    campaign, gm = await _campaign(client)
    conn = await asyncpg.connect(database_url)
    try:
        count = "SELECT count(*) FROM campaign_tokens WHERE campaign_id = $1::uuid"
        before = await conn.fetchval(count, campaign)
        tokens = f"/campaigns/{campaign}/tokens"
        bound = await client.post(tokens, json={"role": "spectator", "member": "aria"}, headers=gm)
        assert bound.status_code == 422 and bound.json()["type"].endswith("bound-token")
        unbound = await client.post(tokens, json={"role": "player"}, headers=gm)
        assert unbound.status_code == 422
        assert unbound.json()["type"].endswith("unbound-player-token")
        gm_role = await client.post(tokens, json={"role": "gm"}, headers=gm)
        assert gm_role.status_code == 400, gm_role.text
        assert gm_role.headers["content-type"].startswith("application/problem+json")
        assert await conn.fetchval(count, campaign) == before
    finally:
        await conn.close()
