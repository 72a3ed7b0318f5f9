"""The replay log's line for an event: the ruleset narrates its own events, the core its."""

from __future__ import annotations

from typing import Any

from service.core_events import EncounterCreated, SeedCommitted, SeedRevealed
from service.encounter import Encounter
from service.ruleset import Ruleset


def narrate(
    ruleset: Ruleset[Any, Any, Any, Any], before: Encounter[Any] | None, event: object
) -> str:
    match event:
        case EncounterCreated():
            return f"Encounter {event.name!r} begins under the {event.ruleset} rules."
        case SeedCommitted():
            return (
                f"Dice epoch {event.epoch}: the server commits to seed hash {event.commitment}"
                f" (client seed {event.client_seed!r})."
            )
        case SeedRevealed():
            return (
                f"Dice epoch {event.epoch} ends: seed revealed as {event.seed};"
                " every roll of it can be checked."
            )
    assert before is not None
    return ruleset.narrate(before.game, event)
