"""A three-round TACTICS fight over HTTP: a squad of three players (Rex, Ana, Kit, each
with a player token) against two Minions, a shielded slow heavy and a sniper; read back
as the replay log a GM would announce."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, command, inner_events

GEAR: dict[str, dict[str, Any]] = {
    "pistol": {"damage": 14, "precision": 13, "range": "close"},
    "rifle": {"damage": 12, "precision": 14, "range": "far"},
    "grenade": {"damage": 10, "precision": 12, "range": "medium", "area": "small"},
    "launcher": {"damage": 12, "precision": 12, "range": "medium", "area": "medium"},
    "carbine": {"damage": 11, "precision": 12, "range": "medium"},
    "maul": {"damage": 16, "precision": 12, "range": "immediate"},
    "long rifle": {"damage": 18, "precision": 15, "range": "sight"},
}


def creature(ident: str, zone: str, weapons: tuple[str, ...], **sheet: Any) -> dict[str, Any]:
    return {
        "type": "tactics.add_combatant",
        "id": ident,
        "name": sheet.pop("name", ident.title()),
        "zone": zone,
        "weapons": {w: GEAR[w] for w in weapons},
        **sheet,
    }


SQUAD = (
    creature(
        "rex",
        "plaza",
        ("pistol", "rifle"),
        side="squad",
        agility=2,
        endurance=1,
        armour=2,
        maneuvers={
            "take cover": {"stat": "soak", "amount": 2},
            "dodge": {"stat": "agility", "amount": 2, "duration": "turn"},
        },
    ),
    creature("ana", "plaza", ("pistol", "grenade"), side="squad", agility=3, endurance=1, armour=1),
    creature(
        "kit", "plaza", ("carbine", "launcher"), side="squad", agility=1, endurance=2, armour=3
    ),
)
DUCK = {"duck": {"stat": "agility", "amount": 3, "duration": "turn"}}
FOES = (
    creature(
        "grunt-a",
        "alley",
        ("carbine",),
        name="Grunt A",
        side="gang",
        category="minion",
        armour=1,
        maneuvers=DUCK,
    ),
    creature(
        "grunt-b",
        "alley",
        ("carbine",),
        name="Grunt B",
        side="gang",
        category="minion",
        armour=1,
        maneuvers=DUCK,
    ),
    creature(
        "brute",
        "yard",
        ("maul",),
        side="gang",
        category="slow_heavy",
        agility=-1,
        endurance=3,
        armour=4,
        shields=3,
        maneuvers={"charge": {}},
    ),
    creature(
        "sniper", "tower", ("long rifle",), side="gang", agility=2, endurance=1, armour=1, acumen=2
    ),
)
OPTIONS = {"press_penalty_step": 2, "death_rule": "same_source_only"}


async def test_creating_a_tactics_encounter_without_a_press_penalty_is_refused(
    client: Client,
) -> None:
    """TAC-A5: the text gives the Press penalty no size, so the table must choose one."""
    response = await client.post("/encounters", json={"ruleset": "tactics", "name": "No penalty"})
    assert response.status_code == 422, response.text
    assert "TAC-A5" in response.text and "press_penalty_step" in response.text


async def test_three_rounds_of_tactics_over_http(client: Client) -> None:
    created = await client.post(
        "/encounters",
        json={
            "ruleset": "tactics",
            "name": "Dockside",
            "options": OPTIONS,
            "allow_player_dice": True,
        },
    )
    assert created.status_code == 201, created.text
    eid = created.json()["encounter_id"]

    async def do(
        cmd: dict[str, Any], *faces: int, token: str | None = None, expect: int = 200
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        manual = [[f] for f in faces] if faces else None
        return await command(client, eid, cmd, manual=manual, expect=expect, headers=headers)

    for zone, links in (
        ("plaza", []),
        ("alley", ["plaza"]),
        ("yard", ["plaza"]),
        ("tower", ["alley"]),
    ):
        await do({"type": "tactics.add_zone", "id": zone, "links": links})
    for sheet in (*SQUAD, *FOES):
        await do(sheet)
    await do({"type": "tactics.set_sight", "a": "tower", "b": "plaza"})
    order = ["rex", "ana", "kit", "grunt-a", "grunt-b", "brute", "sniper"]
    await do({"type": "tactics.set_turn_order", "order": order})
    tokens: dict[str, str] = {}
    for who in ("rex", "ana", "kit"):
        minted = await client.post(
            f"/encounters/{eid}/tokens", json={"combatants": [who], "label": who}
        )
        assert minted.status_code == 201, minted.text
        tokens[who] = minted.json()["token"]
    rex, ana, kit = tokens["rex"], tokens["ana"], tokens["kit"]

    def press(
        who: str, weapon: str, target: str | None = None, zone: str | None = None
    ) -> dict[str, Any]:
        cmd: dict[str, Any] = {"type": "tactics.press", "combatant": who, "weapon": weapon}
        if target:
            cmd["target"] = target
        if zone:
            cmd["zone"] = zone
        return cmd

    def end(who: str) -> dict[str, Any]:
        return {"type": "tactics.end_turn", "combatant": who}

    def resolve(who: str) -> dict[str, Any]:
        return {"type": "tactics.resolve", "combatant": who}

    # Round 1: the squad declares; nothing resolves until each defender's turn.
    await do({"type": "tactics.start_combat"})
    await do(press("rex", "rifle", "brute"), token=rex)
    second = await do(press("rex", "rifle", "brute"), token=rex)
    assert second["events"][0]["data"]["precision"] == 12  # cumulative Press penalty
    await do({"type": "tactics.maneuver", "combatant": "rex", "maneuver": "take cover"}, token=rex)
    await do(press("rex", "pistol", "brute"), token=rex, expect=422)  # out of actions
    await do(press("ana", "pistol", "brute"), token=rex, expect=403)  # not Rex's to command
    await do(end("rex"), token=rex)
    await do(press("ana", "grenade", zone="alley"), token=ana)
    await do(end("ana"), token=ana)
    await do(press("kit", "launcher", zone="yard"), token=kit)
    await do(end("kit"), token=kit)
    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert [p["id"] for p in game["pending"]] == ["p1", "p2", "p3", "p4"]

    await do({"type": "tactics.react", "combatant": "grunt-a", "maneuver": "duck"})
    await do({"type": "tactics.react", "combatant": "grunt-a", "maneuver": "duck"}, expect=422)
    await do(resolve("grunt-a"), 4, 5)  # 4 + 3 duck = 7 vs 12: 15 damage, soak 6, 9 wounds
    await do(press("grunt-a", "carbine", "rex"))
    await do(end("grunt-a"))
    await do(resolve("grunt-b"), 18)  # dodges the grenade
    await do(press("grunt-b", "carbine", "kit"))
    await do(end("grunt-b"))
    broke = await do(resolve("brute"), 3, 6)  # 24 damage, soak 13, 11 wounds: shields take it
    spent = next(e for e in broke["events"] if e["type"] == "tactics.shields_spent")
    assert spent["data"]["shields_after"] == 0 and spent["data"]["negated"] == 11
    wrong = await do(resolve("brute"), 2, 1)
    assert any(e["type"] == "tactics.wounded" for e in wrong["events"])
    undo = await client.post(f"/encounters/{eid}/undo", json={"reason": "the soak die was misread"})
    assert undo.status_code == 200, undo.text
    await do(resolve("brute"), 9, 10)  # 16 damage against soak 17: nothing gets through
    await do(resolve("brute"), 2)  # the launcher: no Agility roll, 12 against soak 9
    await do(
        {"type": "tactics.maneuver", "combatant": "brute", "maneuver": "charge", "move_to": "plaza"}
    )
    await do(end("brute"))
    await do(press("sniper", "long rifle", "ana"))
    await do(end("sniper"))

    # Round 2: Rex reacts; the sniper's shot lands; Grunt A falls, then dies.
    await do({"type": "tactics.react", "combatant": "rex", "maneuver": "dodge"}, token=rex)
    refused = await do(
        {"type": "tactics.react", "combatant": "rex", "maneuver": "take cover"},
        token=rex,
        expect=422,
    )
    assert "Rex already reacted this turn" in str(refused)
    await do(resolve("rex"), 6, 8, token=rex)  # 10 vs 12: 13 damage, soak 13: absorbed
    late = await do(
        {"type": "tactics.react", "combatant": "rex", "maneuver": "take cover"},
        token=rex,
        expect=422,
    )
    assert "Rex already reacted this turn" in str(late)
    await do(press("rex", "pistol", "brute"), token=rex)
    await do(press("rex", "rifle", "grunt-a"), token=rex)
    await do(end("rex"), token=rex)
    await do(resolve("ana"), 5, 4, token=ana)  # 8 vs 15: 25 damage, soak 6, 19 wounds
    await do(end("ana"), token=ana)
    await do(resolve("kit"), 15, token=kit)
    await do(press("kit", "carbine", "grunt-a"), token=kit)
    await do(end("kit"), token=kit)
    down = await do(resolve("grunt-a"), 1, 1)
    wounded = next(e for e in down["events"] if e["type"] == "tactics.wounded")
    assert wounded["data"]["status_after"] == "incapacitated"
    dead = await do(resolve("grunt-a"), 1, 1)
    assert (
        next(e for e in dead["events"] if e["type"] == "tactics.wounded")["data"]["status_after"]
        == "dead"
    )
    await do(end("grunt-a"))
    await do(end("grunt-b"))
    await do({"type": "tactics.cooldown_check", "combatant": "brute", "passed": True})
    await do(resolve("brute"), 17)  # 16 vs 13: dodged, the one shield point holds
    await do(press("brute", "maul", "rex"))
    await do(end("brute"))
    secret = await client.post(
        f"/encounters/{eid}/commands",
        json={
            "command": {
                "type": "tactics.check",
                "combatant": "sniper",
                "attribute": "acumen",
                "target": 14,
                "label": "Acumen to see through the squad's feint",
            },
            "hidden": True,
        },
    )
    assert secret.status_code == 200, secret.text
    roll = inner_events(secret.json()["events"])[0]["data"]["rolls"][0]
    await do(end("sniper"))

    # Round 3: Rex dodges the maul on a tie; the brute's shields regenerate.
    await do(resolve("rex"), 10, token=rex)
    for who, token in (("rex", rex), ("ana", ana), ("kit", kit)):
        await do(end(who), token=token)
    await do(end("grunt-b"))
    await do({"type": "tactics.end_encounter"})

    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert game["combatants"]["grunt-a"]["status"] == "dead"
    assert game["combatants"]["brute"]["shields"] == 2
    assert sum(w["amount"] for w in game["combatants"]["brute"]["wounds"]) == 3
    assert sum(w["amount"] for w in game["combatants"]["ana"]["wounds"]) == 19
    assert game["pending"] == []

    # The hidden GM roll: players see that it happened, not its total or outcome.
    events = (
        await client.get(f"/encounters/{eid}/events", headers={"Authorization": f"Bearer {ana}"})
    ).json()
    seen = next(e for e in events["events"] if e["type"] == "encounter.sealed")
    assert "events" not in seen["data"] and "salt" not in seen["data"]  # its public form
    assert "total" not in str(seen["data"]) and "success" not in str(seen["data"])
    player_log = (
        await client.get(f"/encounters/{eid}/log", headers={"Authorization": f"Bearer {ana}"})
    ).json()
    line = next(e for e in player_log["entries"] if e["type"] == "encounter.sealed")
    assert line["text"] == (
        "The GM rolls Acumen to see through the squad's feint for Sniper in secret (sealed as s1)"
    )
    assert f"= {roll['total']} vs 14" not in line["text"] and "redacted" in str(line["rolls"][0])
    gm_log = (await client.get(f"/encounters/{eid}/log.txt")).text
    assert f"= {roll['total']} vs 14" in gm_log

    response = await client.get(f"/encounters/{eid}/log.txt")
    assert response.status_code == 200
    log = response.text
    for expected in (
        "Encounter 'Dockside' begins under the tactics rules.",
        "Rex joins (squad): Precision 0, Endurance 1, Agility 2, Acumen 0, armour 2; armed with "
        "pistol (Damage 14, Precision 13, Close), rifle (Damage 12, Precision 14, Far); in plaza",
        "GM: turn order Rex, Ana, Kit, Grunt A, Grunt B, Brute, Sniper",
        "Rex declares Press p1: rifle, Damage 12, Precision 14, against Brute; it resolves on "
        "the defender's turn. 2 actions left",
        "Rex declares Press p2: rifle, Damage 12, Precision 12 (after -2 Press penalty), "
        "against Brute",
        "Ana declares Press p3: grenade (small explosion) on alley, Damage 10, Precision 12, "
        "against Grunt A, Grunt B",
        "Kit declares Press p4: launcher (medium explosion) on yard, Damage 12, Precision 12, "
        "against Brute (bracing)",
        "Grunt A's turn (2 actions). Pending against them: p3 (Ana's grenade, Damage 10, "
        "Precision 12). React or not?",
        "Grunt A reacts with duck (+3 agility); 1 action left",
        "Grunt A rolls 1d20 for Agility against Ana's grenade (Precision 12): d20 [4] +0 Agility "
        "+3 duck = 7 vs 12: fails by 5 (manual), so 10 + 5 = 15 damage",
        "Grunt A rolls 1d20 for soak against 15 damage: d20 [5] +0 Endurance +1 armour = 6: "
        "9 through (manual) (15 - 6), 9 wounds",
        "Grunt A takes 9 wounds: 9/20",
        "Grunt B avoids Ana's Press p3",
        "Brute's shields spend 3 points and negate 11 wounds (shields down, unshielded)",
        "The GM undoes tactics.resolve",
        "Brute cannot dodge the blast and braces against 12 damage. Brute rolls 1d20 for soak "
        "against 12 damage: d20 [2] +3 Endurance +4 armour = 9: 3 through (manual) (12 - 9), "
        "3 wounds",
        "Brute repositions to plaza",
        "Round 2 begins",
        "Rex reacts with dodge (+2 agility); 2 actions left",
        "Rex rolls 1d20 for soak against 13 damage: d20 [8] +1 Endurance +2 armour +2 take cover "
        "= 13: all absorbed (manual), no wounds",
        "Ana takes 19 wounds: 19/20",
        "Grunt A takes 21 wounds: 20/20. Grunt A is incapacitated",
        "Grunt A takes 20 wounds: 20/20. Grunt A is dead",
        "Brute's turn (2 actions); unshielded, a cool-down check is needed before shields "
        "regenerate",
        "Brute passes the cool-down check: shields restart at 1",
        "Round 3 begins",
        "Rex rolls 1d20 for Agility against Brute's maul (Precision 12): d20 [10] +2 Agility = "
        "12 vs 12: dodged (manual): Rex avoids Brute's Press p11",
        "Brute's turn (2 actions); shields regenerate 1 -> 2",
        "The encounter ends in round 3",
    ):
        assert expected in log, expected
