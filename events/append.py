"""Appending to a stream: number, chain and encode new events (``prepare_append``), then
write them and move the stream row in one statement (``append``).

One job: the write.  A module of its own because this is the benchmarked path:
``INSERT_EVENTS`` and its parameters are shared with the command's whole write in
service/commit.py, and keeping them alone keeps that statement's text and cost in one place.
Writes take a connection that is already inside the caller's transaction, so the caller can
update its inline read models and idempotency record atomically with the append.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import cache
from typing import Any
from uuid import UUID

import msgspec

from events.db import Connection
from events.envelope import NewEvent, RecordedEvent
from events.errors import StreamNotFound, VersionConflict
from events.hashing import event_hash
from events.heads import StreamHead
from events.shards import anchor_of, shard_of
from events.signing import sign_head

_json = msgspec.json.Encoder()


class PreparedAppend(msgspec.Struct, frozen=True):
    """Events ready to insert after ``head``: versions, hash chain and JSON text, worked
    out in Python so that one statement can insert them (append, or a command's whole
    write in service/commit.py)."""

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


async def append(
    conn: Connection,
    stream_id: UUID,
    head: StreamHead,
    new_events: Sequence[NewEvent],
    *,
    metadata: dict[str, Any],
    recorded_at: datetime,
    key: bytes | None = None,
) -> list[RecordedEvent]:
    """Append ``new_events`` after ``head`` inside the caller's transaction.

    With ``key`` the new head is signed (events/signing.py); without, it is left unsigned.

    The conditional UPDATE of the stream row is the concurrency control: of two writers
    that read the same head, on any process, the second finds the version moved, appends
    nothing and gets VersionConflict; its transaction must then be rolled back by the caller.
    """
    if not new_events:
        return []
    prepared = prepare_append(
        stream_id, head, new_events, metadata=metadata, recorded_at=recorded_at
    )
    # One round trip: the conditional UPDATE of the stream row and the INSERT of the
    # events run as one statement; the INSERT adds nothing unless the UPDATE moved the row.
    positions = await conn.fetchval(
        f"""WITH {COUNT_POSITIONS.format(condition="true", skip="")}, moved AS (
                UPDATE streams SET version = $3, last_hash = $4, head_signature = $10
                WHERE stream_id = $1 AND version = $2 AND EXISTS (SELECT FROM counted)
                RETURNING stream_id
            ), appended AS ({INSERT_EVENTS})
            SELECT array(SELECT global_position FROM appended ORDER BY stream_version)""",
        *append_arguments(prepared),
        head_signature(key, prepared),
    )
    if not positions:
        actual = await conn.fetchval("SELECT version FROM streams WHERE stream_id = $1", stream_id)
        if actual is None:
            raise StreamNotFound(stream_id)
        raise VersionConflict(stream_id, head.version, actual)
    return prepared.recorded(positions)


COUNT_POSITIONS = """locked AS (
    SELECT stream_id FROM streams WHERE stream_id = $1 AND version = $2 AND {condition}
    FOR UPDATE {skip}
), counted AS (
    UPDATE shard_heads SET head = head + ($3 - $2)
    WHERE anchor = $9 AND EXISTS (SELECT FROM locked)
    RETURNING head
)"""
"""The CTEs that lock the stream row and count the new events in their shard
(events/shards.py), to be formatted with the write's other ``condition``s and ``skip``
(``SKIP LOCKED``, or nothing to wait for the row); the stream row's UPDATE must wait for
them (``AND EXISTS (SELECT FROM counted)``).

