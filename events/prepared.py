"""An append worked out before it is written: the new events numbered after the stream's
head, hash-chained and encoded (``prepare_append``), and the head's signature.

Pure: nothing here touches the database, so the write path can fold, project and answer
from the events as they will be stored before the one statement that stores them
(events/append.py) runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from events.envelope import NewEvent, RecordedEvent
from events.hashing import event_hash
from events.heads import StreamHead
from events.signing import sign_head

_json = msgspec.json.Encoder()


class PreparedAppend(msgspec.Struct, frozen=True):
    """Events ready to insert after ``head``: versions, hash chain and JSON text, worked
    out in Python so that one statement can insert them (events/append.py)."""

    stream_id: UUID
    head: StreamHead
    events: tuple[NewEvent, ...]
    metadata: dict[str, Any]
    metadata_json: str
    recorded_at: datetime
    versions: list[int]
    data_json: list[str]
    prev_hashes: list[str]
    hashes: list[str]

    def rows(self) -> Iterator[tuple[int, str, int, str, str, str]]:
        """Each event as stored: version, type, type version, data as JSON text,
        previous hash, hash."""
        for version, event, data, prev, digest in zip(
            self.versions, self.events, self.data_json, self.prev_hashes, self.hashes, strict=True
        ):
            yield version, event.type, event.type_version, data, prev, digest

    @property
    def new_head(self) -> StreamHead:
        return StreamHead(version=self.versions[-1], last_hash=self.hashes[-1])

    def recorded(self, positions: Sequence[int]) -> list[RecordedEvent]:
        """The events as stored, given the global positions the database assigned.

        Built here rather than read back: data and metadata are stored as the JSON text
        encoded from these very dicts (json, not jsonb), so a later read returns them
        in the same order and the command's answer and any read encode alike.
        """
        return [
            RecordedEvent(
                global_position=position,
                stream_id=self.stream_id,
                stream_version=version,
                type=event.type,
                type_version=event.type_version,
                data=event.data,
                metadata=self.metadata,
                recorded_at=self.recorded_at,
                prev_hash=prev,
                hash=digest,
            )
            for position, version, event, prev, digest in zip(
                positions, self.versions, self.events, self.prev_hashes, self.hashes, strict=True
            )
        ]


def prepare_append(
    stream_id: UUID,
    head: StreamHead,
    new_events: Sequence[NewEvent],
    *,
    metadata: dict[str, Any],
    recorded_at: datetime,
) -> PreparedAppend:
    """Number and chain ``new_events`` after ``head`` (pure: nothing is written)."""
    prev = head.last_hash
    versions: list[int] = []
    data_json: list[str] = []
    prev_hashes: list[str] = []
    hashes: list[str] = []
    for version, event in enumerate(new_events, start=head.version + 1):
        digest = event_hash(
            prev,
            stream_id=stream_id,
            stream_version=version,
            type=event.type,
            type_version=event.type_version,
            data=event.data,
            metadata=metadata,
            recorded_at=recorded_at,
        )
        versions.append(version)
        data_json.append(_json.encode(event.data).decode())
        prev_hashes.append(prev)
        hashes.append(digest)
        prev = digest
    return PreparedAppend(
        stream_id=stream_id,
        head=head,
        events=tuple(new_events),
        metadata=metadata,
        metadata_json=_json.encode(metadata).decode(),
        recorded_at=recorded_at,
        versions=versions,
        data_json=data_json,
        prev_hashes=prev_hashes,
        hashes=hashes,
    )


def head_signature(key: bytes | None, prepared: PreparedAppend) -> str | None:
    """The signature of the head ``prepared`` moves its stream to; None without a key."""
    if key is None:
        return None
    new = prepared.new_head
    return sign_head(key, prepared.stream_id, new.version, new.last_hash)
