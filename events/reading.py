"""Reading events: one stream in version order, every stream in an order that never skips a
late commit (``read_all`` from a ``Checkpoint``), and a stream's summaries (its ruleset,
its commands).

One job: the reads of the ``events`` table.  Apart from events/store.py (issue 17) because
readers take the pool and never write; they share only the row decoding kept here.
"""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Database
from events.envelope import RecordedEvent

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


_HORIZON = """SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
                     aeon_commits_in_flight() AS in_flight"""
_SETTLE_TRIES = 50
_SETTLE_SECONDS = 0.002

_READ_ALL = f"""SELECT {_EVENT_COLUMNS}, transaction_id::text::bigint AS tx FROM events
                WHERE (transaction_id, global_position) > ($1::text::xid8, $2)
                  AND transaction_id < $4::text::xid8
                ORDER BY transaction_id, global_position
                LIMIT $3"""


async def read_all(
    db: Database, after: Checkpoint, *, limit: int = 1000
) -> tuple[list[RecordedEvent], Checkpoint]:
    """Events of every stream after ``after``, never skipping one that commits late.

    Only transactions older than the oldest one still running are read (the horizon,
    ``pg_snapshot_xmin``): their set of events is final.  An event of a transaction that
    is still open is simply not visible yet and sorts after the returned checkpoint,
    because its transaction id is at least that horizon.  Writers never wait on each other.

    The horizon is a statement of its own, taken before the events are read: a
    transaction below it had ended before the read began, so the read sees all of it.
    It must be the horizon of the node whose transaction ids the events carry.  On one
    PostgreSQL that is the only node.  On Citus it is the coordinator: Citus evaluates
    the ``transaction_id`` default (``pg_current_xact_id()``) there, and in one statement
    with the events it would push ``pg_snapshot_xmin`` down to each worker and compare
    the coordinator's ids with a worker's horizon.  A Citus transaction committed in two
    phases is below the coordinator's horizon before its worker has it; while one is in
    flight (``aeon_commits_in_flight``, migration 0016; always false without Citus) the
    reader waits, up to 0.1 s, and otherwise reads nothing this time
    (docs/scale-out.md#the-global-reading-on-citus).
    """
    for _ in range(_SETTLE_TRIES):
        settled = await db.fetchrow(_HORIZON)
        assert settled is not None
        if not settled["in_flight"]:
            break
        await asyncio.sleep(_SETTLE_SECONDS)
    else:
        return [], after  # a two-phase commit still in flight: nothing is final yet
    horizon = settled["horizon"]
    rows = await db.fetch(
        _READ_ALL, str(after.transaction_id), after.global_position, limit, horizon
    )
    if not rows:
        return [], after
    last = rows[-1]
    return [_record(r) for r in rows], Checkpoint(last["tx"], last["global_position"])


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
