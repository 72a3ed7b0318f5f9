"""One secret GM roll per ruleset, for the secrecy suite (test_secret_rolls.py).

Each scenario sets a table with manual dice, binds a player token to a player character
and then makes one hidden GM command whose roll decides something (a hit, damage, a
tier).  A ruleset added to the registry without a scenario here fails the suite: every
rule system has to prove its secrets stay secret.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.secrecy import scenario_scentfinder, scenario_tactics, scenario_untold_aeons
from tests.e2e.secrecy.scenario import Dice, Scenario


def _generic() -> Scenario:
    def add(ident: str, hp: int) -> tuple[dict[str, Any], Dice]:
        cmd = {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": hp,
               "stats": {"ac": 10},
               "attacks": {"sword": {"notation": "1d20+3", "damage": "1d8+1"}}}  # fmt: skip
        return cmd, None

    attack = {"type": "generic.attack", "attacker": "goblin", "target": "aria",
              "notation": "1d20+4", "damage": "2d6+3"}  # fmt: skip
    heavier = {**attack, "notation": "1d20+9", "damage": "1d4+10"}  # the same attack, shown
    sword = {"type": "generic.attack", "attacker": "aria", "target": "goblin", "using": "sword"}
    return Scenario(
        options={},
        setup=[add("aria", 37), add("goblin", 23)],
        player=["aria"],
        secret=(attack, [[17], [6, 5]]),
        secret_variants=((heavier, [[3], [4]]),),
        player_moves=(sword,),
        gm_moves=({"type": "generic.damage", "target": "aria", "amount": 20},),
    )


def _aeonisk() -> Scenario:
    def character(ident: str, side: str, pc: bool) -> tuple[dict[str, Any], Dice]:
        cmd = {
            "type": "aeonisk.add_character", "id": ident, "name": ident.title(), "side": side,
            "pc": pc, "attributes": {"agility": 3, "strength": 2, "health": 3, "will": 3},
            "skills": {"athletics": 2, "melee": 3}, "soak": 10,
            "weapons": {"blade": {"bonus": 3}},
            "defence": {"attribute": "agility", "skill": "athletics"},
        }  # fmt: skip
        return cmd, None

    check = {"type": "aeonisk.check", "character": "goblin", "label": "Morale",
             "attribute": "will", "skill": "melee", "dc": 20}  # fmt: skip
    return Scenario(
        options={},
        setup=[character("kaelia", "crew", True), character("goblin", "raiders", False)],
        player=["kaelia"],
        secret=(check, [[13]]),
        player_moves=({"type": "aeonisk.roll_initiative", "character": "kaelia"},),
        gm_moves=({"type": "aeonisk.next_phase", "initiative": "one_at_a_time"},),
        players_turn=(1,),  # the round starts: Kaelia rolls her initiative
    )


def _aeonis() -> Scenario:
    def cmd(kind: str, **fields: Any) -> dict[str, Any]:
        return {"type": f"aeonis.{kind}", **fields}

    hexes = [
        {"hex": "-2,0", "kind": "city", "controller": "red"},
        {"hex": "-1,0", "controller": "red"},
        {"hex": "0,0", "kind": "fortress", "controller": "blue"},
        {"hex": "1,-1", "kind": "city", "controller": "blue"},
    ]
    setup: list[tuple[dict[str, Any], Dice]] = [(cmd("add_hexes", hexes=hexes), None)]
    for side, home in (("red", "-2,0"), ("blue", "1,-1")):
        lord = {"name": f"{side} lord", "attack_die": "d8", "defense_die": "d6", "hp": 3,
                "movement": 2}  # fmt: skip
        names = {"id": side, "name": f"House {side.title()}", "lord_id": f"{side}-lord"}
        setup.append((cmd("add_side", **names, lord=lord, home_city=home), None))
    red_units = [{"id": f"r-inf-{i}", "kind": "infantry"} for i in (1, 2, 3)]
    blue_units = [{"id": f"b-inf-{i}", "kind": "infantry"} for i in (1, 2)]
    setup += [
        (cmd("add_units", side="red", hex="-1,0", units=red_units), None),
        (cmd("add_units", side="blue", hex="0,0", units=blue_units), None),
        (cmd("start_round"), None),
        (cmd("attack", side="red", hex="0,0", commit=["r-inf-1", "r-inf-2", "r-inf-3"]), None),
        (cmd("defend", side="blue", hex="0,0"), None),
    ]
    fight = cmd("fight", side="red", hex="0,0")
    return Scenario(
        options={"ap_per_round": 4},
        setup=setup,
        player=["red"],
        secret=(fight, [[f] for f in (5, 6, 4, 5, 6, 3, 2, 4)]),
        # A side's fight is its player's to call, and so is standing at the Retreat Check.
        player_moves=(fight, cmd("stand", side="red", hex="0,0")),
    )


def _more() -> dict[str, Scenario]:
    """Scenarios kept in a module of their own per ruleset (``scenario_<package>.py``)."""
    return {
        "scentfinder": scenario_scentfinder.SCENARIO,
        "tactics": scenario_tactics.SCENARIO,
        "untold-aeons": scenario_untold_aeons.SCENARIO,
    }


SCENARIOS = {"generic": _generic(), "aeonisk": _aeonisk(), "aeonis": _aeonis(), **_more()}
