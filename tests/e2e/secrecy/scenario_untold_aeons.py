"""The secrecy suite's scenario for Untold Aeons (see scenarios.py).

A Cultist shoots Mara, who does not know he is there (unaware: no dive for cover, so the
shot resolves at once), and the Narrator rolls it behind the screen. Mara was already
hurt (10 damage, wound limit 13): the hit (Firearms 3 against difficulty 2 at 10 yards,
faces 6 5 5 against 3 4: 4 successes, revolver 2 + 4 = 6, less Toughness 3 - Piercing 1
= 4 taken, 14 in all) takes her above the wound limit, so a second hidden roll follows,
her Toughness check (2 3 4 against 6: failed, Severely Injured). Hit, damage, the check
and her status must all stay secret; the Cultist's turn then ends.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.secrecy.scenario import Dice, Scenario


def _cmd(kind: str, **fields: Any) -> tuple[dict[str, Any], Dice]:
    return {"type": f"untold-aeons.{kind}", **fields}, None


def _rule(ruling: dict[str, Any], reason: str) -> tuple[dict[str, Any], Dice]:
    return _cmd("rule", ruling=ruling, reason=reason)


REVOLVER = {"base": 2, "range": 20, "piercing": 1}

SCENARIO = Scenario(
    options={},
    setup=[
        _cmd(
            "add_character",
            id="mara",
            name="Mara",
            side="investigators",
            dexterity=3,
            toughness=3,
            willpower=3,
            intellect=3,
            skills={"firearms": 3},
            weapons={"revolver": REVOLVER},
        ),
        _cmd(
            "add_character",
            id="cultist",
            name="Cultist",
            side="cultists",
            pc=False,
            dexterity=2,
            toughness=2,
            willpower=2,
            intellect=2,
            skills={"firearms": 3},
            weapons={"revolver": REVOLVER},
        ),
        _cmd("set_distance", a="cultist", b="mara", yards=10),
        _rule(
            {"type": "set_value", "character": "mara", "field": "damage", "value": 10},
            "the fall into the crypt",
        ),
        _rule(
            {"type": "set_condition", "character": "mara", "condition": "unaware"},
            "she is reading the inscription",
        ),
        _cmd("begin_round", initiating_side="cultists"),
        _cmd("choose_turn", character="cultist", speed="fast"),
        _cmd("choose_turn", character="mara", speed="slow"),
    ],
    player=["mara"],
    secret=(
        {
            "type": "untold-aeons.attack",
            "attacker": "cultist",
            "target": "mara",
            "weapon": "revolver",
        },
        [[6, 5, 5, 3, 4], [2, 3, 4, 6]],
    ),
    player_moves=(
        {
            "type": "untold-aeons.attack",
            "attacker": "mara",
            "target": "cultist",
            "weapon": "revolver",
        },
        {"type": "untold-aeons.end_turn", "character": "mara"},
    ),
    gm_moves=({"type": "untold-aeons.end_turn", "character": "cultist"},),
    players_turn=(1,),  # the Cultist's Fast turn ends unplayed: Mara shoots
)
