"""Game rounds: Round Start and Cleanup & Checks (Round_Structure.md's steps that the
combat text gives work to).

Round Start heals every Lord on the map to full (2.1.3, AEC-12) and resets AP when the
encounter sets ``ap_per_round``.  Cleanup & Checks releases every captured Lord to its
Home City at full HP (2.1.4, AEC-11); a Home City that is gone or held by another side
leaves the Lord off the map for the GM to place (AEC-A15).  Sieges are untouched: their
marker stays between rounds (6.2).
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat.events import (
    CleanupDone,
    Event,
    LordHealed,
    LordReleased,
    RoundStarted,
)
from service.rulesets.aeonis_combat.rules import open_action, units_in
from service.rulesets.aeonis_combat.state import State


def start_round(state: State) -> tuple[Event, ...]:
    if state.stage == "action":
        raise RuleViolation(
            f"round {state.round} is still in its Action Phase: Cleanup & Checks come first"
        )
    per_round = state.options.ap_per_round
    ap = {} if per_round is None else dict.fromkeys(state.sides, per_round)
    healed: list[Event] = []
    for side in state.sides.values():
        lord = state.units[side.lord]
        if side.lord_captured_by is None and lord.hp < side.sheet.hp:
            healed.append(LordHealed(lord=side.lord, hp=side.sheet.hp))
    return (RoundStarted(round=state.round + 1, ap=ap), *healed)


def cleanup(state: State) -> tuple[Event, ...]:
    if state.stage != "action":
        raise RuleViolation("Cleanup & Checks end a game round: start a round first")
    ongoing = open_action(state)
    if ongoing is not None:
        raise RuleViolation(f"the Attack action at {ongoing[0]} is not finished yet")
    released: list[Event] = []
    for side_id, side in state.sides.items():
        if side.lord_captured_by is None:
            continue
        home = side.home_city
        held = (
            home is not None
            and state.hexes[home].controller in (side_id, None)
            and all(state.units[u].side == side_id for u in units_in(state, home))
        )
        released.append(LordReleased(lord=side.lord, hex=home if held else None, hp=side.sheet.hp))
    return (*released, CleanupDone(round=state.round))
