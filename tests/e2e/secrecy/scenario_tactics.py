"""The secrecy suite's scenario for TACTICS (see scenarios.py).

TACTICS needs ``press_penalty_step`` at creation (TAC-A5: the text gives the Press
penalty no size), so the scenario passes it.  Rex (the player's character) declares a
Press on Vex, an unshielded NPC mercenary, and ends his turn; at the start of Vex's turn
the GM resolves the pending Press in secret: Vex's Agility check (d20 11 + 1 = 12 against
Precision 19, failing by 7, so 14 + 7 = 21 damage), then her soak (d20 13 + 1 + 1 = 15),
and 6 wounds get through.  Nobody rolls in the setup, so it needs no dice.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.secrecy.scenario import Dice, Scenario


def _cmd(kind: str, **fields: Any) -> tuple[dict[str, Any], Dice]:
    return {"type": f"tactics.{kind}", **fields}, None


_PISTOL = {"damage": 14, "precision": 19, "range": "close"}

SCENARIO = Scenario(
    options={"press_penalty_step": 2},
    setup=[
        _cmd("add_zone", id="deck"),
        _cmd(
            "add_combatant",
            id="rex",
            name="Rex",
            side="crew",
            endurance=1,
            agility=2,
            armour=2,
            weapons={"pistol": _PISTOL},
            zone="deck",
        ),
        _cmd(
            "add_combatant",
            id="vex",
            name="Vex",
            side="mercs",
            endurance=1,
            agility=1,
            armour=1,
            weapons={"pistol": _PISTOL},
            zone="deck",
        ),
        _cmd("set_turn_order", order=["rex", "vex"]),
        _cmd("start_combat"),
        _cmd("press", combatant="rex", weapon="pistol", target="vex"),
        _cmd("end_turn", combatant="rex"),
    ],
    player=["rex"],
    secret=({"type": "tactics.resolve", "combatant": "vex"}, [[11], [13]]),
    quiet_secret=(
        {
            "type": "tactics.check",
            "combatant": "vex",
            "attribute": "acumen",
            "target": 14,
            "label": "Acumen against a feint",
        },
        [[15]],
    ),
    player_moves=(
        {"type": "tactics.press", "combatant": "rex", "weapon": "pistol", "target": "vex"},
        {"type": "tactics.end_turn", "combatant": "rex"},
    ),
    gm_moves=({"type": "tactics.end_turn", "combatant": "vex"},),
    players_turn=(0, 1),  # the Press resolved in public, Vex's turn ends: Rex presses
)
