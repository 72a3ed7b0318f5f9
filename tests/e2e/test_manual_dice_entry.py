"""Physical dice entered as the table rolls them: a command short of dice is a
422 whose ``dice_needed`` says exactly which die to roll next, and faces a command did
not need are recorded as thrown and unused, secret when the command is."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, combatant, command, create, inner_events

ATTACK = {
    "type": "generic.attack",
    "attacker": "alice",
    "target": "goblin",
    "notation": "1d20+2",
    "damage": "1d8+3",
}


async def _post(
    client: Client, eid: str, cmd: dict[str, Any], manual: list[list[int]], **more: Any
) -> Any:
    body = {"command": cmd, "manual_dice": manual, **more}
    return await client.post(f"/encounters/{eid}/commands", json=body)


async def _version(client: Client, eid: str) -> int:
    return int((await client.get(f"/encounters/{eid}")).json()["version"])


async def _player(client: Client, eid: str, who: str) -> dict[str, str]:
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": [who]})
    assert minted.status_code == 201, minted.text
    return {"Authorization": f"Bearer {minted.json()['token']}"}


async def test_generic_attack_asks_for_the_damage_die_after_a_hit(client: Client) -> None:
    eid = await create(client)
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 12, ac=11))
    before = await _version(client, eid)

    short = await _post(client, eid, ATTACK, [[15]])
    assert short.status_code == 422, short.text
    problem = short.json()
    assert problem["type"].endswith("/dice-needed")
    assert problem["dice_needed"] == {
        "roll": 2,
        "roll_id": "r2",
        "roller": "alice",
        "purpose": problem["dice_needed"]["purpose"],
        "notation": "1d8+3",
        "faces_entered": [],
        "dice": [8],
        "exact": True,
        "hidden": False,
    }
    assert "damage" in problem["dice_needed"]["purpose"]
    assert "manual roll 2 (1d8+3" in problem["detail"]
    assert await _version(client, eid) == before  # nothing written

    # Nothing at all entered: the attack roll is asked for first.
    first = (await _post(client, eid, ATTACK, [])).json()["dice_needed"]
    assert (first["roll"], first["notation"], first["dice"]) == (1, "1d20+2", [20])

    done = await _post(client, eid, ATTACK, [[15], [5]])
    assert done.status_code == 200, done.text
    assert "dice.unused" not in [e["type"] for e in done.json()["events"]]
    state = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert state["combatants"]["goblin"]["hp"] == 12 - (5 + 3)


async def test_generic_damage_die_thrown_with_a_miss_is_recorded_as_unused(
    client: Client,
) -> None:
    eid = await create(client)
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 12, ac=11))

    missed = await _post(client, eid, ATTACK, [[2], [7]])
    assert missed.status_code == 200, missed.text
    events = missed.json()["events"]
    assert events[-1]["type"] == "dice.unused"
    (unused,) = events[-1]["data"]["rolls"]
    assert unused["roll_id"] == "r2" and unused["outcome"] == "unused"
    assert unused["source"] == "manual" and unused["total"] == 0
    assert [(d["face"], d["kept"]) for d in unused["dice"]] == [(7, False)]

    ledger = (await client.get(f"/encounters/{eid}/rolls")).json()["rolls"]
    assert [(r["roll_id"], r.get("outcome")) for r in ledger][-1] == ("r2", "unused")
    log = (await client.get(f"/encounters/{eid}/log")).json()["entries"]
    assert "not needed by the command: 7 (unused)" in log[-1]["text"]
    state = (await client.get(f"/encounters/{eid}")).json()["state"]
    assert state["game"]["combatants"]["goblin"]["hp"] == 12
    assert state["dice"]["rolls_made"] == 2  # the next roll is r3

    # The read models rebuilt from the events agree with the stored ones, unused dice too.
    verified = (await client.get(f"/encounters/{eid}/verify", params={"deep": "true"})).json()
    assert verified["ok"] is True, verified
    assert verified["dice"]["manual_rolls"] == 2

    # An undo takes the miss back but not its dice: roll ids are never handed out twice.
    assert (await client.post(f"/encounters/{eid}/undo")).status_code == 200
    assert (await client.get(f"/encounters/{eid}")).json()["state"]["dice"]["rolls_made"] == 2
    assert (await client.post(f"/encounters/{eid}/redo")).status_code == 200

    # The next command's rolls continue after the unused one.
    nxt = await _post(client, eid, ATTACK, [[15], [1]])
    assert [r["roll_id"] for e in nxt.json()["events"] for r in e["data"].get("rolls", [])] == [
        "r3",
        "r4",
    ]


async def test_unused_faces_of_a_secret_roll_are_as_secret_as_the_roll(client: Client) -> None:
    eid = await create(client)
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 12, ac=11))
    player = await _player(client, eid, "alice")
    secret = dict(ATTACK, attacker="goblin", target="alice", notation="1d20+1", damage="1d6")

    short = await _post(client, eid, secret, [[19]], hidden=True)
    assert short.json()["dice_needed"]["hidden"] is True
    missed = await _post(client, eid, secret, [[3], [6]], hidden=True)
    assert missed.status_code == 200, missed.text
    unused_id = inner_events(missed.json()["events"])[-1]["data"]["rolls"][0]["roll_id"]

    theirs = (await client.get(f"/encounters/{eid}/rolls", headers=player)).json()["rolls"]
    # Players see one record for the sealed command, not how many rolls it made.
    assert unused_id not in {r["roll_id"] for r in theirs}
    events = (await client.get(f"/encounters/{eid}/events", headers=player)).json()["events"]
    assert "dice.unused" not in [e["type"] for e in events]
    log = (await client.get(f"/encounters/{eid}/log", headers=player)).json()["entries"]
    assert not any("unused" in e["text"] or "6" in e["text"] for e in log[-2:])

    # Revealed with the command's other roll, the table sees them.
    shown = inner_events(missed.json()["events"])[0]["data"]["rolls"][0]["roll_id"]
    revealed = await client.post(
        f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [shown, unused_id]}
    )
    assert revealed.status_code == 200, revealed.text
    theirs = (await client.get(f"/encounters/{eid}/rolls", headers=player)).json()["rolls"]
    seen = next(r for r in theirs if r["roll_id"] == unused_id)
    assert seen["outcome"] == "unused" and seen["dice"][0]["face"] == 6


def _character(
    ident: str, side: str, health: int, strength: int = 4, **more: Any
) -> dict[str, Any]:
    return {
        "type": "aeonisk.add_character",
        "id": ident,
        "name": ident.title(),
        "side": side,
        "attributes": {"agility": 3, "strength": strength, "health": health, "will": 3},
        "skills": {"athletics": 2, "melee": 4},
        "soak": 4,
        "weapons": {"maul": {"bonus": 8}},
        "defence": {"attribute": "agility", "skill": "athletics"},
        **more,
    }


async def _aeonisk_attack_ready(client: Client, strength: int = 4) -> str:
    """Kaelia and a goblin engaged, round 1, Kaelia's attack declared and due."""
    eid = await create(client, "Dice at the table", ruleset="aeonisk")
    await command(client, eid, _character("kaelia", "crew", 3, strength))
    await command(client, eid, _character("goblin", "raiders", 1, pc=False))
    await command(
        client, eid, {"type": "aeonisk.set_band", "a": "kaelia", "b": "goblin", "band": "engaged"}
    )
    nxt = {"type": "aeonisk.next_phase"}
    await command(client, eid, nxt, manual=[[10], [1]])  # Kaelia first, the goblin declares first
    await command(client, eid, {"type": "aeonisk.declare", "character": "goblin"})
    attack = {
        "kind": "attack",
        "target": "goblin",
        "weapon": "maul",
        "attribute": "strength",
        "skill": "melee",
    }
    await command(client, eid, {"type": "aeonisk.declare", "character": "kaelia", "major": attack})
    await command(client, eid, nxt)
    await command(client, eid, nxt)
    return eid


