"""An Aeonis siege over three game rounds, over HTTP.

House Red besieges Blue's Fortress at 0,0.  Round 1: one siege round.  Round 2: a new
siege round with a reinforcement on each side, then Press the Attack.  Round 3: the last
defender falls and Red occupies the Fortress.  The state before round 3's Attack action
is kept, so the test can check that undoing that Attack action restores the siege
exactly as it was.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, command, create

FORT = "0,0"


def _cmd(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": f"aeonis.{kind}", **fields}


def _units(*ids: str) -> list[dict[str, str]]:
    kinds = {"inf": "infantry", "cav": "cavalry", "arch": "archers"}
    return [{"id": i, "kind": kinds[i.split("-")[1]]} for i in ids]


def _dice(*faces: int) -> list[list[int]]:
    return [[f] for f in faces]


async def _game(client: Client, eid: str) -> dict[str, Any]:
    response = await client.get(f"/encounters/{eid}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _setup(client: Client) -> str:
    eid = await create(client, "Siege of Highkeep", ruleset="aeonis", options={"ap_per_round": 4})
    hexes = [
        {"hex": "-2,0", "kind": "city", "controller": "red"},
        {"hex": "-1,0", "controller": "red"},
        {"hex": "-1,1", "controller": "red"},
        {"hex": FORT, "kind": "fortress", "controller": "blue"},
        {"hex": "1,0", "controller": "blue"},
        {"hex": "1,-1", "kind": "city", "controller": "blue"},
    ]
    await command(client, eid, _cmd("add_hexes", hexes=hexes))
    for side, home in (("red", "-2,0"), ("blue", "1,-1")):
        lord = {"name": f"{side} lord", "attack_die": "d8", "defense_die": "d6", "hp": 3}
        lord["abilities"] = [{"name": "Counsel", "timing": "Action Phase", "effect": "scry"}]
        await command(
            client,
            eid,
            _cmd(
                "add_side",
                id=side,
                name=f"House {side.title()}",
                lord_id=f"{side}-lord",
                lord={**lord, "movement": 2},
                home_city=home,
            ),
        )
    placements = (
        ("red", "-1,0", ("r-inf-1", "r-arch", "r-inf-3")),
        ("red", "-1,1", ("r-cav",)),
        ("blue", FORT, ("b-inf-1", "b-inf-2", "b-arch")),
        ("blue", "1,0", ("b-inf-3",)),
    )
    for side, where, ids in placements:
        await command(client, eid, _cmd("add_units", side=side, hex=where, units=_units(*ids)))
    return eid


async def test_a_siege_over_three_rounds(client: Client) -> None:
    eid = await _setup(client)
    red = {"side": "red", "hex": FORT}
    blue = {"side": "blue", "hex": FORT}

    # Round 1: the Fortress is besieged at once (6.1); one siege round (6.2).
    await command(client, eid, _cmd("start_round"))
    declared = await command(
        client, eid, _cmd("attack", commit=["r-cav", "r-inf-1", "r-arch"], **red)
    )
    assert declared["events"][0]["data"]["siege"] is True
    # A Fortress is always held: declining is refused with the reason and writes nothing.
    refused = await command(client, eid, _cmd("defend", hold_the_walls=False, **blue), expect=422)
    assert "is a Fortress: the battle is automatically a Siege" in str(refused)
    await command(client, eid, _cmd("defend", **blue))
    used = await command(client, eid, _cmd("use_ability", side="blue", ability="Counsel"))
    assert used["events"][0]["data"]["effect"] == "scry"
    fought = await command(
        client, eid, _cmd("fight", **red), manual=_dice(2, 5, 6, 3, 8, 2, 3, 3, 4, 5)
    )
    data = fought["events"][0]["data"]
    assert data["destroyed"] == ["b-inf-1"]
    assert len(data["rolls"]) == 10 and data["rolls"][0]["source"] == "manual"
    # No Retreat Check for Blue in a Fortress; the Attack action ends, the siege stays.
    await command(client, eid, _cmd("stand", **red))
    await command(client, eid, _cmd("end_attack", **red))
    await command(client, eid, _cmd("cleanup"))
    game = (await _game(client, eid))["state"]["game"]
    assert game["battles"][FORT]["siege"] is True and game["battles"][FORT]["step"] == "paused"

    # Round 2: a new siege round with up to 3 reinforcements per side (6.4), then Press.
    await command(client, eid, _cmd("start_round"))
    await command(client, eid, _cmd("attack", commit=["r-inf-3"], **red))
    await command(client, eid, _cmd("defend", commit=["b-inf-3"], **blue))
    await command(client, eid, _cmd("reinforce", promote=["r-inf-3"], **red))
    fought = await command(
        client, eid, _cmd("fight", **red), manual=_dice(1, 1, 2, 2, 1, 6, 2, 2, 6, 1, 6, 1)
    )
    data = fought["events"][0]["data"]
    assert data["promoted"] == {"red": ["r-inf-3"], "blue": ["b-inf-3"]}
    assert data["destroyed"] == ["b-inf-2", "r-cav"]
    await command(client, eid, _cmd("stand", **red))
    pressed = await command(client, eid, _cmd("press", **red))
    assert pressed["events"][0]["data"]["ap_after"] == 1
    await command(client, eid, _cmd("defend", **blue))
    await command(client, eid, _cmd("fight", **red), manual=_dice(1, 4, 1, 1, 3, 3, 2, 1, 1, 6))
    await command(client, eid, _cmd("stand", **red))
    refused = await command(client, eid, _cmd("press", **red), expect=422)
    assert "at most once per Attack action" in str(refused)
    await command(client, eid, _cmd("end_attack", **red))
    await command(client, eid, _cmd("cleanup"))

    # Round 3: the siege marker is still there; Red's next Attack action takes the Fortress.
    await command(client, eid, _cmd("start_round"))
    before_last_attack = await _game(client, eid)
    siege = before_last_attack["state"]["game"]["battles"][FORT]
    assert siege["rounds_fought"] == 3
    assert siege["attacker_line"] == ["r-inf-1", "r-arch", "r-inf-3"]
    assert siege["defender_line"] == ["b-inf-3"]
    await command(client, eid, _cmd("attack", **red))
    await command(client, eid, _cmd("defend", **blue))
    won = await command(client, eid, _cmd("fight", **red), manual=_dice(5, 2))
    assert [e["type"] for e in won["events"]] == ["aeonis.battle_round_fought", "aeonis.battle_won"]
    # The Siege marker goes with the capture (6.5), before the occupation command.
    assert won["events"][1]["data"]["siege_removed"] is True
    taken = (await _game(client, eid))["state"]["game"]
    assert taken["battles"][FORT]["siege"] is False
    assert taken["battles"][FORT]["step"] == "occupation"
    await command(client, eid, _cmd("occupy", units=["r-inf-1", "r-arch", "r-inf-3"], **red))
    game = (await _game(client, eid))["state"]["game"]
    assert game["hexes"][FORT]["controller"] == "red" and game["battles"] == {}
    assert {game["units"][u]["hex"] for u in ("r-inf-1", "r-arch", "r-inf-3")} == {FORT}
    assert game["round"] == 3 and game["sides"]["red"]["ap"] == 2

    log = (await client.get(f"/encounters/{eid}/log")).json()
    assert any("occupy 0,0" in entry["text"] for entry in log["entries"])

    # Undo of the last Attack action restores the siege exactly as it was.
    undo = await client.post(
        f"/encounters/{eid}/undo", json={"to_version": before_last_attack["version"]}
    )
    assert undo.status_code == 200, undo.text
    after_undo = await _game(client, eid)
    assert after_undo["state"]["game"] == before_last_attack["state"]["game"]


async def test_get_ruleset_lists_commands_and_options(client: Client) -> None:
    info = (await client.get("/rulesets/aeonis")).json()
    assert info["name"] == "aeonis" and "Press the Attack" in info["summary"]
    options = {o["key"]: o["default"] for o in info["options"]}
    assert options["attack_ap_cost"] == 2 and options["standard_battle_persistence"] == "none"
    assert options["reinforce_unchosen"] == "fill"
    assert all(o["description"] for o in info["options"])
    commands = {c["type"] for c in info["commands"]}
    assert {"aeonis.attack", "aeonis.press", "aeonis.lift_siege", "aeonis.occupy"} <= commands
    assert {"aeonis.reinforce", "aeonis.use_ability", "aeonis.set_lord_abilities"} <= commands
    assert len(commands) == 20 and len(info["events"]) == 29
    listed = (await client.get("/rulesets")).json()
    assert "aeonis" in {r["name"] for r in listed}
