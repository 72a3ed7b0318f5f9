"""The PostgreSQL event store: append with expected version, read, snapshot, verify.

Writes take a connection that is already inside a transaction, so the caller can update
its inline read models and idempotency record atomically with the append (all or nothing).
Reads take the pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection, Database
from events.envelope import GENESIS_HASH, NewEvent, RecordedEvent
from events.errors import StreamNotFound, VersionConflict
from events.hashing import event_hash
from events.signing import sign_head

_json = msgspec.json.Encoder()
_decode_dict = msgspec.json.Decoder(dict[str, Any])

_EVENT_COLUMNS = (
    "global_position, stream_id, stream_version, type, type_version, data, metadata,"
    " recorded_at, prev_hash, hash"
)


class Checkpoint(msgspec.Struct, frozen=True, order=True):
    """Where a reader of all streams stands: (transaction id, global position).

    Ordering by transaction id first is what lets a reader never skip an event whose
    global position was taken before, but committed after, one it already read.
    """

    transaction_id: int = 0
    global_position: int = 0


class StreamHead(msgspec.Struct, frozen=True):
    version: int
    last_hash: str


class SignedHead(msgspec.Struct, frozen=True):
    """The head as the streams row holds it, with its signature (None: unsigned)."""

    version: int
    last_hash: str
    signature: str | None


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    schema_version: int
    state: bytes


def _record(row: asyncpg.Record) -> RecordedEvent:
    return RecordedEvent(
        global_position=row["global_position"],
        stream_id=row["stream_id"],
        stream_version=row["stream_version"],
        type=row["type"],
        type_version=row["type_version"],
        data=_decode_dict.decode(row["data"]),
        metadata=_decode_dict.decode(row["metadata"]),
        recorded_at=row["recorded_at"],
        prev_hash=row["prev_hash"],
        hash=row["hash"],
    )


async def create_stream(conn: Connection, stream_id: UUID) -> StreamHead:
    """Open an empty stream (version 0) inside the caller's transaction."""
    await conn.execute(
        "INSERT INTO streams (stream_id, version, last_hash) VALUES ($1, 0, $2)",
        stream_id,
        GENESIS_HASH,
    )
    return StreamHead(version=0, last_hash=GENESIS_HASH)


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
        f"""WITH moved AS (
                UPDATE streams SET version = $3, last_hash = $4, head_signature = $8
                WHERE stream_id = $1 AND version = $2
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


INSERT_EVENTS = """
    INSERT INTO events (stream_id, stream_version, type, type_version, data, metadata,
                        recorded_at, prev_hash, hash)
    SELECT $1, (e->>0)::int, e->>1, (e->>2)::int, (e->>3)::json, $5::json, $6, e->>4, e->>5
    FROM jsonb_array_elements($7::jsonb) AS e
    WHERE EXISTS (SELECT FROM moved)
    ORDER BY (e->>0)::int
    RETURNING global_position, stream_version"""
"""The events' INSERT as a CTE body: it inserts only if a CTE named ``moved`` (the
conditional UPDATE of the stream row) returned a row.  Parameters $1..$7 are
``append_arguments``; $3 and $4 are the new head for that UPDATE."""


def append_arguments(prepared: PreparedAppend) -> tuple[Any, ...]:
    """Parameters $1..$7 of ``INSERT_EVENTS`` and of the stream row's UPDATE.

    The events go as one JSON array of rows (version, type, type version, data as JSON
    text, previous hash, hash): one parameter, where an array per column cost asyncpg an
    encoder and several abstract-class checks per column and per element.  PostgreSQL
    reads it as jsonb, parsed once: as json, every ``e->>k`` parsed its row again, data
    and all (json_lex was 12% of the database's CPU per command; bench/README.md).
    """
    rows = [
        (version, event.type, event.type_version, data, prev, digest)
        for version, event, data, prev, digest in zip(
            prepared.versions,
            prepared.events,
            prepared.data_json,
            prepared.prev_hashes,
            prepared.hashes,
            strict=True,
        )
    ]
    return (
        prepared.stream_id,
        prepared.head.version,
        prepared.new_head.version,
        prepared.new_head.last_hash,
        prepared.metadata_json,
        prepared.recorded_at,
        _json.encode(rows).decode(),
    )


def head_signature(key: bytes | None, prepared: PreparedAppend) -> str | None:
    """The signature of the head ``prepared`` moves its stream to; None without a key."""
    if key is None:
        return None
    new = prepared.new_head
    return sign_head(key, prepared.stream_id, new.version, new.last_hash)


async def signed_head(db: Database, stream_id: UUID) -> SignedHead:
    """The stream row's head and its stored signature (one primary-key read)."""
    row = await db.fetchrow(
        "SELECT version, last_hash, head_signature FROM streams WHERE stream_id = $1", stream_id
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return SignedHead(row["version"], row["last_hash"], row["head_signature"])


async def stream_head(db: Database, stream_id: UUID) -> StreamHead:
    row = await db.fetchrow(
        "SELECT version, last_hash FROM streams WHERE stream_id = $1", stream_id
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return StreamHead(version=row["version"], last_hash=row["last_hash"])


async def read_stream(
    db: Database,
    stream_id: UUID,
    *,
    after_version: int = 0,
    up_to_version: int | None = None,
    limit: int | None = None,
) -> list[RecordedEvent]:
    """Events of one stream in version order, (after_version, up_to_version]."""
    rows = await db.fetch(
        f"""SELECT {_EVENT_COLUMNS} FROM events
            WHERE stream_id = $1 AND stream_version > $2
              AND ($3::int IS NULL OR stream_version <= $3)
            ORDER BY stream_version
            LIMIT $4""",
        stream_id,
        after_version,
        up_to_version,
        limit,
    )
    return [_record(r) for r in rows]


async def read_all(
    db: Database, after: Checkpoint, *, limit: int = 1000
) -> tuple[list[RecordedEvent], Checkpoint]:
    """Events of every stream after ``after``, never skipping one that commits late.

    Only transactions older than the oldest one still running are read
    (``pg_snapshot_xmin``): their set of events is final.  An event of a transaction
    that is still open is simply not visible yet and sorts after the returned checkpoint,
    because its transaction id is at least that xmin.  Writers never wait on each other.
    """
    rows = await db.fetch(
        f"""SELECT {_EVENT_COLUMNS}, transaction_id::text::bigint AS tx FROM events
            WHERE (transaction_id, global_position) > ($1::text::xid8, $2)
              AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY transaction_id, global_position
            LIMIT $3""",
        str(after.transaction_id),
        after.global_position,
        limit,
    )
    if not rows:
        return [], after
    last = rows[-1]
    return [_record(r) for r in rows], Checkpoint(last["tx"], last["global_position"])


async def save_snapshot(
    conn: Connection, stream_id: UUID, version: int, schema_version: int, state: bytes
) -> None:
    await conn.execute(
        """INSERT INTO snapshots (stream_id, version, schema_version, state)
           VALUES ($1, $2, $3, $4::json)
           ON CONFLICT (stream_id, version) DO UPDATE
           SET schema_version = EXCLUDED.schema_version, state = EXCLUDED.state""",
        stream_id,
        version,
        schema_version,
        state.decode(),
    )


async def latest_snapshot(
    db: Database,
    stream_id: UUID,
    schema_version: int,
    *,
    at_most_version: int | None = None,
) -> Snapshot | None:
    """The newest snapshot of the current state schema, optionally not past a version."""
    row = await db.fetchrow(
        """SELECT version, schema_version, state FROM snapshots
           WHERE stream_id = $1 AND schema_version = $2
             AND ($3::int IS NULL OR version <= $3)
           ORDER BY version DESC LIMIT 1""",
        stream_id,
        schema_version,
        at_most_version,
    )
    if row is None:
        return None
    return Snapshot(row["version"], row["schema_version"], row["state"].encode())


async def delete_snapshots_from(conn: Connection, stream_id: UUID, version: int) -> None:
    """Drop the stream's snapshots at or after ``version`` (a history they no longer
    describe), inside the caller's transaction."""
    await conn.execute(
        "DELETE FROM snapshots WHERE stream_id = $1 AND version >= $2", stream_id, version
    )


async def lock_stream(conn: Connection, stream_id: UUID) -> StreamHead:
    """The stream's head, its row locked for the caller's transaction."""
    row = await conn.fetchrow(
        "SELECT version, last_hash FROM streams WHERE stream_id = $1 FOR UPDATE", stream_id
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return StreamHead(version=row["version"], last_hash=row["last_hash"])


async def stream_ruleset(db: Database, stream_id: UUID) -> str | None:
    """The ruleset the stream's first event (the encounter's creation) names; None if the
    stream has no events."""
    name = await db.fetchval(
        "SELECT data->>'ruleset' FROM events WHERE stream_id = $1 AND stream_version = 1",
        stream_id,
    )
    return None if name is None else str(name)


async def read_commands(db: Database, stream_id: UUID) -> list[asyncpg.Record]:
    """The stream as one row per command (events sharing ``metadata.command_id``), in
    order: its ``first`` and ``last`` versions, its first event's ``type`` and ``data``
    (JSON text), and its ``command_type`` (from the metadata; None if not recorded)."""
    return await db.fetch(
        """SELECT min(stream_version) AS first, max(stream_version) AS last,
                  (array_agg(type ORDER BY stream_version))[1] AS type,
                  min(metadata->>'command_type') AS command_type,
                  (array_agg(data ORDER BY stream_version))[1] AS data
           FROM events WHERE stream_id = $1
           GROUP BY metadata->>'command_id'
           ORDER BY first""",
        stream_id,
    )