async def test_aeonisk_resolve_asks_for_each_die_as_the_dice_land(client: Client) -> None:
    """Attack, defence, damage and the Health check of one resolve, entered one die at a
    time: each 422 names the next roll given the faces so far."""
    eid = await _aeonisk_attack_ready(client)
    before = await _version(client, eid)
    resolve = {"type": "aeonisk.resolve"}
    manual: list[list[int]] = []
    asked: list[dict[str, Any]] = []
    while True:
        response = await _post(client, eid, resolve, manual)
        if response.status_code == 200:
            break
        assert response.status_code == 422, response.text
        needed = response.json()["dice_needed"]
        assert needed["roll"] == len(manual) + 1 and needed["faces_entered"] == []
        asked.append(needed)
        assert await _version(client, eid) == before
        # The attacker rolls high, the goblin low: a hit that calls for every roll.
        high = needed["roller"] == "kaelia"
        manual.append([s if high else 1 for s in needed["dice"]])
        assert len(asked) < 10
    purposes = " | ".join(n["purpose"].lower() for n in asked)
    assert [n["roller"] for n in asked][:2] == ["kaelia", "goblin"], purposes
    assert "damage" in purposes and "health" in purposes, purposes
    rolled = [r for e in response.json()["events"] for r in e["data"].get("rolls", [])]
    assert [[d["face"] for d in r["dice"]] for r in rolled] == manual
    assert all(r["source"] == "manual" for r in rolled)


