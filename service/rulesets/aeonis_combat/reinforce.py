"""Reinforce, step 1 of a battle round (4.1, AEC-17): a choice, not a rule that runs.

"You may promote units from your Reserves onto your Battle Line until you reach the cap":
each side names which Reserves it promotes, or none, before the round is resolved
(``aeonis.reinforce``; the attacker may also name them on ``aeonis.fight``).  A side that
said nothing is settled by the option ``reinforce_unchosen``.

The units promoted are on the Battle Line for the rest of that round, so the strikes of
the same round may target them (4.2, 4.3: "choose a target enemy Battle Line unit").
Targets chosen before the round are therefore checked against the line as Reinforce will
leave it (``line_after``); a target the enemy then decides not to promote falls back to
the first surviving enemy Battle Line unit, like a target that has fallen.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat.commands import Reinforce
from service.rulesets.aeonis_combat.events import Event, ReinforceChosen
from service.rulesets.aeonis_combat.rules import (
    battle_at,
    ensure_side_in_battle,
    label,
    no_duplicates,
    side_name,
)
from service.rulesets.aeonis_combat.state import Battle, State

BEFORE_THE_ROUND = ("defence", "ready")
"""Steps of an Attack action before its battle round is resolved."""


def choose(state: State, command: Reinforce) -> tuple[Event, ...]:
    """``aeonis.reinforce``: a side's choice for the coming round's Reinforce."""
    battle = battle_at(state, command.hex)
    ensure_side_in_battle(state, battle, command.side, command.hex)
    if battle.step not in BEFORE_THE_ROUND:
        raise RuleViolation(
            f"Reinforce is step 1 of a battle round (section 4.1): it is chosen after an "
            f"Attack action or Press the Attack pays for a round at {command.hex}, before "
            "aeonis.fight resolves it"
        )
    check(state, battle, command.side, command.promote)
    return (ReinforceChosen(hex=command.hex, side=command.side, promote=command.promote),)


def check(state: State, battle: Battle, side: str, promote: Sequence[str]) -> None:
    """Promoted units are the side's Reserves, no more than the line is under its cap."""
    no_duplicates(promote, "the units to promote")
    reserves = battle.reserves(side)
    for unit_id in promote:
        if unit_id in battle.line(side):
            raise RuleViolation(
                f"{label(state, unit_id)} is on the Battle Line already; Reinforce promotes "
                "Reserves (section 4.1)"
            )
        if unit_id not in reserves:
            raise RuleViolation(
                f"{label(state, unit_id)} is not in {side_name(state, side)}'s Reserves; "
                "Reinforce promotes Reserves onto the Battle Line (section 4.1)"
            )
    line = battle.line(side)
    room = max(0, battle.cap - len(line))
    if len(promote) > room:
        raise RuleViolation(
            f"{side_name(state, side)}'s Battle Line has {len(line)} of its cap of "
            f"{battle.cap} units: Reinforce promotes Reserves only until the line reaches "
            f"the cap (section 4.1); {len(promote)} given"
        )


def promotion(state: State, battle: Battle, side: str) -> tuple[str, ...]:
    """The Reserves ``side`` promotes in the coming Reinforce: its choice, or what
    ``reinforce_unchosen`` says for a side that made none."""
    room = max(0, battle.cap - len(battle.line(side)))
    chosen = battle.reinforce.get(side)
    if chosen is not None:  # checked when chosen; a ruling may have removed units since
        return tuple(u for u in chosen if u in battle.reserves(side))[:room]
    if state.options.reinforce_unchosen == "none":
        return ()
    return battle.reserves(side)[:room]


def line_after(state: State, battle: Battle, side: str) -> tuple[str, ...]:
    """``side``'s Battle Line as the coming Reinforce will leave it."""
    return (*battle.line(side), *promotion(state, battle, side))
