"""The secrecy suite's scenario for Scentfinder (see scenarios.py).

Degrees are the GM's in Scentfinder, but damage dice are rolled: after Mara's turn the
GM has the bandit Chief strike her in secret, entering the degree (Success) with the
strike (``act`` with ``degree``), so the axe's damage dice are rolled at once and decide
Mara's HP.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.secrecy.scenario import Dice, Scenario


def _cmd(kind: str, **fields: Any) -> tuple[dict[str, Any], Dice]:
    return {"type": f"scentfinder.{kind}", **fields}, None


_SETUP = [
    _cmd("define_area", id="camp", name="the Camp", cover=True),
    _cmd("define_area", id="bridge", name="the Rope Bridge", adjacent=["camp"]),
    _cmd(
        "add_combatant",
        id="mara",
        name="Mara",
        hp=40,
        area="camp",
        weapons={"staff": {"damage": "1d6"}},
        held=["staff"],
    ),
    _cmd(
        "add_combatant",
        id="chief",
        name="Chief",
        pc=False,
        side="bandits",
        hp=30,
        weapons={"axe": {"damage": "2d10"}},
        held=["axe"],
        area="camp",
        phase=3,
    ),
    _cmd("initiative", entries=[{"combatant": "mara", "degree": "success", "value": 4}]),
    _cmd("begin"),
    _cmd("end_turn", combatant="mara"),
]

_STRIKE = {"type": "scentfinder.act", "actor": "chief", "action": "strike", "target": "mara",
           "weapon": "axe", "degree": "success"}  # fmt: skip

_NERVE = {"type": "scentfinder.gm_roll", "label": "the chief's nerve", "notation": "1d20"}

SCENARIO = Scenario(
    options={},
    setup=_SETUP,
    player=["mara"],
    secret=(_STRIKE, [[9, 8]]),
    quiet_secret=(_NERVE, [[17]]),
    player_moves=(
        {
            "type": "scentfinder.act",
            "actor": "mara",
            "action": "strike",
            "target": "chief",
            "weapon": "staff",
        },
        {"type": "scentfinder.end_turn", "combatant": "mara"},
    ),
    gm_moves=({"type": "scentfinder.end_turn", "combatant": "chief"},),
    players_turn=(1,),  # the Chief's turn ends: Mara's Strike
)
