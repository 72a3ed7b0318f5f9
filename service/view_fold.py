"""Folding a reader's view of a stream, where an event the view cannot fold is an error.

A player's view, the statistics and the round replay fold the stream with the secrets
left out.  Sealing keeps every public event independent of an open secret, so an event
that does not fold there is a bug in that view (or a stream written before sealing):
it is raised as ``ViewNotFoldable`` (answered as a problem, logged and counted by
api/http/problems.py), never taken for an event that was undone.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from service.encounter import Encounter, evolve
from service.ruleset import Ruleset


class ViewNotFoldable(Exception):
    """The ``view`` of ``encounter_id`` cannot fold the event at ``version``."""

    def __init__(self, encounter_id: UUID, version: int, event_type: str, view: str) -> None:
        super().__init__(f"{view} view of {encounter_id} cannot fold version {version}")
        self.encounter_id = encounter_id
        self.version = version
        self.event_type = event_type
        self.view = view


def evolve_in_view(
    ruleset: Ruleset[Any, Any, Any, Any],
    state: Encounter[Any] | None,
    event: Any,
    *,
    reverted: bool,
    encounter_id: UUID,
    version: int,
    view: str,
) -> Encounter[Any]:
    """``evolve`` for one reader's view: a failure says which view, event and version."""
    try:
        return evolve(ruleset, state, event, reverted=reverted)
    except Exception as failure:
        kind = getattr(event, "type", type(event).__name__)
        raise ViewNotFoldable(encounter_id, version, str(kind), view) from failure
