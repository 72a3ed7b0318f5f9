"""A campaign's party carried from one encounter to the next on a real PostgreSQL: the
process manager carries an ended encounter once, the GM undoes and redoes it, and the
next encounter starts from what the first left (numbers worked out by hand below)."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest

from api.campaigns.carrier import Carrier
from tests.e2e.helpers import Client, combatant

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _post(client: Client, path: str, body: Any, token: dict[str, str]) -> Any:
    response = await client.post(path, json=body, headers=token)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def _carried(client: Client, campaign: str, gm: dict[str, str], count: int) -> Any:
    """The campaign once ``count`` carry-overs are recorded: the service's own process
    manager and a second one here race for them, as two processes would."""
    pool = await asyncpg.create_pool(client.app.state.services.settings.database_url)
    try:
        other = Carrier(pool, None)
        for _ in range(100):
            await other.turn()
            view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
            if sum(len(e["carried"]) for e in view["encounters"]) >= count:
                return view
            await asyncio.sleep(0.05)
    finally:
        await pool.close()
    raise AssertionError("no carry-over")


async def test_two_encounters_in_a_row(client: Client) -> None:
    created = await _post(client, "/campaigns", {"ruleset": "generic", "name": "Ashes"}, {})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    for sheet in (combatant("aria", 22), combatant("borin", 30)):
        await _post(
            client, commands, {"command": {"type": "campaign.add_member", "sheet": sheet}}, gm
        )
    goblin = {"type": "campaign.add_statblock", "sheet": combatant("goblin", 7)}
    await _post(client, commands, {"command": goblin}, gm)

    body = {
        "name": "The bridge",
        "members": ["aria", "borin"],
        "monsters": [{"statblock": "goblin"}],
    }
    first = await _post(client, f"/campaigns/{campaign}/encounters", body, gm)
    one, gm1 = first["encounter_id"], {"Authorization": f"Bearer {first['gm_token']}"}
    fight = [
        {"type": "generic.damage", "target": "aria", "amount": 7},  # 22 - 7 = 15
        {"type": "generic.damage", "target": "borin", "amount": 12},  # 30 - 12 = 18
        {"type": "generic.add_condition", "target": "aria", "condition": "poisoned"},
        {"type": "generic.damage", "target": "goblin", "amount": 7},
    ]
    for command in fight:
        await _post(client, f"/encounters/{one}/commands", {"command": command}, gm1)
    nothing_yet = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    ended = await _post(
        client, f"/encounters/{one}/commands", {"command": {"type": "generic.end_encounter"}}, gm1
    )

    view = await _carried(client, campaign, gm, 1)
    party = {m["member"]: m for m in view["party"]}
    assert party["aria"]["condition"] == {"hp": 15, "conditions": ["poisoned"]}
    assert party["borin"]["condition"] == {"hp": 18, "conditions": []}
    assert party["aria"]["away"] is None
    (carried,) = view["encounters"][0]["carried"]
    assert carried["version"] == ended["version"]
    assert carried["previous"] == {"aria": None, "borin": None}
    assert nothing_yet["version"] + 1 == view["version"]
    log = (await client.get(f"/campaigns/{campaign}/log", headers=gm)).json()["entries"]
    assert log[-1]["text"] == (
        f'"The bridge" at version {ended["version"]} carries over: '
        "Aria: hp 15, conditions [poisoned]; Borin: hp 18, conditions []."
    )

    # Exactly once: more turns (and the app's own manager) carry nothing more.
    await _carried(client, campaign, gm, 1)
    events = (await client.get(f"/campaigns/{campaign}/events", headers=gm)).json()["events"]
    assert [e["type"] for e in events].count("campaign.carried_over") == 1

    undo = {"type": "campaign.undo_carry_over", "encounter": one, "reason": "a misread"}
    await _post(client, commands, {"command": undo}, gm)
    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert {m["member"]: m["condition"] for m in view["party"]} == {"aria": None, "borin": None}
    redo = {"type": "campaign.redo_carry_over", "encounter": one, "reason": "it stood"}
    await _post(client, commands, {"command": redo}, gm)

    second = await _post(
        client,
        f"/campaigns/{campaign}/encounters",
        {"name": "The keep", "members": ["aria", "borin"]},
        gm,
    )
    two, gm2 = second["encounter_id"], {"Authorization": f"Bearer {second['gm_token']}"}
    state = (await client.get(f"/encounters/{two}", headers=gm2)).json()["state"]["game"]
    aria, borin = state["combatants"]["aria"], state["combatants"]["borin"]
    assert (aria["hp"], aria["max_hp"], borin["hp"], borin["max_hp"]) == (15, 22, 18, 30)
    assert [c["name"] for c in aria["conditions"]] == ["poisoned"]
    log2 = (await client.get(f"/encounters/{two}/log", headers=gm2)).json()["entries"]
    assert any("carried over from the campaign" in e["text"] for e in log2)


async def test_a_secret_roll_holds_the_carry_over_until_it_is_revealed(client: Client) -> None:
    created = await _post(client, "/campaigns", {"ruleset": "generic", "name": "Veiled"}, {})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    add = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await _post(client, f"/campaigns/{campaign}/commands", {"command": add}, gm)
    start = {"name": "In the dark", "members": ["aria"]}
    first = await _post(client, f"/campaigns/{campaign}/encounters", start, gm)
    one, gm1 = first["encounter_id"], {"Authorization": f"Bearer {first['gm_token']}"}
    secret = {"type": "generic.damage", "target": "aria", "notation": "1d4"}
    await _post(client, f"/encounters/{one}/commands", {"command": secret, "hidden": True}, gm1)
    end = {"command": {"type": "generic.end_encounter"}}
    await _post(client, f"/encounters/{one}/commands", end, gm1)

    pool = await asyncpg.create_pool(client.app.state.services.settings.database_url)
    try:
        carrier = Carrier(pool, None)
        for _ in range(5):
            await carrier.turn()
        view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
        assert view["encounters"][0]["carried"] == []
        assert view["party"][0]["condition"] is None  # nothing of the hidden roll shows

        rolls = (await client.get(f"/encounters/{one}/rolls", headers=gm1)).json()["rolls"]
        # The damage is sealed (s1), and the end after it until s1 is revealed.
        (hidden,) = [r for r in rolls if r["source"] == "server"]
        await _post(client, f"/encounters/{one}/rolls/reveal", {"roll_ids": ["s1"]}, gm1)
        view = await _carried(client, campaign, gm, 1)
    finally:
        await pool.close()
    assert view["party"][0]["condition"]["hp"] == 22 - hidden["total"]


async def _read_past(client: Client, encounter: str, version: int) -> None:
    """Until the process manager's checkpoint is past ``version`` of ``encounter`` (the
    app's manager or this one, turning here, read it)."""
    pool = await asyncpg.create_pool(client.app.state.services.settings.database_url)
    try:
        other = Carrier(pool, None)
        for _ in range(100):
            await other.turn()
            read = await pool.fetchval(
                """SELECT CASE WHEN cardinality(c.shards) = 2  -- in transaction order
                            THEN (e.transaction_id::text::bigint, e.global_position)
                                 <= (c.shards[1], c.shards[2])
                            ELSE c.shards[e.shard + 1] >= e.shard_position END
                   FROM events AS e, carry_over_checkpoint AS c
                   WHERE e.stream_id = $1::uuid AND e.stream_version = $2
                     AND c.name = 'carrier'""",
                encounter,
                version,
            )
            if read:
                return
            await asyncio.sleep(0.05)
    finally:
        await pool.close()
    raise AssertionError("the process manager did not read that far")


