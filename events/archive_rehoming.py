"""An archived stream rehomed under a new id: its links to other streams rewritten and its
hash chain recomputed, for an import that must not take the exporting service's ids (a
campaign and its encounters, docs/exports.md).

A link is a stream id in an event's data: a ``campaign.*`` event names its encounter
(``encounter``), an encounter's ``encounter.created`` names its campaign (``campaign``).
The chain covers the stream id and the data, so a rehomed event has a new hash; the
original chain is checked first (events/archive_reading.py) and the import records the
original id and head (events/provenance.py), so what was attested stays stated.  Nothing
else changes: versions, types, timestamps, metadata, sealed contents and committed health
values are kept byte for byte, so every commitment still opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from uuid import UUID

import msgspec

from events.archive import ArchivedEvent, BrokenArchive
from events.envelope import GENESIS_HASH
from events.hashing import event_hash
from events.kinds import of_campaign

ENCOUNTER_CREATED = "encounter.created"


def link_field(event_type: str) -> str | None:
    """The data field of an event of this type that names another stream, if any."""
    if of_campaign(event_type):
        return "encounter"
    if event_type == ENCOUNTER_CREATED:
        return "campaign"
    return None


class Rehoming:
    """Rehomes the events of the archive's stream ``origin``, in order, under its new id;
    ``ids`` maps every id of the archive to its new one."""

    def __init__(self, origin: UUID, ids: Mapping[UUID, UUID]) -> None:
        self.origin = origin
        self.stream_id = ids[origin]
        self.last_hash = GENESIS_HASH
        self._ids = {str(old): str(new) for old, new in ids.items()}

    def event(self, event: ArchivedEvent) -> ArchivedEvent:
        data = event.data
        field = link_field(event.type)
        if field is not None and data.get(field) is not None:
            old = str(data[field])
            new = self._ids.get(old)
            if new is None:
                raise BrokenArchive(
                    f"event {event.stream_version} of {self.origin} ({event.type}) names"
                    f" the stream {old}, which the archive does not hold"
                )
            data = {**data, field: new}
        rehashed = event_hash(
            self.last_hash,
            stream_id=self.stream_id,
            stream_version=event.stream_version,
            type=event.type,
            type_version=event.type_version,
            data=data,
            metadata=event.metadata,
            recorded_at=event.recorded_at,
        )
        rehomed = msgspec.structs.replace(event, data=data, prev_hash=self.last_hash, hash=rehashed)
        self.last_hash = rehashed
        return rehomed