Why this order, and why ``SKIP LOCKED``: the count row is held from here to the commit,
and a holder of a count must never wait for a stream row, or two writers could wait for
each other (a group holding shard s's count waiting for a row that a locking-path
command holds while it waits for that count).  So the stream row is taken first and
only if nobody holds it: a write whose row is locked by another writer is refused, as
if the version had moved, and the locking path then queues for the row properly.
Groups send their writes in shard order (service/group_commit.py), so counts are always
taken in ascending shard order, and a transaction holding a count waits only for a
higher count, never for a row: no cycle can form.  ``append`` alone may wait for its
row: it holds no count yet when it does.  (``locked`` selects a column it does not need:
Citus passes a CTE on as an intermediate result, which cannot have none.)"""

INSERT_EVENTS = """
    INSERT INTO events (stream_id, stream_version, type, type_version, data, metadata,
                        recorded_at, prev_hash, hash, shard, shard_position)
    SELECT $1, (e->>0)::int, e->>1, (e->>2)::int, (e->>3)::json, $5::json, $6, e->>4, e->>5,
           $8, (SELECT head FROM counted) - ($3 - (e->>0)::int)
    FROM jsonb_array_elements($7::jsonb) AS e
    WHERE EXISTS (SELECT FROM moved)
    ORDER BY (e->>0)::int
    RETURNING global_position, stream_version"""
"""The events' INSERT as a CTE body: it inserts only if a CTE named ``moved`` (the
conditional UPDATE of the stream row) returned a row, and numbers the events in their
shard below the count ``counted`` (``COUNT_POSITIONS``) returned.  Parameters $1..$9 are
``append_arguments``; $3 and $4 are the new head for that UPDATE."""


def append_arguments(prepared: PreparedAppend) -> tuple[Any, ...]:
    """Parameters $1..$9 of ``INSERT_EVENTS``, ``COUNT_POSITIONS`` and the stream row's
    UPDATE.

    The events go as one JSON array of rows (version, type, type version, data as JSON
    text, previous hash, hash): one parameter, where an array per column cost asyncpg an
    encoder and several abstract-class checks per column and per element.  PostgreSQL
    reads it as jsonb, parsed once: as json, every ``e->>k`` parsed its row again, data
    and all (a large share of the database's CPU per command; bench/README.md).
    """
    rows = list(prepared.rows())
    shard, anchor = anchor_of(prepared.stream_id)
    return (
        prepared.stream_id,
        prepared.head.version,
        prepared.new_head.version,
        prepared.new_head.last_hash,
        prepared.metadata_json,
        prepared.recorded_at,
        _json.encode(rows).decode(),
        shard,
        anchor,
    )


def head_signature(key: bytes | None, prepared: PreparedAppend) -> str | None:
    """The signature of the head ``prepared`` moves its stream to; None without a key."""
    if key is None:
        return None
    new = prepared.new_head
    return sign_head(key, prepared.stream_id, new.version, new.last_hash)


_INSERT_VALUES = """INSERT INTO events (stream_id, stream_version, type, type_version, data,
                    metadata, recorded_at, prev_hash, hash, shard, shard_position)
VALUES """


@cache
def insert_events_values(count: int) -> str:
    """The events' INSERT as a statement of its own, one VALUES row per event, for the
    split write (service/split_write.py): Citus routes a VALUES insert whole to the
    stream's shard, whereas it collects an ``INSERT ... SELECT`` on the coordinator and
    commits it in two phases.  Parameters: ``values_arguments``."""
    rows = []
    for n in range(count):
        p = [f"${5 + 7 * n + i}" for i in range(7)]
        rows.append(
            f"($1, {p[0]}, {p[1]}, {p[2]}, {p[3]}::json, $2::json, $3, {p[4]}, {p[5]}, $4, {p[6]})"
        )
    return _INSERT_VALUES + ",\n       ".join(rows) + "\nRETURNING global_position, stream_version"


def values_arguments(prepared: PreparedAppend, head: int) -> list[Any]:
    """Parameters of ``insert_events_values``: the stream, metadata, time and shard, then
    seven per event, which is numbered in its shard below ``head``, the shard's count
    after these events (as ``INSERT_EVENTS`` numbers them below ``counted``)."""
    last = prepared.new_head.version
    arguments: list[Any] = [
        prepared.stream_id,
        prepared.metadata_json,
        prepared.recorded_at,
        shard_of(prepared.stream_id),
    ]
    for row in prepared.rows():
        arguments += [*row, head - (last - row[0])]
    return arguments
