"""A stream folded one event at a time with the encounter before and after each: what the
read models are made from, on the write path and in a rebuild alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.envelope import RecordedEvent
from service.encounter import Encounter, evolve
from service.ruleset import Ruleset


class AppliedEvent(msgspec.Struct, frozen=True):
    """One event as it was folded: the stored envelope, the typed event, and the
    encounter just before and just after it (read models need both)."""

    recorded: RecordedEvent
    event: Any
    before: Encounter[Any] | None
    after: Encounter[Any]


def applied_steps(
    ruleset: Ruleset[Any, Any, Any, Any],
    state: Encounter[Any] | None,
    recorded: Sequence[RecordedEvent],
    events: Sequence[Any],
) -> list[AppliedEvent]:
    """Fold ``events`` (the typed form of ``recorded``) one at a time from ``state``."""
    steps: list[AppliedEvent] = []
    for rec, event in zip(recorded, events, strict=True):
        after = evolve(ruleset, state, event)
        steps.append(AppliedEvent(rec, event, state, after))
        state = after
    return steps