async def test_a_note_after_an_undo_does_not_carry_the_fight_again(client: Client) -> None:
    """The GM undid a carry-over; a note in the ended encounter is a later version, which
    the process manager no longer carries by itself.  The GM's own carry-over does."""
    created = await _post(client, "/campaigns", {"ruleset": "generic", "name": "Undone"}, {})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    add = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await _post(client, f"/campaigns/{campaign}/commands", {"command": add}, gm)
    started = await _post(
        client, f"/campaigns/{campaign}/encounters", {"name": "Ford", "members": ["aria"]}, gm
    )
    one, gm1 = started["encounter_id"], {"Authorization": f"Bearer {started['gm_token']}"}
    for command in (
        {"type": "generic.damage", "target": "aria", "amount": 7},  # 22 - 7 = 15
        {"type": "generic.end_encounter"},
    ):
        await _post(client, f"/encounters/{one}/commands", {"command": command}, gm1)
    view = await _carried(client, campaign, gm, 1)
    assert view["party"][0]["condition"]["hp"] == 15

    undo = {"type": "campaign.undo_carry_over", "encounter": one, "reason": "a healer"}
    await _post(client, f"/campaigns/{campaign}/commands", {"command": undo}, gm)
    noted = await _post(client, f"/encounters/{one}/notes", {"text": "Aria limps home."}, gm1)
    await _read_past(client, one, noted["version"])
    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert view["party"][0]["condition"] is None  # still as the GM left it
    assert [c["undone"] for c in view["encounters"][0]["carried"]] == [True]

    carried = await _post(client, f"/campaigns/{campaign}/encounters/{one}/carry-over", {}, gm)
    assert carried["events"][0]["data"]["version"] == noted["version"]
    view = (await client.get(f"/campaigns/{campaign}", headers=gm)).json()
    assert view["party"][0]["condition"]["hp"] == 15
