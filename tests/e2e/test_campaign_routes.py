"""The campaign routes on a real PostgreSQL: create, the GM's commands, the reads, and
bad input answered with a problem that writes nothing."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import asyncpg
import pytest

from tests.e2e.helpers import Client, combatant, create

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _campaign(client: Client, **extra: Any) -> tuple[str, dict[str, str]]:
    response = await client.post(
        "/campaigns", json={"ruleset": "generic", "name": "Ashes", **extra}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert response.headers["location"] == f"/campaigns/{body['campaign_id']}"
    return body["campaign_id"], {"Authorization": f"Bearer {body['gm_token']}"}


async def _send(
    client: Client, campaign: str, gm: dict[str, str], command: dict[str, Any], **headers: str
) -> Any:
    return await client.post(
        f"/campaigns/{campaign}/commands", json={"command": command}, headers=gm | headers
    )


async def _kinds(database_url: str, stream: str) -> list[str]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch("SELECT kind FROM streams WHERE stream_id = $1::uuid", stream)
        return [r["kind"] for r in rows]
    finally:
        await conn.close()


async def test_a_party_and_a_bestiary_read_back(client: Client, database_url: str) -> None:
    campaign, gm = await _campaign(client)
    assert await _kinds(database_url, campaign) == ["campaign"]
    for member in (combatant("aria", 22), combatant("borin", 30)):
        answer = await _send(client, campaign, gm, {"type": "campaign.add_member", "sheet": member})
        assert answer.status_code == 200, answer.text
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7),
        "hit_points": "2d6",
    }
    answer = await _send(client, campaign, gm, goblin)
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == 4
    assert answer.headers["etag"] == '"4"'

    ruling = {
        "type": "campaign.adjust",
        "member": "aria",
        "condition": {"hp": 15, "conditions": ["poisoned"]},
        "reason": "a trap between fights",
    }
    assert (await _send(client, campaign, gm, ruling)).status_code == 200

    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert view["version"] == 5 and view["name"] == "Ashes" and view["ruleset"] == "generic"
    party = {m["member"]: m for m in view["party"]}
    assert party["aria"]["condition"] == {"hp": 15, "conditions": ["poisoned"]}
    assert party["borin"]["condition"] is None and party["borin"]["sheet"]["hp"] == 30
    assert view["bestiary"] == [
        {
            "statblock": "goblin",
            "name": "Goblin",
            "sheet": view["bestiary"][0]["sheet"],
            "hit_points": "2d6",
        }
    ]
    log = (await client.get(f"/campaigns/{campaign}/log", headers=gm)).json()["entries"]
    assert [e["text"] for e in log] == [
        'The campaign "Ashes" begins, played with the generic rules.',
        "Aria joins the party.",
        "Borin joins the party.",
        "Goblin enters the bestiary (hit points 2d6).",
        "GM ruling on Aria: hp 15, conditions [poisoned], because a trap between fights.",
    ]
    events = (await client.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    assert [e["type"] for e in events] == [
        "campaign.created",
        "campaign.member_added",
        "campaign.member_added",
        "campaign.statblock_added",
        "campaign.adjusted",
    ]
    assert all(e["prev_hash"] == p["hash"] for p, e in pairwise(events))
    assert events[4]["metadata"]["command_type"] == "campaign.adjust"


async def test_if_match_and_idempotency_key(client: Client) -> None:
    campaign, gm = await _campaign(client)
    add = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    stale = await _send(client, campaign, gm, add, **{"If-Match": '"7"'})
    assert stale.status_code == 409, stale.text
    first = await _send(client, campaign, gm, add, **{"Idempotency-Key": "k1", "If-Match": '"1"'})
    again = await _send(client, campaign, gm, add, **{"Idempotency-Key": "k1", "If-Match": '"1"'})
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    other = await _send(
        client, campaign, gm, {**add, "sheet": combatant("borin", 9)}, **{"Idempotency-Key": "k1"}
    )
    assert other.status_code == 422 and "idempotency-key-reused" in other.json()["type"]
    events = (await client.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    assert len(events) == 2


async def test_bad_input_is_a_problem_that_writes_nothing(
    client: Client, database_url: str
) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        before = await conn.fetchval("SELECT count(*) FROM streams WHERE kind = 'campaign'")
        unknown = await client.post("/campaigns", json={"ruleset": "chess", "name": "X"})
        assert unknown.status_code == 422
        assert unknown.headers["content-type"].startswith("application/problem+json")
        assert "chess" in unknown.json()["detail"]
        options = await client.post(
            "/campaigns", json={"ruleset": "generic", "name": "X", "options": {"carry": 1}}
        )
        assert options.status_code == 422 and "options does not fit" in options.json()["detail"]
        assert await conn.fetchval("SELECT count(*) FROM streams WHERE kind = 'campaign'") == before
    finally:
        await conn.close()

    campaign, gm = await _campaign(client)
    bad_sheet = {"type": "campaign.add_member", "sheet": {"type": "generic.add_combatant"}}
    refused = await _send(client, campaign, gm, bad_sheet)
    assert refused.status_code == 422, refused.text
    assert refused.json()["detail"].startswith("the sheet does not fit")
    twice = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    assert (await _send(client, campaign, gm, twice)).status_code == 200
    clash = await _send(client, campaign, gm, twice)
    assert clash.status_code == 422 and "already has the id aria" in clash.json()["detail"]
    carry = {"type": "campaign.carry_over", "encounter": campaign, "version": 1, "game": {}}
    assert (await _send(client, campaign, gm, carry)).status_code == 400  # not the GM's
    events = (await client.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    assert len(events) == 2


async def test_tokens_open_only_their_own_kind_of_stream(client: Client) -> None:
    campaign, gm = await _campaign(client)
    encounter = await create(client)
    assert (await client.get(f"/campaigns/{campaign}")).status_code == 401
    encounter_gm = {"Authorization": client.auth.tokens[encounter]}  # type: ignore[union-attr]
    encounter_gm["Authorization"] = f"Bearer {encounter_gm['Authorization']}"
    assert (await client.get(f"/campaigns/{encounter}", headers=encounter_gm)).status_code == 401
    assert (await client.get(f"/campaigns/{campaign}", headers=encounter_gm)).status_code == 401
    assert (await client.get(f"/encounters/{campaign}", headers=gm)).status_code == 401
    assert (await client.get(f"/encounters/{encounter}/log", headers=gm)).status_code == 401
    other, _ = await _campaign(client)
    assert (await client.get(f"/campaigns/{other}", headers=gm)).status_code == 401


async def _party(client: Client) -> tuple[str, dict[str, str]]:
    campaign, gm = await _campaign(client)
    for member in (combatant("aria", 22), combatant("borin", 30)):
        added = await _send(client, campaign, gm, {"type": "campaign.add_member", "sheet": member})
        assert added.status_code == 200, added.text
    goblin = {"type": "campaign.add_statblock", "sheet": combatant("goblin", 7)}
    assert (await _send(client, campaign, gm, goblin)).status_code == 200
    return campaign, gm


async def test_an_encounter_starts_with_the_party_and_the_monsters(
    client: Client, database_url: str
) -> None:
    campaign, gm = await _party(client)
    body = {
        "name": "The bridge",
        "members": ["aria", "borin"],
        "monsters": [{"statblock": "goblin", "count": 2}],
    }
    started = await client.post(f"/campaigns/{campaign}/encounters", json=body, headers=gm)
    assert started.status_code == 201, started.text
    encounter = started.json()["encounter_id"]
    token = {"Authorization": f"Bearer {started.json()['gm_token']}"}
    state = (await client.get(f"/encounters/{encounter}", headers=token)).json()["state"]
    combatants = state["game"]["combatants"]
    assert {c: (combatants[c]["name"], combatants[c]["hp"]) for c in combatants} == {
        "aria": ("Aria", 22),
        "borin": ("Borin", 30),
        "goblin-1": ("Goblin 1", 7),
        "goblin-2": ("Goblin 2", 7),
    }
    events = (await client.get(f"/encounters/{encounter}/events", headers=token)).json()["events"]
    assert events[0]["data"]["campaign"] == campaign
    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert {m["member"]: m["away"] for m in view["party"]} == {
        "aria": encounter,
        "borin": encounter,
    }
    assert view["encounters"][0]["monsters"][1]["name"] == "Goblin 2"

    conn = await asyncpg.connect(database_url)
    try:
        streams = await conn.fetchval("SELECT count(*) FROM streams")
        away = await client.post(
            f"/campaigns/{campaign}/encounters",
            json={"name": "Again", "members": ["aria"]},
            headers=gm,
        )
        assert away.status_code == 422, away.text
        assert "Aria fights in encounter" in away.json()["detail"]
        rolled = await client.post(
            f"/campaigns/{campaign}/encounters",
            json={"name": "Rolled", "monsters": [{"statblock": "goblin", "hit_points": "rolled"}]},
            headers=gm,
        )
        assert rolled.status_code == 422, rolled.text
        assert await conn.fetchval("SELECT count(*) FROM streams") == streams
    finally:
        await conn.close()
    assert (await client.get(f"/campaigns/{campaign}", headers=gm)).json()["version"] == view[
        "version"
    ]


async def test_a_player_token_opens_its_character_in_every_encounter(client: Client) -> None:
    campaign, gm = await _party(client)
    minted = await client.post(
        f"/campaigns/{campaign}/tokens", json={"member": "aria", "label": "Ann"}, headers=gm
    )
    assert minted.status_code == 201, minted.text
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    unknown = await client.post(f"/campaigns/{campaign}/tokens", json={"member": "zed"}, headers=gm)
    assert unknown.status_code == 422
    ruling = {"type": "campaign.adjust", "member": "aria", "condition": None, "reason": "mine"}
    refused = await _send(client, campaign, player, ruling)
    assert refused.status_code == 403, refused.text  # a player reads the campaign, never writes

    for name in ("First", "Second"):
        started = await client.post(
            f"/campaigns/{campaign}/encounters",
            json={"name": name, "members": ["aria", "borin"]},
            headers=gm,
        )
        assert started.status_code == 201, started.text
        encounter = started.json()["encounter_id"]
        assert (await client.get(f"/encounters/{encounter}", headers=player)).status_code == 200
        own = {"type": "generic.check", "combatant": "aria", "using": None}
        other = {**own, "combatant": "borin"}
        theirs = await client.post(
            f"/encounters/{encounter}/commands", json={"command": other}, headers=player
        )
        assert theirs.status_code == 403, theirs.text
        assert "may act only for" in theirs.json()["detail"]
        mine = await client.post(
            f"/encounters/{encounter}/commands", json={"command": own}, headers=player
        )
        # Bound to aria: refused, if at all, by the rules of a player's check, not the binding.
        assert "may act only for" not in mine.text, mine.text
        closed = {"type": "campaign.close_encounter", "encounter": encounter, "reason": "next"}
        assert (await _send(client, campaign, gm, closed)).status_code == 200

    token_id = minted.json()["token_id"]
    revoked = await client.delete(f"/campaigns/{campaign}/tokens/{token_id}", headers=gm)
    assert revoked.status_code == 204, revoked.text
    assert (await client.get(f"/encounters/{encounter}", headers=player)).status_code == 401
    later = await client.post(
        f"/campaigns/{campaign}/encounters", json={"name": "Third", "members": ["aria"]}, headers=gm
    )
    third = later.json()["encounter_id"]
    assert (await client.get(f"/encounters/{third}", headers=player)).status_code == 401
    gone = await client.delete(f"/campaigns/{campaign}/tokens/nope", headers=gm)
    assert gone.status_code == 404


async def test_encounter_routes_do_not_read_a_campaign(service_client: Client) -> None:
    created = await service_client.post("/campaigns", json={"ruleset": "generic", "name": "C"})
    assert created.status_code == 201, created.text
    campaign = created.json()["campaign_id"]
    for path in ("", "/export", "/verify", "/events", "/log"):
        answer = await service_client.get(f"/encounters/{campaign}{path}")
        assert answer.status_code == 404, (path, answer.text)
    assert (await service_client.get(f"/campaigns/{campaign}")).status_code == 200


async def test_starting_an_encounter_twice_with_one_key_starts_it_once(client: Client) -> None:
    campaign, gm = await _party(client)
    body = {"name": "Once", "members": ["aria"]}
    keyed = gm | {"Idempotency-Key": "start-1"}
    first = await client.post(f"/campaigns/{campaign}/encounters", json=body, headers=keyed)
    again = await client.post(f"/campaigns/{campaign}/encounters", json=body, headers=keyed)
    assert first.status_code == again.status_code == 201, again.text
    assert first.json()["encounter_id"] == again.json()["encounter_id"]
    assert "gm_token" not in again.json() or again.json()["gm_token"] is None
    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert len(view["encounters"]) == 1
    stale = await client.post(
        f"/campaigns/{campaign}/encounters",
        json={"name": "Stale", "members": ["borin"]},
        headers=gm | {"If-Match": '"1"'},
    )
    assert stale.status_code == 409, stale.text


async def test_the_gm_lists_the_campaigns_tokens_and_revokes_one_of_them(
    client: Client, service_client: Client
) -> None:
    campaign, gm = await _campaign(client)
    await _send(
        client, campaign, gm, {"type": "campaign.add_member", "sheet": combatant("aria", 20)}
    )
    tokens = f"/campaigns/{campaign}/tokens"
    sam = (await client.post(tokens, json={"member": "aria", "label": "Sam"}, headers=gm)).json()
    watcher = (await client.post(tokens, json={"role": "spectator"}, headers=gm)).json()
    listed = await client.get(tokens, headers=gm)
    assert listed.status_code == 200, listed.text
    rows = listed.json()["tokens"]
    gm_id = gm["Authorization"].removeprefix("Bearer ").partition(".")[0]
    assert [(t["token_id"], t["role"], t["member"], t["label"]) for t in rows] == [
        (gm_id, "gm", None, "created with it"),
        (sam["token_id"], "player", "aria", "Sam"),
        (watcher["token_id"], "spectator", None, None),
    ]
    assert all(t["revoked_at"] is None for t in rows)
    secrets = (sam["token"].partition(".")[2], gm["Authorization"].partition(".")[2])
    assert not any(secret in listed.text for secret in secrets)

    gone = await client.delete(f"{tokens}/{watcher['token_id']}", headers=gm)
    assert gone.status_code == 204
    after = {t["token_id"]: t for t in (await client.get(tokens, headers=gm)).json()["tokens"]}
    assert after[watcher["token_id"]]["revoked_at"] is not None
    assert after[gm_id]["revoked_at"] is None

    player = {"Authorization": f"Bearer {sam['token']}"}
    refused = await client.get(tokens, headers=player)
    assert refused.status_code == 403, refused.text
    assert (await client.get(tokens)).status_code == 401
    assert (await service_client.get(tokens)).status_code == 200
    nowhere = await service_client.get("/campaigns/00000000-0000-4000-8000-000000000000/tokens")
    assert nowhere.status_code == 404, nowhere.text
