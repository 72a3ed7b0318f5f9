"""Initiative: rolling it, breaking ties, and placing combatants in the order.

The order is by total, highest first.  Ties go to the higher initiative modifier (the
initiative stat), then to 1d20 roll-offs among those still tied, repeated among any still
tied after that, at most ``MAX_ROLL_OFFS`` times; after that the order the combatants
were added in decides and the event's note says so.  Every roll, roll-offs included,
lands in the event.

A late joiner (someone rolling once combat has started) tied with a combatant already in
the order goes after them: established turns are never reshuffled.  The first initiative
roll starts round 1, unless it waits for the others (``wait_for_all``: the table rolls
one at a time as the dice land); then round 1 starts with the roll that gives the last
combatant initiative, and ties across all the rolls entered are broken by that command.
"""

from __future__ import annotations

from itertools import groupby

from service.dice.model import Dice, Modifier, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.generic.commands import RollInitiative
from service.rulesets.generic.events import Event, InitiativeRolled
from service.rulesets.generic.rules import combatant
from service.rulesets.generic.state import InitiativeEntry, Setup, State, initiative_rank
from service.rulesets.generic.turns import start_round

MAX_ROLL_OFFS = 10
"""Roll-offs before giving up: two d20s tie ten times in a row about once in 10^13."""
ROLL_OFF = "1d20"


def roll_initiative(state: State, command: RollInitiative, dice: Dice) -> tuple[Event, ...]:
    """``generic.roll_initiative``."""
    who = _who(state, command.combatants)
    notation = state.options.initiative_notation if command.notation is None else command.notation
    stat = state.options.initiative_stat
    entries: list[InitiativeEntry] = []
    rolls: list[RollRecord] = []
    for combatant_id in who:
        stats = state.combatants[combatant_id].stats
        modifiers = (Modifier(stat, stats[stat]),) if stat is not None and stat in stats else ()
        record = dice.roll(notation, purpose="initiative", roller=combatant_id, modifiers=modifiers)
        rolls.append(record)
        modifier = sum(m.value for m in modifiers)
        entries.append(
            InitiativeEntry(combatant=combatant_id, total=record.total, modifier=modifier)
        )
    setup = isinstance(state.phase, Setup)
    if setup and command.wait_for_all and (waiting := _still_to_roll(state, who)):
        # A provisional order: ties wait until the last roll is in.
        order = tuple(sorted((*state.order, *entries), key=initiative_rank))
        note = f"waiting for {', '.join(waiting)} to roll"
        held = tuple(sorted(entries, key=initiative_rank))
        return (InitiativeRolled(results=held, order=order, note=note, rolls=tuple(rolls)),)
    # Before combat, rolls entered earlier (wait_for_all) are ranked with these: their
    # ties are broken now, by the same rules as ties within one roll.
    pool = [*state.order, *entries] if setup else entries
    ranked: list[InitiativeEntry] = []
    notes: list[str] = []
    for _, tied in groupby(sorted(pool, key=initiative_rank), key=initiative_rank):
        ranked.extend(_break_tie(state, list(tied), dice, 1, rolls, notes))
    if setup:
        order = tuple(ranked)
        results = tuple(e for e in ranked if e.combatant in who)
    else:
        # sorted() is stable: on equal rank, those already in the order stay ahead.
        order = tuple(sorted((*state.order, *ranked), key=initiative_rank))
        results = tuple(ranked)
    rolled = InitiativeRolled(
        results=results, order=order, note="; ".join(notes) or None, rolls=tuple(rolls)
    )
    if setup:
        return (rolled, *start_round(state, order, 1))
    return (rolled,)


def _still_to_roll(state: State, rolling: tuple[str, ...]) -> list[str]:
    """Names of the combatants without initiative once ``rolling`` have it."""
    return [
        c.name
        for c in state.combatants.values()
        if c.id not in rolling and not state.in_order(c.id)
    ]


def _who(state: State, requested: tuple[str, ...] | None) -> tuple[str, ...]:
    """The combatants to roll for: those named, or everyone without initiative yet."""
    if requested is None:
        who = tuple(c for c in state.combatants if not state.in_order(c))
        if not who and isinstance(state.phase, Setup) and state.order:
            return ()  # everyone's roll is in (waiting): start with the rolls entered
        if not who:
            raise RuleViolation(
                "everyone already has initiative"
                if state.combatants
                else "there are no combatants to roll initiative for: add some first"
            )
        return who
    if not requested:
        raise RuleViolation("name at least one combatant to roll initiative for")
    for combatant_id in requested:
        found = combatant(state, combatant_id)
        if requested.count(combatant_id) > 1:
            raise RuleViolation(f"{found.name} is listed twice")
        entry = next((e for e in state.order if e.combatant == combatant_id), None)
        if entry is not None:
            raise RuleViolation(f"{found.name} already has initiative ({entry.total})")
    return requested


def _break_tie(
    state: State,
    tied: list[InitiativeEntry],
    dice: Dice,
    attempt: int,
    rolls: list[RollRecord],
    notes: list[str],
) -> list[InitiativeEntry]:
    """Order ``tied`` (equal total and modifier) by roll-offs; appends to rolls and notes."""
    if len(tied) == 1:
        return tied
    if attempt > MAX_ROLL_OFFS:
        added = list(state.combatants)
        tied = sorted(tied, key=lambda e: added.index(e.combatant))
        names = ", ".join(state.combatants[e.combatant].name for e in tied)
        notes.append(f"{names} still tied after {MAX_ROLL_OFFS} roll-offs: order of addition")
        return tied
    purpose = f"initiative roll-off {attempt}"
    results = [(dice.roll(ROLL_OFF, purpose=purpose, roller=e.combatant), e) for e in tied]
    rolls.extend(record for record, _ in results)
    ordered: list[InitiativeEntry] = []
    for _, group in groupby(sorted(results, key=lambda r: -r[0].total), key=lambda r: r[0].total):
        still_tied = [entry for _, entry in group]
        ordered.extend(_break_tie(state, still_tied, dice, attempt + 1, rolls, notes))
    return ordered
