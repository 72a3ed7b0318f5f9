"""A three-round Aeonisk Tactical encounter over HTTP with four combatants, read back
as the replay log a GM would announce, and ``GET /rulesets/aeonisk``."""

from __future__ import annotations

from typing import Any

from tests.e2e.helpers import Client, command, create


def _character(ident: str, side: str, **sheet: Any) -> dict[str, Any]:
    return {
        "type": "aeonisk.add_character",
        "id": ident,
        "name": ident.title(),
        "side": side,
        **sheet,
    }


KAELIA = _character(
    "kaelia",
    "crew",
    attributes={"agility": 3, "strength": 2, "health": 3, "will": 3},
    skills={"athletics": 2, "firearms": 3, "melee": 3},
    soak=10,
    void=3,
    bonds=["nyx"],
    weapons={"pistol": {"bonus": 4, "ranged": True}, "blade": {"bonus": 3}},
    defence={"attribute": "will", "skill": "agility"},
)
NYX = _character(
    "nyx",
    "crew",
    attributes={"agility": 3, "strength": 2, "health": 2, "empathy": 4},
    skills={"athletics": 2, "charm": 3},
    soak=10,
    bonds=["kaelia"],
    weapons={"pistol": {"bonus": 4, "ranged": True}},
    defence={"attribute": "agility", "skill": "athletics"},
)
GUNNER = _character(
    "gunner",
    "raiders",
    pc=False,
    attributes={"agility": 2, "strength": 3, "health": 3, "perception": 4},
    skills={"firearms": 3, "athletics": 2},
    soak=10,
    weapons={"rifle": {"bonus": 6, "rate_of_fire": 3, "ranged": True}},
    defence={"attribute": "agility", "skill": "athletics"},
)
GOBLIN = _character(
    "goblin",
    "raiders",
    pc=False,
    attributes={"agility": 2, "strength": 2, "health": 2},
    skills={"melee": 3, "athletics": 2},
    soak=8,
    weapons={"knife": {"bonus": 2}},
    defence={"attribute": "agility", "skill": "athletics"},
)


def _declare(who: str, **what: Any) -> dict[str, Any]:
    return {"type": "aeonisk.declare", "character": who, **what}


def _attack(target: str, weapon: str, attribute: str, skill: str, **more: Any) -> dict[str, Any]:
    return {
        "kind": "attack",
        "target": target,
        "weapon": weapon,
        "attribute": attribute,
        "skill": skill,
        **more,
    }


NEXT = {"type": "aeonisk.next_phase"}
RESOLVE = {"type": "aeonisk.resolve"}
INITIATIVE = [[10], [5], [9], [4]]  # Kaelia 22, Nyx 17, Gunner 17, Goblin 12


