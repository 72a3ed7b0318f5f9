"""Walk a stream's hash chain and name the first broken link."""

from __future__ import annotations

from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import GENESIS_HASH
from events.hashing import event_hash
from events.store import read_stream, stream_head

_PAGE = 2000


class BrokenLink(msgspec.Struct, frozen=True):
    stream_id: UUID
    version: int
    reason: str


class ChainReport(msgspec.Struct, frozen=True):
    stream_id: UUID
    ok: bool
    events_checked: int
    head_version: int
    first_broken: BrokenLink | None = None


async def verify_chain(db: Database, stream_id: UUID) -> ChainReport:
    """Recompute every hash from the stored rows.

    Any edit of an event (made with the immutability trigger disabled, or directly on
    disk) changes its canonical bytes and so breaks its own hash; a deleted or reordered
    event breaks the version sequence or the prev_hash link of the next one.
    """
    head = await stream_head(db, stream_id)
    prev, expected_version, checked = GENESIS_HASH, 1, 0

    def broken(version: int, reason: str) -> ChainReport:
        return ChainReport(
            stream_id=stream_id,
            ok=False,
            events_checked=checked,
            head_version=head.version,
            first_broken=BrokenLink(stream_id, version, reason),
        )

    after = 0
    while True:
        page = await read_stream(db, stream_id, after_version=after, limit=_PAGE)
        for event in page:
            if event.stream_version != expected_version:
                return broken(expected_version, f"version {expected_version} is missing")
            if event.prev_hash != prev:
                return broken(event.stream_version, "prev_hash does not match the previous event")
            recomputed = event_hash(
                prev,
                stream_id=event.stream_id,
                stream_version=event.stream_version,
                type=event.type,
                type_version=event.type_version,
                data=event.data,
                metadata=event.metadata,
                recorded_at=event.recorded_at,
            )
            if recomputed != event.hash:
                return broken(event.stream_version, "content does not match its hash (altered)")
            prev, expected_version, checked = event.hash, expected_version + 1, checked + 1
        if len(page) < _PAGE:
            break
        after = page[-1].stream_version
    if checked != head.version:
        return broken(
            checked + 1, f"stream head says version {head.version} but events end at {checked}"
        )
    if head.last_hash != prev:
        return broken(head.version, "stream head hash does not match the last event")
    return ChainReport(
        stream_id=stream_id, ok=True, events_checked=checked, head_version=head.version
    )
