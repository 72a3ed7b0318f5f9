"""A campaign's events as its players see them: the one redaction every players' read of
a campaign (state, log, events) goes through, so no path shows more than another.

The bestiary is the GM's preparation: a statblock's sheet and the notation its hit points
are rolled with tell a monster's numbers before it is met, and a copy's rolled hit points
are its health. A campaign has no ``npc_health`` of its own, so players read a statblock's
name and id only, and a monster copy's name and id, whatever an encounter later shows.
The party is the players' own characters: their sheets and conditions are exact, as a
player character's are in an encounter. A carry-over held while its encounter hides a
secret is not an event yet, so nothing here has to hide it: the stream, its versions and
its log are the same whatever the secret is, until the reveal lets the carry-over happen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.committed_health import without_salts
from events.envelope import RecordedEvent
from projections.redaction import redact_metadata
from service.campaigns.hidden import ENCOUNTER_STARTED, STATBLOCK_ADDED
from service.campaigns.stored import Folded, fold


def seen_by_players(folded: Folded) -> Folded:
    """The campaign as its players read it: the same version, its events redacted and
    its state folded from them, so the state cannot tell what the events do not."""
    events = as_players_saw(folded.events)
    return Folded(fold(list(events)), folded.version, events)


def as_players_saw(events: Sequence[RecordedEvent]) -> tuple[RecordedEvent, ...]:
    """``events`` of a campaign without what only its GM reads.  An event written with
    commitments (service/campaigns/hidden.py) keeps them, without their salts, and so
    still matches its hash; one written before them no longer does."""
    return tuple(_seen(event) for event in events)


def _seen(event: RecordedEvent) -> RecordedEvent:
    data = without_salts(_data_seen(event.type, event.data))
    metadata = redact_metadata(event.metadata)
    if data is event.data and metadata is event.metadata:
        return event
    return msgspec.structs.replace(event, data=data, metadata=metadata)


def _data_seen(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """The hidden values blanked (the typed fold still reads every field); the chain's
    hashed form leaves out whatever a commitment stands for, blank or not."""
    if kind == STATBLOCK_ADDED:
        return {**without_salts(data), "sheet": {}, "hit_points": None}
    if kind == ENCOUNTER_STARTED:
        monsters = [{**m, "hit_points": None} for m in data.get("monsters", ())]
        return {**without_salts(data), "monsters": monsters, "rolls": []}
    return without_salts(data)
