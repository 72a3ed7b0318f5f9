"""``narrate``: one line of the replay log per event, the way a GM would say it.

Given the state *before* the event, so a line can say "7 -> 1 hp" and use names.  Rolls
are rendered by ``service.dice.announce`` (the same words everywhere in the service);
this module adds what the rules made of them.  A secret roll is told only as having
happened (the roll ledger shows the GM the rest).  GM rulings read
"GM ruling: <what changed>, because <reason>".

One function per event type, found by the event's type: every event of a rebuild is
narrated, and a ``match`` over fifteen class patterns spent more time finding the case
than most cases take to run (events are final Structs, so the exact type is the case).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.dice.announce import announce, announce_hidden
from service.dice.model import RollRecord
from service.health_text import health_part, health_words
from service.rulesets.generic.events import (
    EVENT_TYPES,
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
    return _NARRATORS[type(event)](state, event)


def _combatant_added(state: State, event: CombatantAdded) -> str:
    # The players' state shows an NPC's stats only with its exact health: one statblock.
    stats = ", ".join(f"{k} {v}" for k, v in sorted(event.stats.items()))
    hp = f"{event.hp}/{event.max_hp} hp"
    sheet = health_words(
        event.combatant,
        f" ({hp}" + (f"; {stats}" if stats else "") + ")",
        event.hp,
        event.max_hp,
    )
    side = f" on side {event.side}" if event.side else ""
    return f"{event.name} joins the encounter{side}{sheet}"


def _combatant_removed(state: State, event: CombatantRemoved) -> str:
    return f"{_name(state, event.combatant)} leaves the encounter"


def _initiative_rolled(state: State, event: InitiativeRolled) -> str:
    order = ", ".join(f"{_name(state, e.combatant)} {e.total}" for e in event.order)
    note = f" ({event.note})" if event.note else ""
    return f"{_rolls(state, event.rolls)}. Initiative order: {order}{note}"


def _round_started(state: State, event: RoundStarted) -> str:
    return f"Round {event.round} begins: {_name(state, event.combatant)}'s turn"


def _turn_started(state: State, event: TurnStarted) -> str:
    return f"{_name(state, event.combatant)}'s turn"


def _condition_added(state: State, event: ConditionAdded) -> str:
    until = (
        f" for {_rounds(event.duration_rounds)} (until round {event.expires_at_round})"
        if event.duration_rounds is not None
        else ""
    )
    return _ruling(f"{_name(state, event.combatant)} is {event.condition}{until}", event.reason)


def _condition_removed(state: State, event: ConditionRemoved) -> str:
    line = f"{_name(state, event.combatant)} is no longer {event.condition}"
    return _ruling(line, event.reason)


def _condition_expired(state: State, event: ConditionExpired) -> str:
    return f"{_name(state, event.combatant)} is no longer {event.condition} (expired)"


def _rolled(state: State, event: AttackRolled | CheckRolled) -> str:
    return _rolls(state, event.rolls)


def _change(state: State, target: str, hp_after: int) -> str:
    """`` (7 -> 1 hp)`` for readers who see ``target``'s numbers, else its word."""
    who = state.combatants[target]
    return health_words(target, f" ({who.hp} -> {hp_after} hp)", hp_after, who.max_hp)


def _damaged(state: State, event: Damaged) -> str:
    change = _change(state, event.target, event.hp_after)
    source = f" from {event.source}" if event.source else ""
    line = f"{_name(state, event.target)} takes {event.amount} damage{source}{change}"
    return f"{_rolls(state, event.rolls)}; {line}" if event.rolls else line


def _healed(state: State, event: Healed) -> str:
    change = _change(state, event.target, event.hp_after)
    source = f" from {event.source}" if event.source else ""
    line = f"{_name(state, event.target)} regains {event.amount} hp{source}{change}"
    return f"{_rolls(state, event.rolls)}; {line}" if event.rolls else line


def _value_set(state: State, event: ValueSet) -> str:
    was = "unset" if event.previous is None else str(event.previous)
    change = f" set to {event.value} (was {was})"
    who = state.combatants.get(event.combatant)
    if event.field in ("hp", "max_hp") and who is not None:
        hp, top = (event.value, who.max_hp) if event.field == "hp" else (who.hp, event.value)
        change = health_words(event.combatant, change, hp, top, " changed ({word})")
    else:  # a stat: the statblock players see only with the exact health
        change = health_part(event.combatant, change, " changed", " changed")
    line = f"{_name(state, event.combatant)}'s {event.field}{change}"
    return _ruling(line, event.reason)


def _outcome_overridden(state: State, event: OutcomeOverridden) -> str:
    what = next(
        (o.description for o in state.outcomes if o.roll_id == event.roll_id),
        f"roll {event.roll_id}",
    )
    line = f"{what} ({event.roll_id}) is a {event.outcome}, not a {event.previous}"
    return _ruling(line, event.reason)


def _encounter_ended(state: State, event: EncounterEnded) -> str:
    number = state.round()
    return "The encounter ends" + (f" in round {number}" if number else "")


_NARRATORS: dict[type[Any], Callable[[State, Any], str]] = {
    CombatantAdded: _combatant_added,
    CombatantRemoved: _combatant_removed,
    InitiativeRolled: _initiative_rolled,
    RoundStarted: _round_started,
    TurnStarted: _turn_started,
    ConditionAdded: _condition_added,
    ConditionRemoved: _condition_removed,
    ConditionExpired: _condition_expired,
    AttackRolled: _rolled,
    CheckRolled: _rolled,
    Damaged: _damaged,
    Healed: _healed,
    ValueSet: _value_set,
    OutcomeOverridden: _outcome_overridden,
    EncounterEnded: _encounter_ended,
}
assert set(_NARRATORS) == set(EVENT_TYPES), "every generic event type needs its line"


def _name(state: State, combatant_id: str | None) -> str:
    """Display name by id; an unknown id is shown as itself rather than failing."""
    if combatant_id is None:
        return "GM"
    found = state.combatants.get(combatant_id)
    return found.name if found else combatant_id


def _rolls(state: State, rolls: tuple[RollRecord, ...]) -> str:
    """Each roll as announced; a secret roll shows only that it happened.  (A loop: a
    comprehension cost more than announcing the usual single roll.)"""
    lines: list[str] = []
    for r in rolls:
        lines.append(announce_hidden(r) if r.hidden else announce(r, name=_name(state, r.roller)))
    return "; ".join(lines)


def _rounds(count: int) -> str:
    return f"{count} round" + ("" if count == 1 else "s")


def _ruling(line: str, reason: str | None) -> str:
    return line if reason is None else f"GM ruling: {line}, because {reason}"
