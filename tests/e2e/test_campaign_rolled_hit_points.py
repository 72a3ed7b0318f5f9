"""Hit points rolled for a campaign's monster copies on the encounter's own fair dice, on
a real PostgreSQL: public rolls where the table shows monsters' numbers, secret rolls
where ``npc_health`` hides them, checked by a player with the README's script after the
reveal; and the rulesets without hit points refuse "rolled" in their own words."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec
import pytest

from service.registry import get_ruleset
from tests.e2e.helpers import Client, combatant, posted
from tests.support.fairness import readme_check

pytestmark = pytest.mark.asyncio(loop_scope="session")

HP_EVENT = "encounter.hit_points_rolled"


async def _campaign(client: Client, ruleset: str = "generic") -> tuple[str, dict[str, str]]:
    created = await posted(client, "/campaigns", {"ruleset": ruleset, "name": "Rolled"})
    return created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}


async def _start(
    client: Client, npc_health: str, notation: str = "2d6+1"
) -> tuple[str, str, dict[str, str], dict[str, str]]:
    """A generic campaign with Aria and a goblin statblock, an encounter started with two
    goblins of rolled hit points; its id, the campaign's, the GM's and a spectator's
    token (a spectator reads exactly what a player reads)."""
    campaign, gm = await _campaign(client)
    commands = f"/campaigns/{campaign}/commands"
    member = {"type": "campaign.add_member", "sheet": combatant("aria", 22)}
    await posted(client, commands, {"command": member}, gm)
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7),
        "hit_points": notation,
    }
    await posted(client, commands, {"command": goblin}, gm)
    body = {
        "name": "The ford",
        "members": ["aria"],
        "monsters": [{"statblock": "goblin", "count": 2, "hit_points": "rolled"}],
        "npc_health": npc_health,
    }
    eid = (await posted(client, f"/campaigns/{campaign}/encounters", body, gm))["encounter_id"]
    watcher = await posted(client, f"/encounters/{eid}/tokens", {"role": "spectator"})
    return eid, campaign, gm, {"Authorization": f"Bearer {watcher['token']}"}


async def _get(client: Client, path: str, token: dict[str, str] | None = None) -> Any:
    response = await client.get(path, headers=token or {})
    assert response.status_code == 200, response.text
    return response.json()


def _hp_event(events: list[dict[str, Any]]) -> dict[str, Any]:
    (event,) = [e for e in events if e["type"] == HP_EVENT]
    return event


async def test_public_rolls_where_the_table_shows_monsters_numbers(client: Client) -> None:
    eid, campaign, gm, spectator = await _start(client, "exact")
    events = (await _get(client, f"/encounters/{eid}/events"))["events"]
    rolled = _hp_event(events)
    assert rolled["stream_version"] == 3  # right after the dice commitment
    rolls = rolled["data"]["rolls"]
    assert [r["roll_id"] for r in rolls] == ["r1", "r2"]
    assert all(r["source"] == "server" and not r["hidden"] for r in rolls)
    assert [r["index"] for r in rolls] == [0, 2]  # the epoch's public dice, in order
    hit_points = {c["id"]: c["hit_points"] for c in rolled["data"]["copies"]}
    assert hit_points == {"goblin-1": rolls[0]["total"], "goblin-2": rolls[1]["total"]}

    # The copies fight with them, and the campaign records them for its GM.
    game = (await _get(client, f"/encounters/{eid}"))["state"]["game"]
    assert {c: game["combatants"][c]["hp"] for c in hit_points} == hit_points
    view = await _get(client, f"/campaigns/{campaign}/events", gm)
    started = next(e for e in view["events"] if e["type"] == "campaign.encounter_started")
    assert [m["hit_points"] for m in started["data"]["monsters"]] == list(hit_points.values())
    assert [r["roll_id"] for r in started["data"]["rolls"]] == ["r1", "r2"]

    # Public rolls: the spectator reads them, and the next roll continues the sequence.
    seen = _hp_event((await _get(client, f"/encounters/{eid}/events", spectator))["events"])
    assert seen["data"]["rolls"] == rolls
    ledger = (await _get(client, f"/encounters/{eid}/rolls", spectator))["rolls"]
    assert [r["roll_id"] for r in ledger] == ["r1", "r2"] and "redacted" not in ledger[0]
    log = (await client.get(f"/encounters/{eid}/log.txt", headers=spectator)).text
    assert f"Goblin 1 has {hit_points['goblin-1']} hit points" in log
    damage = {"type": "generic.damage", "target": "goblin-1", "notation": "1d4"}
    answer = await posted(client, f"/encounters/{eid}/commands", {"command": damage})
    assert answer["events"][0]["data"]["rolls"][0]["index"] == 4

    # After the GM ends the epoch, a player checks every roll with the README's script.
    await posted(client, f"/encounters/{eid}/dice/reveal", {})
    events = (await _get(client, f"/encounters/{eid}/events", spectator))["events"]
    committed = next(e for e in events if e["type"] == "dice.seed_committed")["data"]
    seed = next(e for e in events if e["type"] == "dice.seed_revealed")["data"]["seed"]
    check = readme_check()
    assert all(check(seed, committed["commitment"], committed["client_seed"], r) for r in rolls)
    report = (await _get(client, f"/encounters/{eid}/verify", spectator))["dice"]
    assert report["ok"] and report["epochs"][0]["verified"] == 3


async def test_secret_rolls_where_npc_health_hides_monsters_numbers(client: Client) -> None:
    eid, campaign, gm, spectator = await _start(client, "hidden")
    gm_events = (await _get(client, f"/encounters/{eid}/events"))["events"]
    rolled = _hp_event(gm_events)
    rolls = rolled["data"]["rolls"]
    assert all(r["hidden"] and r["source"] == "server" for r in rolls)
    hit_points = {c["id"]: c["hit_points"] for c in rolled["data"]["copies"]}
    assert list(hit_points.values()) == [r["total"] for r in rolls]
    assert sorted(rolled["data"]["health_commitments"]) == [
        "/copies/0/hit_points",
        "/copies/1/hit_points",
        "/rolls",
    ]

    # The spectator reads that the GM rolled, for whom, and nothing of what.
    seen = (await _get(client, f"/encounters/{eid}/events", spectator))["events"]
    data = _hp_event(seen)["data"]
    assert [c for c in data["copies"]] == [
        {"id": "goblin-1", "name": "Goblin 1"},
        {"id": "goblin-2", "name": "Goblin 2"},
    ]
    assert all(r["redacted"] and "total" not in r and "dice" not in r for r in data["rolls"])
    assert "health_salts" not in data
    assert [e["type"] for e in seen] == [e["type"] for e in gm_events]  # no event secret
    ledger = (await _get(client, f"/encounters/{eid}/rolls", spectator))["rolls"]
    assert all(r["redacted"] for r in ledger)
    log = (await client.get(f"/encounters/{eid}/log.txt", headers=spectator)).text
    assert "The GM rolls Goblin 1's hit points." in log and "2d6" not in log
    state = (await _get(client, f"/encounters/{eid}", spectator))["state"]
    assert state["secret_rolls"] == ["r1", "r2"]
    assert "next_secret_index" not in state["dice"]
    goblin = state["game"]["combatants"]["goblin-1"]
    assert "hp" not in goblin or goblin["hp"] is None
    # The campaign's players read no hit points nor rolls either.
    token = await posted(client, f"/campaigns/{campaign}/tokens", {"member": "aria"}, gm)
    player = {"Authorization": f"Bearer {token['token']}"}
    campaign_events = (await _get(client, f"/campaigns/{campaign}/events", player))["events"]
    started = next(e for e in campaign_events if e["type"] == "campaign.encounter_started")
    assert started["data"]["rolls"] == []
    assert [m["hit_points"] for m in started["data"]["monsters"]] == [None, None]
    assert "health_salts" not in started["data"]

    # A player's command is not held: the hit points seal nothing.
    damage = {"type": "generic.damage", "target": "goblin-1", "amount": 1}
    answer = await posted(client, f"/encounters/{eid}/commands", {"command": damage})
    assert answer["events"][0]["type"] == "generic.damaged"

    # Ending the epoch publishes the public seed, but not the secret one the rolls came from.
    ended = await posted(client, f"/encounters/{eid}/dice/reveal", {})
    assert ended["events"][0]["data"]["secret_seed"] is None
    report = (await _get(client, f"/encounters/{eid}/verify", spectator))["dice"]
    assert report["epochs"][0]["secret_rolls"] == 2 and report["epochs"][0]["secret_verified"] == 0

    # The GM reveals them: the secret seed is out and a player checks the faces.
    await posted(client, f"/encounters/{eid}/rolls/reveal", {"roll_ids": ["r1", "r2"]})
    seen = (await _get(client, f"/encounters/{eid}/events", spectator))["events"]
    assert _hp_event(seen)["data"]["rolls"] == rolls
    shown = next(e for e in seen if e["type"] == "dice.rolls_revealed")["data"]["secret_seeds"]
    committed = next(e for e in seen if e["type"] == "dice.seed_committed")["data"]
    check = readme_check()
    assert all(
        check(shown["1"], committed["secret_commitment"], committed["client_seed"], r)
        for r in rolls
    )
    report = (await _get(client, f"/encounters/{eid}/verify", spectator))["dice"]
    assert report["ok"] and report["epochs"][0]["secret_verified"] == 2


async def test_secret_hit_points_hold_no_carry_over(client: Client) -> None:
    eid, campaign, gm, _ = await _start(client, "descriptor")
    await posted(
        client, f"/encounters/{eid}/commands", {"command": {"type": "generic.end_encounter"}}
    )
    # The GM's carry-over races the service's own process manager: whichever is first
    # carries it (the other is told it already was), and nothing held it back.
    asked = await client.post(f"/campaigns/{campaign}/encounters/{eid}/carry-over", headers=gm)
    if asked.status_code == 422:
        assert "already carried over" in asked.json()["detail"], asked.text
    else:
        assert asked.status_code == 200, asked.text
        assert asked.json()["events"][0]["type"] == "campaign.carried_over"
    (encounter,) = (await _get(client, f"/campaigns/{campaign}", gm))["encounters"]
    assert len(encounter["carried"]) == 1


async def test_rolled_hit_points_start_nothing_when_refused(
    client: Client, database_url: str
) -> None:
    """A refusal after the rolls (a member away) writes nothing: no stream, no roll."""
    _, campaign, gm, _ = await _start(client, "exact")
    version = (await _get(client, f"/campaigns/{campaign}", gm))["version"]
    conn = await asyncpg.connect(database_url)
    try:
        streams = await conn.fetchval("SELECT count(*) FROM streams")
        again = {
            "name": "Again",
            "members": ["aria"],
            "monsters": [{"statblock": "goblin", "hit_points": "rolled"}],
        }
        refused = await client.post(f"/campaigns/{campaign}/encounters", json=again, headers=gm)
        assert refused.status_code == 422, refused.text
        assert await conn.fetchval("SELECT count(*) FROM streams") == streams
    finally:
        await conn.close()
    assert (await _get(client, f"/campaigns/{campaign}", gm))["version"] == version


def _example_sheet(ruleset: str, ident: str) -> dict[str, Any]:
    r = get_ruleset(ruleset)
    rules = r.carry
    assert rules is not None
    example = next(e for e in r.examples if isinstance(e, rules.sheet_type))
    sheet: dict[str, Any] = msgspec.to_builtins(rules.renamed(example, ident, ident.title()))
    return sheet


async def test_scentfinder_copies_fight_with_rolled_hit_points(client: Client) -> None:
    campaign, gm = await _campaign(client, "scentfinder")
    brute = {
        "type": "campaign.add_statblock",
        "sheet": _example_sheet("scentfinder", "brute"),
        "hit_points": "3d8",
    }
    await posted(client, f"/campaigns/{campaign}/commands", {"command": brute}, gm)
    area = brute["sheet"].get("area")
    body = {
        "name": "The den",
        "ground": [{"type": "scentfinder.define_area", "id": area, "name": "Den"}] if area else [],
        "monsters": [{"statblock": "brute", "count": 2, "hit_points": "rolled"}],
        "npc_health": "exact",
    }
    eid = (await posted(client, f"/campaigns/{campaign}/encounters", body, gm))["encounter_id"]
    events = (await _get(client, f"/encounters/{eid}/events"))["events"]
    rolled = _hp_event(events)["data"]
    game = (await _get(client, f"/encounters/{eid}"))["state"]["game"]
    for copy, roll in zip(rolled["copies"], rolled["rolls"], strict=True):
        assert roll["notation"] == "3d8" and copy["hit_points"] == roll["total"]
        fighter = game["combatants"][copy["id"]]
        assert (fighter["hp"], fighter["max_hp"]) == (roll["total"], roll["total"])


@pytest.mark.parametrize("ruleset", ["aeonisk", "aeonis", "tactics", "untold-aeons"])
async def test_rulesets_without_hit_points_refuse_rolled_in_their_words(
    client: Client, ruleset: str
) -> None:
    campaign, gm = await _campaign(client, ruleset)
    statblock = {"type": "campaign.add_statblock", "sheet": _example_sheet(ruleset, "brute")}
    await posted(client, f"/campaigns/{campaign}/commands", {"command": statblock}, gm)
    body = {
        "name": "No dice",
        "monsters": [{"statblock": "brute", "hit_points": "rolled"}],
        "options": {"press_penalty_step": 2} if ruleset == "tactics" else {},
    }
    refused = await client.post(f"/campaigns/{campaign}/encounters", json=body, headers=gm)
    assert refused.status_code == 422, refused.text
    rules = get_ruleset(ruleset).carry
    assert rules is not None
    assert refused.json()["detail"] == (
        f"Brute's hit points cannot be rolled: {rules.no_hit_points}"
    )