async def test_aeonisk_resolve_records_damage_and_health_dice_a_miss_did_not_need(
    client: Client,
) -> None:
    eid = await _aeonisk_attack_ready(client, strength=1)
    # Rolled together at the table: attack, defence, damage, Health check; the attack misses.
    response = await _post(client, eid, {"type": "aeonisk.resolve"}, [[1], [20], [9], [5]])
    assert response.status_code == 200, response.text
    events = response.json()["events"]
    assert events[-1]["type"] == "dice.unused"
    unused = events[-1]["data"]["rolls"]
    assert [[d["face"] for d in r["dice"]] for r in unused] == [[9], [5]]
    assert all(r["outcome"] == "unused" for r in unused)
    ledger = (await client.get(f"/encounters/{eid}/rolls")).json()["rolls"]
    assert [r.get("outcome") for r in ledger][-2:] == ["unused", "unused"]


async def test_approving_a_request_asks_for_dice_and_records_the_unused_ones(
    client: Client,
) -> None:
    eid = await create(client, "Requests")
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 12, ac=11))
    sam = await _player(client, eid, "alice")
    asked = await client.post(f"/encounters/{eid}/requests", json={"command": ATTACK}, headers=sam)
    assert asked.status_code == 200, asked.text
    approve = f"/encounters/{eid}/requests/q1/approve"

    short = await client.post(approve, json={"manual_dice": [[18]]})
    assert short.status_code == 422, short.text
    assert short.json()["dice_needed"]["notation"] == "1d8+3"

    missed = await client.post(
        approve, json={"manual_dice": [[1], [8]]}, headers={"Prefer": "return=representation"}
    )
    assert missed.status_code == 200, missed.text
    types = [e["type"] for e in missed.json()["events"]]
    assert types == ["generic.attack_rolled", "dice.unused", "encounter.request_answered"]
    assert missed.headers["Preference-Applied"] == "return=representation"
    assert missed.json()["state"]["requests"] == {}
    assert len(missed.json()["log"]) == 3


async def test_aeonisk_unused_dice_of_a_secret_resolve_stay_secret(client: Client) -> None:
    eid = await _aeonisk_attack_ready(client, strength=1)
    player = await _player(client, eid, "kaelia")
    response = await _post(
        client, eid, {"type": "aeonisk.resolve"}, [[1], [20], [9], [5]], hidden=True
    )
    assert response.status_code == 200, response.text
    unused = [r["roll_id"] for r in inner_events(response.json()["events"])[-1]["data"]["rolls"]]
    assert len(unused) == 2

    theirs = (await client.get(f"/encounters/{eid}/rolls", headers=player)).json()["rolls"]
    for roll in (r for r in theirs if r["roll_id"] in unused):
        assert roll["redacted"] is True and "dice" not in roll and "outcome" not in roll
    events = (await client.get(f"/encounters/{eid}/events", headers=player)).json()["events"]
    assert "dice.unused" not in [e["type"] for e in events]
    log = (await client.get(f"/encounters/{eid}/log.txt", headers=player)).text
    assert "unused" not in log and "not needed" not in log
    gm_log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert "not needed by the command: 9 (unused)" in gm_log


async def test_a_die_sent_with_a_command_that_rolls_nothing_is_refused(client: Client) -> None:
    """The dice rule: a declaration rolls nothing (AEK-13), so a die sent with it is a
    mistake at the table: a 422 that says why, naming the rule, and nothing written."""
    eid = await create(client, "Dice at the table", ruleset="aeonisk")
    await command(client, eid, _character("kaelia", "crew", 3))
    await command(client, eid, _character("goblin", "raiders", 1, pc=False))
    await command(client, eid, {"type": "aeonisk.next_phase"}, manual=[[10], [1]])
    before = await _version(client, eid)
    declare = {"type": "aeonisk.declare", "character": "goblin"}
    refused = await _post(client, eid, declare, [[7]])
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["type"].endswith("/rule-violation") and problem["rule"] == "AEK-13"
    assert problem["detail"].startswith("No die is rolled: declarations state the Major")
    assert await _version(client, eid) == before  # nothing appended
    taken = await _post(client, eid, declare, [])
    assert taken.status_code == 200, taken.text