async def test_three_rounds_of_aeonisk_over_http(client: Client) -> None:
    eid = await create(client, "Cargo hold", ruleset="aeonisk", options={"shock_init_penalty": 5})

    async def do(cmd: dict[str, Any], *faces: int, expect: int = 200) -> dict[str, Any]:
        manual = [[f] for f in faces] if faces else None
        return await command(client, eid, cmd, manual=manual, expect=expect)

    for character in (KAELIA, NYX, GUNNER, GOBLIN):
        await do(character)
    for a, b, band in (
        ("kaelia", "goblin", "engaged"),
        ("kaelia", "gunner", "near"),
        ("kaelia", "nyx", "near"),
        ("nyx", "gunner", "near"),
        ("nyx", "goblin", "near"),
        ("gunner", "goblin", "near"),
    ):
        await do({"type": "aeonisk.set_band", "a": a, "b": b, "band": band})
    await do(
        {"type": "aeonisk.place_token", "id": "cover-1", "kind": "cover", "label": "ore crates"}
    )

    # Round 1: Kaelia and the Goblin both declare a claim on Cover; Nyx gives Kaelia
    # Bonded Defence; Kaelia's Void Surge shocks the Goblin; the Goblin's claim fails.
    await do(NEXT, 10, 5, 9, 4)
    claim = {"kind": "claim", "token": "cover-1"}
    refused = await do(_declare("kaelia"), expect=422)
    assert "Goblin's turn to declare" in str(refused)
    stab = _attack("kaelia", "knife", "agility", "melee")
    await do(_declare("goblin", major=stab, minor=claim, defence_token="kaelia"))
    await do(
        _declare(
            "gunner", major=_attack("nyx", "rifle", "perception", "firearms"), defence_token="nyx"
        )
    )
    await do(_declare("nyx", defence_token="gunner"))
    surge = _attack("goblin", "pistol", "agility", "firearms", void_surge=True)
    surged = await do(_declare("kaelia", major=surge, minor=claim, defence_token="goblin"))
    # The surge's Stun is paid at once, as it is declared (AEK-63).
    assert [e["type"] for e in surged["events"]] == ["aeonisk.declared", "aeonisk.stun_changed"]
    await do(NEXT)
    bonded = {"kind": "bonded_defence", "ally": "kaelia", "attacker": "goblin"}
    await do({"type": "aeonisk.react", "character": "nyx", "reaction": bonded})
    await do(NEXT)
    hit = await do(RESOLVE, 14, 3, 12)
    types = [e["type"] for e in hit["events"]]
    assert types == [
        "aeonisk.action_began",
        "aeonisk.attack_rolled",
        "aeonisk.damage_rolled",
        "aeonisk.shock_suffered",
    ]
    await do(RESOLVE)  # Kaelia claims Cover
    await do(RESOLVE, 18, 2, 5)  # the Gunner shoots Nyx, whose backlash costs her 2
    await do(RESOLVE, 6, 12)  # the Goblin misses Kaelia
    failed = await do(RESOLVE)
    assert failed["events"][0]["type"] == "aeonisk.action_failed"
    await do(NEXT)

    # Round 2: Kaelia charges the Gunner, Nyx rallies her, the Gunner suppresses her and
    # she hunkers down, the Goblin breaks away and Kaelia takes her free strike.
    await do(NEXT, *[f[0] for f in INITIATIVE])
    await do(
        _declare(
            "goblin", major={"kind": "move", "bands": 1, "reference": "kaelia", "direction": "away"}
        )
    )
    suppress = {
        "kind": "suppress",
        "target": "kaelia",
        "weapon": "rifle",
        "attribute": "perception",
        "skill": "firearms",
    }
    await do(_declare("gunner", major=suppress, defence_token="kaelia"))
    await do(
        _declare("nyx", minor={"kind": "bond_rally", "ally": "kaelia"}, defence_token="gunner")
    )
    charge = {
        "kind": "charge",
        "target": "gunner",
        "weapon": "blade",
        "attribute": "agility",
        "skill": "melee",
    }
    await do(_declare("kaelia", major=charge, defence_token="gunner"))
    await do(NEXT)
    await do(NEXT)
    charged = await do(RESOLVE, 12, 4, 8)
    assert "aeonisk.charge_made" in [e["type"] for e in charged["events"]]
    await do(RESOLVE, 8)  # Nyx's Bond Rally: 12 + 8 = 20
    await do(RESOLVE, 18, 2)  # suppressing fire hits Kaelia
    await do(RESOLVE, expect=422)
    await do({"type": "aeonisk.choose_suppression", "character": "kaelia", "choice": "hunker_down"})
    broke = await do(RESOLVE)
    assert broke["events"][-1]["type"] == "aeonisk.breakaway_opened"
    strike = {
        "type": "aeonisk.free_strike",
        "character": "kaelia",
        "weapon": "blade",
        "attribute": "agility",
        "skill": "melee",
    }
    await do(strike, 2, 15)
    await do(NEXT)

    # Round 3: Kaelia spends Cover against the Gunner's shot, then a GM morale check.
    await do(NEXT, *[f[0] for f in INITIATIVE])
    await do(_declare("goblin"))
    await do(_declare("gunner", major=_attack("kaelia", "rifle", "perception", "firearms")))
    await do(_declare("nyx", defence_token="gunner"))
    await do(
        _declare(
            "kaelia", major=_attack("gunner", "blade", "agility", "melee"), defence_token="gunner"
        )
    )
    await do(NEXT)
    await do({"type": "aeonisk.react", "character": "kaelia", "reaction": {"kind": "spend_token"}})
    await do(NEXT)
    await do(RESOLVE, 11, 9, 7)
    shot = await do(RESOLVE, 17, 3, 9)
    damage = next(e for e in shot["events"] if e["type"] == "aeonisk.damage_rolled")
    assert damage["data"]["soak"] == 12 and damage["data"]["used"] == ["cover"]
    morale = {
        "type": "aeonisk.check",
        "character": "goblin",
        "label": "Morale",
        "attribute": "agility",
        "skill": "athletics",
        "dc": 20,
    }
    await do(NEXT)
    await do(morale, 3)
    await do({"type": "aeonisk.end_encounter"})

    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert game["characters"]["kaelia"]["tactical"] is None
    assert game["characters"]["goblin"]["wounds"] == 3
    assert game["tokens"] == {}

    response = await client.get(f"/encounters/{eid}/log.txt")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/")
    log = response.text
    for line in (
        "Encounter 'Cargo hold' begins under the aeonisk rules.",
        "Kaelia rolls 1d20 for initiative: d20 [10] +12 Agility 3 x 4 = 22 (manual)",
        "Initiative order: Kaelia 22, Nyx 17, Gunner 17, Goblin 12",
        "Goblin declares: Major: attack Kaelia with knife; Minor: claim the Cover token; "
        "Defence Token on Kaelia",
        "Round 1, Fast Phase: Reactions in descending Initiative",
        "Nyx uses their Reaction for Bonded Defence: Kaelia gets +2 to defend against Goblin",
        "Kaelia rolls 1d20 for attack on Goblin with pistol: d20 [14] +9 Agility 3 x Firearms 3 "
        "-2 Goblin's Defence Token = 21 vs 7: hit (manual)",
        "+4 Void Surge = 22 vs 8 (manual); 14 over Soak 8: 3 Wounds (Goblin 0 -> 3 Wounds)",
        "Goblin suffers Shock (Kaelia's Void Surge): Initiative 12 -> 7",
        "-2 Bonded Defence backlash",
        "Goblin's Minor action fails: the Cover token has already been claimed by Kaelia",
        "Kaelia charges into Engaged with Gunner",
        "Nyx rolls 1d20 for Bond Rally for Kaelia: d20 [8] +12 Empathy 4 x Charm 3 = 20 vs 20: "
        "success",
        "Kaelia is suppressed by Gunner: Dive or Hunker Down?",
        "Goblin breaks away from Engaged without disengaging: Kaelia may strike for free",
        "Kaelia rolls 1d20 for Breakaway free strike on Goblin with blade",
        "Kaelia spends Cover as a Reaction: +2 Soak against the next incoming attack",
        "Kaelia: Hunker Down, the Charge's -2 to defences ends",
        "Goblin rolls 1d20 for Morale",
        "The encounter ends in round 3",
    ):
        assert line in log, line


