"""The replay log's line for an event: the ruleset narrates its own events, the core its."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from service.core_events import (
    CORE_EVENT_TYPES,
    CommandSpan,
    DiceUnused,
    EncounterCreated,
    EncounterForked,
    HitPointsRolled,
    NoteAdded,
    Redone,
    RequestAmended,
    RequestAnswered,
    RequestMade,
    RollsRevealed,
    Sealed,
    SeedCommitted,
    SeedRevealed,
    Undone,
)
from service.dice import DieResult, announce, announce_hidden
from service.encounter import Encounter
from service.health_text import health_part
from service.ruleset import Ruleset, rolls_of

_CORE_TYPES = frozenset(CORE_EVENT_TYPES)
"""Core event types are final Structs: an event is core exactly when its type is here."""


def narrate(
    ruleset: Ruleset[Any, Any, Any, Any], before: Encounter[Any] | None, event: object
) -> str:
    if type(event) not in _CORE_TYPES:
        # Most events are the ruleset's: one set lookup instead of a failed class pattern
        # per core type below (each an isinstance on a Struct class, about 0.15 us here).
        assert before is not None
        return ruleset.narrate(before.game, event)
    match event:
        case EncounterCreated():
            return f"Encounter {event.name!r} begins under the {event.ruleset} rules."
        case SeedCommitted():
            return (
                f"Dice epoch {event.epoch}: the server commits to seed hash {event.commitment}"
                f" (client seed {event.client_seed!r})."
            )
        case EncounterForked():
            return (
                f"Encounter {event.name!r} forks from encounter {event.origin_id} at version"
                f" {event.origin_version}: a what-if branch under the {event.ruleset} rules."
            )
        case NoteAdded():
            return f"GM note{' (GM only)' if event.gm_only else ''}: {event.text}"
        case RequestMade() if event.held_because:
            fields = ", ".join(f"{k} {v}" for k, v in event.command.items() if k != "type")
            return (
                f"Request {event.request_id}: a player's {event.command.get('type')}"
                f" ({fields}) waits for the GM. {event.held_because}."
            )
        case Sealed():
            return f"The GM's {event.command_type} is sealed as {event.seal_id}."
        case RequestMade():
            why = f" ({event.note})" if event.note else ""
            return (
                f"Request {event.request_id}: a player asks the GM to allow"
                f" {_asked(event.command, event.manual_dice)}{why}."
            )
        case RequestAmended():
            return (
                f"The GM amends request {event.request_id}: approving it now allows"
                f" {_asked(event.command, event.manual_dice)}."
            )
        case RequestAnswered():
            if event.approved:
                return f"The GM allows request {event.request_id}."
            return f"The GM refuses request {event.request_id}: {event.reason}"
        case RollsRevealed():
            return f"The GM reveals the secret roll{'s' if len(event.roll_ids) > 1 else ''}" + (
                f" {', '.join(event.roll_ids)}: everyone sees the results now."
            )
        case Undone():
            return f"The GM undoes {_spans(event.commands)}.{_reason(event.reason)}"
        case Redone():
            return (
                f"The GM redoes what the undo at #{event.undo_version} took back:"
                f" {_spans(event.commands)}.{_reason(event.reason)}"
            )
        case DiceUnused():
            return " ".join(_unused_line(r.dice) for r in event.rolls)
        case HitPointsRolled():
            return " ".join(
                _hit_points_line(c.id, c.name, c.hit_points, r)
                for c, r in zip(event.copies, event.rolls, strict=True)
            )
        case SeedRevealed():
            return (
                f"Dice epoch {event.epoch} ends: seed revealed as {event.seed};"
                " every roll of it can be checked."
            )
    assert before is not None
    return ruleset.narrate(before.game, event)


UNSAID_LINE = "The GM acts in secret."
"""A secret event's line for a ruleset that says nothing more about it."""


def narrate_secret(
    ruleset: Ruleset[Any, Any, Any, Any], before: Encounter[Any] | None, event: object
) -> str:
    """The line players read for an event of a command with an unrevealed secret roll."""
    if type(event) is DiceUnused:  # faces of a secret command are as secret as it
        return "The GM throws dice in secret."
    if type(event) in _CORE_TYPES:  # the others' lines carry nothing a roll decided
        return narrate(ruleset, before, event)
    if ruleset.narrate_secret is None or before is None:
        made = rolls_of(event)
        return " ".join(announce_hidden(r) for r in made) if made else UNSAID_LINE
    return ruleset.narrate_secret(before.game, event)


def _hit_points_line(copy_id: str, name: str, hit_points: int, roll: Any) -> str:
    """One copy's rolled hit points: the roll and the hit points are its health, told
    exactly only to readers who may see its numbers (service/health_text.py)."""
    said = f"The GM rolls {name}'s hit points."
    exact = f"{announce(roll)}: {name} has {hit_points} hit points."
    return health_part(copy_id, exact, said, said)


def _asked(command: dict[str, Any], manual_dice: list[list[int]] | None) -> str:
    """Everything approving a request will apply: every field of its command (every
    number and notation) and every die it brings, so nobody approves what they did not
    read.  Fields left unset say nothing and are left out."""
    fields = ", ".join(
        f"{k} {_value(v)}" for k, v in command.items() if k != "type" and not _unset(v)
    )
    dice = (
        "; with the dice " + " and ".join(f"[{', '.join(map(str, f))}]" for f in manual_dice)
        if manual_dice
        else "; with the encounter's dice"
    )
    return f"{command.get('type')}: {fields or 'no fields'}{dice}"


def _unset(value: object) -> bool:
    return value is None or (isinstance(value, list | tuple | dict) and not value)


def _value(value: object) -> str:
    return value if isinstance(value, str) else msgspec.json.encode(value).decode()


def _unused_line(dice: Sequence[DieResult]) -> str:
    faces = ", ".join(str(d.face) for d in dice) or "no faces"
    plural = "Dice" if len(dice) != 1 else "A die"
    return f"{plural} thrown at the table but not needed by the command: {faces} (unused)."


def _spans(spans: tuple[CommandSpan, ...]) -> str:
    return ", ".join(
        f"{s.command_type} (#{s.first})"
        if s.first == s.last
        else f"{s.command_type} (#{s.first}-#{s.last})"
        for s in spans
    )


def _reason(reason: str | None) -> str:
    return f" Reason: {reason}" if reason else ""
