"""GET /encounters/{id}/stats over a scripted encounter, against figures worked out by hand."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create


def _attack(attacker: str, target: str, notation: str, damage: str) -> dict[str, Any]:
    return {
        "type": "generic.attack",
        "attacker": attacker,
        "target": target,
        "notation": notation,
        "damage": damage,
    }


async def _skirmish(client: Client) -> str:
    eid = await create(client, "Stats", options={"initiative_stat": "dex"})
    for c in (
        combatant("alice", 20, ac=14, dex=3),
        combatant("bob", 16, ac=12, dex=1),
        combatant("orc", 15, ac=13, dex=0),
    ):
        await command(client, eid, c)
    await command(client, eid, {"type": "generic.roll_initiative"}, manual=[[10], [12], [9]])
    # alice hits the orc (11+5 vs 13) for 6+2; bob misses it (3+2); the orc hits bob for 7.
    await command(client, eid, _attack("alice", "orc", "1d20+5", "1d8+2"), manual=[[11], [6]])
    await command(client, eid, {"type": "generic.next_turn"})
    await command(client, eid, _attack("bob", "orc", "1d20+2", "1d6"), manual=[[3]])
    await command(client, eid, {"type": "generic.next_turn"})
    await command(client, eid, _attack("orc", "bob", "1d20+4", "1d12"), manual=[[15], [7]])
    # Burning oil (the GM's damage, no attacker) and a potion for bob.
    oil = {"type": "generic.damage", "target": "orc", "notation": "1d6", "source": "oil"}
    await command(client, eid, oil, manual=[[4]])
    await command(
        client, eid, {"type": "generic.heal", "target": "bob", "notation": "1d4"}, manual=[[3]]
    )
    # Round 2: alice hits again (18+5) for 5+2, and the GM undoes it.
    await command(client, eid, {"type": "generic.next_turn"})
    await command(client, eid, _attack("alice", "orc", "1d20+5", "1d8+2"), manual=[[18], [5]])
    undo = await client.post(f"/encounters/{eid}/undo", json={"reason": "wrong target"})
    assert undo.status_code == 200, undo.text
    return eid


def _by_combatant(stats: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["combatant"]: c for c in stats["combatants"]}


async def test_the_damage_meter_and_dice_figures_match_the_hand_count(client: Client) -> None:
    eid = await _skirmish(client)
    response = await client.get(f"/encounters/{eid}/stats")
    assert response.status_code == 200, response.text
    stats = response.json()
    who = _by_combatant(stats)
    alice, bob, orc = who["alice"], who["bob"], who["orc"]
    # The undone attack is out of the meter: alice dealt 8, not 15.
    assert (alice["attacks"], alice["hits"], alice["damage_dealt"]) == (1, 1, 8)
    assert (bob["attacks"], bob["misses"], bob["damage_taken"]) == (1, 1, 7)
    assert bob["healing_received"] == 3
    assert (orc["hits"], orc["damage_dealt"], orc["damage_taken"]) == (1, 7, 12)
    assert stats["unattributed_damage"] == 4
    # Every face thrown counts for fairness, the undone attack's too.
    manual = {d["sides"]: d for d in stats["dice"]["manual"]}
    assert manual[20]["dice"] == 7 and manual[20]["faces"][17] == 1  # the undone 18
    assert manual[8]["faces"] == [0, 0, 0, 0, 1, 1, 0, 0]
    assert (manual[6]["dice"], manual[12]["dice"], manual[4]["dice"]) == (1, 1, 1)
    assert stats["dice"]["server"] == []
    assert stats["rolls"] == 12
    # Turns: alice, bob, orc in round 1, alice again in round 2.
    assert (alice["turns"], bob["turns"], orc["turns"]) == (2, 1, 1)
    assert bob["mean_turn_seconds"] is not None and bob["mean_turn_seconds"] >= 0


async def test_time_travel_gives_the_figures_as_they_stood(client: Client) -> None:
    eid = await _skirmish(client)
    events = (await client.get(f"/encounters/{eid}/events")).json()["events"]
    first_attack = next(e for e in events if e["type"] == "generic.damaged")["stream_version"]
    then = (await client.get(f"/encounters/{eid}/stats", params={"at": first_attack})).json()
    assert then["version"] == first_attack
    assert _by_combatant(then)["alice"]["damage_dealt"] == 8
    assert "bob" not in _by_combatant(then) or _by_combatant(then)["bob"]["damage_taken"] == 0
    ahead = await client.get(f"/encounters/{eid}/stats", params={"at": 10_000})
    assert ahead.status_code == 404


async def test_a_player_sees_no_figure_of_a_secret_roll_until_it_is_revealed(
    client: Client,
) -> None:
    eid = await _skirmish(client)
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["bob"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    secret = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": _attack("orc", "bob", "1d20+4", "1d12"), "hidden": True},
    )
    assert secret.status_code == 200, secret.text
    gm_view = (await client.get(f"/encounters/{eid}/stats")).json()
    seen = (await client.get(f"/encounters/{eid}/stats", headers=player)).json()
    assert _by_combatant(gm_view)["orc"]["attacks"] == 2
    assert _by_combatant(seen)["orc"]["attacks"] == 1
    assert _by_combatant(seen)["bob"]["damage_taken"] == 7
    assert seen["dice"]["server"] == [] and seen["rolls"] == 12
    roll_ids = [secret.json()["events"][0]["data"]["seal_id"]]
    reveal = await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": roll_ids})
    assert reveal.status_code == 200, reveal.text
    after = (await client.get(f"/encounters/{eid}/stats", headers=player)).json()
    assert _by_combatant(after)["orc"]["attacks"] == 2
    assert after["dice"]["server"] != []