async def test_get_rulesets_aeonisk_lists_commands_and_options(client: Client) -> None:
    info = (await client.get("/rulesets/aeonisk")).json()
    assert info["title"] == "Aeonisk Tactical (YAGS)"
    options = {o["key"]: o for o in info["options"]}
    assert options["initiative_mode"]["default"] == "reroll_each_round"
    assert options["hit_rule"]["default"] == "attack_ge_defence"
    assert "AEK-A1" in options["initiative_mode"]["description"]
    commands = {c["type"] for c in info["commands"]}
    assert {"aeonisk.declare", "aeonisk.resolve", "aeonisk.react", "aeonisk.next_phase"} <= commands
    assert all(c["example"]["type"] == c["type"] for c in info["commands"])
    events = {e["type"] for e in info["events"]}
    assert "aeonisk.token_claimed" in events and len(events) == len(info["events"])
    assert "16 against attack 18" in info["summary"]


async def test_a_duel_on_a_zone_map_with_parry_lapse_and_one_die_at_a_time(client: Client) -> None:
    """Over HTTP: the zone map's bands in the state (and a gap the GM fills),
    Initiative one die at a time, a Declare Phase the GM closes (Kaelia lapses and is
    flanked), and the Goblin parrying Kaelia's blade in the next round."""
    zones = [
        {"a": "catwalk", "b": "crates", "band": "near"},
        {"a": "crates", "b": "bay", "band": "engaged"},
    ]
    eid = await create(client, "Duel", ruleset="aeonisk", options={"zone_map": zones})

    async def do(cmd: dict[str, Any], *faces: int, expect: int = 200) -> dict[str, Any]:
        manual = [[f] for f in faces] if faces else None
        return await command(client, eid, cmd, manual=manual, expect=expect)

    await do({**KAELIA, "zone": "crates"})
    await do({**GOBLIN, "zone": "bay", "parry": {"attribute": "agility", "skill": "melee"}})
    await do({**NYX, "zone": "catwalk"})
    game = (await client.get(f"/encounters/{eid}")).json()["state"]["game"]
    assert game["bands"] == {"goblin|kaelia": "engaged", "kaelia|nyx": "near"}
    await do({"type": "aeonisk.set_band", "a": "goblin", "b": "nyx", "band": "far"})

    await do({**NEXT, "initiative": "one_at_a_time"})
    refused = await do(_declare("goblin"), expect=422)
    assert "Initiative is still being rolled (Kaelia, Goblin, Nyx to roll)" in str(refused)
    for who, face in (("goblin", 4), ("nyx", 5), ("kaelia", 10)):
        await do({"type": "aeonisk.roll_initiative", "character": who}, face)
    stab = _attack("kaelia", "knife", "agility", "melee")
    await do(_declare("goblin", major=stab, defence_token="kaelia"))
    await do(_declare("nyx", defence_token="goblin"))
    lapsed = await do({**NEXT, "close_declarations": True})
    assert [e["type"] for e in lapsed["events"]] == [
        "aeonisk.declaration_lapsed",
        "aeonisk.phase_started",
    ]
    await do(NEXT)
    flanked = await do(RESOLVE, 10, 5, 1)
    attack = next(e for e in flanked["events"] if e["type"] == "aeonisk.attack_rolled")
    assert {"label": "Flanking: Kaelia has no Defence Token", "value": 2} in attack["data"][
        "rolls"
    ][0]["modifiers"]
    await do(NEXT)

    await do(NEXT, 10, 4, 5)  # Kaelia 22, Goblin 12, Nyx 17
    await do(_declare("goblin", defence_token="kaelia"))
    await do(_declare("nyx", defence_token="goblin"))
    await do(_declare("kaelia", major=_attack("goblin", "blade", "agility", "melee")))
    await do(NEXT)
    parry = {"kind": "parry", "attacker": "kaelia", "bonus": 1}
    await do({"type": "aeonisk.react", "character": "goblin", "reaction": parry})
    await do(NEXT)
    parried = await do(RESOLVE, 10, 15)
    attack = next(e for e in parried["events"] if e["type"] == "aeonisk.attack_rolled")
    assert attack["data"]["parried"] is True and attack["data"]["outcome"] == "miss"

    log = (await client.get(f"/encounters/{eid}/log.txt")).text
    for line in (
        "Initiative one at a time as the dice land (Kaelia, Goblin, Nyx to roll)",
        "Kaelia declared nothing before the GM closed the Declare Phase",
        "Goblin uses their Reaction to Parry Kaelia's attack: Agility x Melee +1 parry bonus",
        "Goblin rolls 1d20 for parry against Kaelia: d20 [15] +6 Agility 2 x Melee 3 +1 parry "
        "bonus",
    ):
        assert line in log, line

    info = (await client.get("/rulesets/aeonisk")).json()
    options = {o["key"]: o for o in info["options"]}
    assert options["parry_ranged"]["default"] is False
    assert "AEK-A34" in options["parry_ranged"]["description"]
    commands = {c["type"] for c in info["commands"]}
    assert {"aeonisk.roll_initiative", "aeonisk.void_surge"} <= commands
