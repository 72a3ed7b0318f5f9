"""The log lines of a sealed command (service/sealing.py): the one players read while it
is sealed, and the GM's, which becomes everyone's when it opens."""

from __future__ import annotations

from typing import Any

import msgspec

from projections.narration import narrate, narrate_secret
from service.core_events import Sealed
from service.encounter import Encounter, evolve
from service.ruleset import Ruleset


def sealed_line(ruleset: Ruleset[Any, Any, Any, Any], before: Encounter[Any], event: Sealed) -> str:
    """What players read: for a secret roll the ruleset's secret line of its first event
    (who acts, on whom, what); for a command sealed because it may read open secrets,
    only its type and what it waits for.  Never a number, outcome or count."""
    if event.hidden and event.inner:
        line = narrate_secret(ruleset, before, event.inner[0])
        return f"{line} (sealed as {event.seal_id})"
    others = [w for w in event.waits_for if w != event.seal_id]
    verb = "are" if len(others) > 1 else "is"
    return (
        f"The GM's {event.command_type} is sealed as {event.seal_id}"
        f" until {', '.join(others)} {verb} revealed."
    )


def opened_line(ruleset: Ruleset[Any, Any, Any, Any], before: Encounter[Any], event: Sealed) -> str:
    """The full lines of the inner events, in order, each narrated from the state before
    it: the GM's line, and everyone's once the envelope opens."""
    lines = []
    state = before
    for inner in event.inner:
        lines.append(narrate(ruleset, state, unhidden(inner)))
        state = evolve(ruleset, state, inner)
    return f"[{event.seal_id}] " + " ".join(lines)


def unhidden(event: Any) -> Any:
    """The event with its secret rolls shown: the GM's line, and everyone's once revealed."""
    rolls = getattr(event, "rolls", ())
    if not rolls:
        return event
    return msgspec.structs.replace(
        event, rolls=tuple(msgspec.structs.replace(r, hidden=False) for r in rolls)
    )
