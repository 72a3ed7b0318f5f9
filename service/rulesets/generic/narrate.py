"""``narrate``: one line of the replay log per event, the way a GM would say it.

Given the state *before* the event, so a line can say "7 -> 1 hp" and use names.  Rolls
are rendered by ``service.dice.announce`` (the same words everywhere in the service);
this module adds what the rules made of them.  A secret roll is told only as having
happened (the roll ledger shows the GM the rest).  GM rulings read
"GM ruling: <what changed>, because <reason>".
"""

from __future__ import annotations

from typing import assert_never

from service.dice.announce import announce, announce_hidden
from service.dice.model import RollRecord
from service.rulesets.generic.events import (
    AttackRolled,
    CheckRolled,
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionExpired,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    Event,
    Healed,
    InitiativeRolled,
    OutcomeOverridden,
    RoundStarted,
    TurnStarted,
    ValueSet,
)
from service.rulesets.generic.state import State


def narrate(state: State, event: Event) -> str:
    """The replay-log line for ``event``; ``state`` is the state before it."""
    name = _Names(state)
    match event:
        case CombatantAdded():
            stats = ", ".join(f"{k} {v}" for k, v in sorted(event.stats.items()))
            side = f", side {event.side}" if event.side else ""
            details = f"{event.hp}/{event.max_hp} hp{side}" + (f"; {stats}" if stats else "")
            return f"{event.name} joins the encounter ({details})"
        case CombatantRemoved():
            return f"{name(event.combatant)} leaves the encounter"
        case InitiativeRolled():
            order = ", ".join(f"{name(e.combatant)} {e.total}" for e in event.order)
            note = f" ({event.note})" if event.note else ""
            return f"{_rolls(state, event.rolls)}. Initiative order: {order}{note}"
        case RoundStarted():
            return f"Round {event.round} begins: {name(event.combatant)}'s turn"
        case TurnStarted():
            return f"{name(event.combatant)}'s turn"
        case ConditionAdded():
            until = (
                f" for {_rounds(event.duration_rounds)} (until round {event.expires_at_round})"
                if event.duration_rounds is not None
                else ""
            )
            return _ruling(f"{name(event.combatant)} is {event.condition}{until}", event.reason)
        case ConditionRemoved():
            line = f"{name(event.combatant)} is no longer {event.condition}"
            return _ruling(line, event.reason)
        case ConditionExpired():
            return f"{name(event.combatant)} is no longer {event.condition} (expired)"
        case AttackRolled() | CheckRolled():
            return _rolls(state, event.rolls)
        case Damaged():
            before = state.combatants[event.target].hp
            change = f"{before} -> {event.hp_after} hp"
            source = f" from {event.source}" if event.source else ""
            line = f"{name(event.target)} takes {event.amount} damage{source} ({change})"
            return f"{_rolls(state, event.rolls)}; {line}" if event.rolls else line
        case Healed():
            before = state.combatants[event.target].hp
            change = f"{before} -> {event.hp_after} hp"
            source = f" from {event.source}" if event.source else ""
            line = f"{name(event.target)} regains {event.amount} hp{source} ({change})"
            return f"{_rolls(state, event.rolls)}; {line}" if event.rolls else line
        case ValueSet():
            was = "unset" if event.previous is None else str(event.previous)
            line = f"{name(event.combatant)}'s {event.field} set to {event.value} (was {was})"
            return _ruling(line, event.reason)
        case OutcomeOverridden():
            what = next(
                (o.description for o in state.outcomes if o.roll_id == event.roll_id),
                f"roll {event.roll_id}",
            )
            line = f"{what} ({event.roll_id}) is a {event.outcome}, not a {event.previous}"
            return _ruling(line, event.reason)
        case EncounterEnded():
            number = state.round()
            return "The encounter ends" + (f" in round {number}" if number else "")
        case _:
            assert_never(event)


class _Names:
    """Display names by id; an unknown id is shown as itself rather than failing."""

    def __init__(self, state: State) -> None:
        self._state = state

    def __call__(self, combatant_id: str | None) -> str:
        if combatant_id is None:
            return "GM"
        found = self._state.combatants.get(combatant_id)
        return found.name if found else combatant_id


def _rolls(state: State, rolls: tuple[RollRecord, ...]) -> str:
    """Each roll as announced; a secret roll shows only that it happened."""
    name = _Names(state)
    return "; ".join(
        announce_hidden(r) if r.hidden else announce(r, name=name(r.roller)) for r in rolls
    )


def _rounds(count: int) -> str:
    return f"{count} round" + ("" if count == 1 else "s")


def _ruling(line: str, reason: str | None) -> str:
    return line if reason is None else f"GM ruling: {line}, because {reason}"
