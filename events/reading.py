"""Reading events: one stream in version order, every stream by shard in an order that
never skips a late commit (``read_all`` from a ``Checkpoint``), and a stream's summaries
(its ruleset, its commands).

One job: the reads of the ``events`` table.  Apart from the rest of
the store because readers take the pool and never write; they share only the row decoding kept here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Database
from events.envelope import RecordedEvent
from events.kinds import CAMPAIGN_FIRST, CAMPAIGN_TAG_PREFIX
from events.shards import SHARDS

_decode_dict = msgspec.json.Decoder(dict[str, Any])

_EVENT_COLUMNS = (
    "global_position, stream_id, stream_version, type, type_version, data, metadata,"
    " recorded_at, prev_hash, hash"
)


class Checkpoint(msgspec.Struct, frozen=True):
    """Where a reader of all streams stands, in the order the store is read in
    (docs/scale-out.md#the-order-of-every-stream).

    In shard order, ``shards``: the last place read in each shard, ``SHARDS`` of them,
    shard 0 first.  In transaction order, ``transaction``: the last (transaction id,
    global position) read.  A reader starts in shard order and goes on in transaction
    order once it has read every place (``read_all_steps``), so that a store that moved
    from one order to the other is read whole, each event once."""

    shards: tuple[int, ...] = (0,) * SHARDS
    transaction: tuple[int, int] | None = None

    def past(self, places: dict[int, int]) -> Checkpoint:
        """This checkpoint moved to ``places`` (shard: place) in the shards it names."""
        return Checkpoint(tuple(places.get(i, at) for i, at in enumerate(self.shards)))

    def stored(self) -> list[int]:
        """As a ``bigint[]`` column holds it: the pair in transaction order, else the
        places, or none while every shard is at its start."""
        if self.transaction is not None:
            return list(self.transaction)
        return list(self.shards) if any(self.shards) else []

    @classmethod
    def from_stored(cls, values: Sequence[int]) -> Checkpoint:
        """The checkpoint ``stored`` gave ``values``."""
        if len(values) == 2:
            return cls(transaction=(values[0], values[1]))
        return cls(tuple(values)) if values else cls()


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


_HEADS = "SELECT (SELECT by_shard FROM event_order) AS by_shard, shard, head FROM shard_heads"


def _read_shard(columns: str) -> str:
    return f"""SELECT {columns}, shard, shard_position FROM events
               WHERE shard = $1 AND shard_position > $2
               ORDER BY shard_position LIMIT $3"""


def _read_transactions(columns: str) -> str:
    """Events written in transaction order after ($1, $2), up to $3 of them.  The
    horizon is the oldest transaction still running when the statement's snapshot was
    taken: every transaction below it had ended by then, so the snapshot holds all of
    its events (or none, if it rolled back), and nothing can commit below it later."""
    return f"""SELECT {columns}, transaction_id::text::bigint AS tx FROM events
               WHERE shard_position IS NULL
                 AND (transaction_id, global_position) > ($1::text::xid8, $2)
                 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
               ORDER BY transaction_id, global_position LIMIT $3"""


def _moved_in(batch: str, last: str) -> str:
    """A batch folded to one row per encounter it moved, with where it ends (``last``:
    the row of the batch read last)."""
    return f"""WITH batch AS (
    {batch}
), moved AS (
    SELECT stream_id, max(stream_version) AS version FROM batch
    WHERE type NOT LIKE '{CAMPAIGN_TAG_PREFIX}%' GROUP BY stream_id
), last AS (
    SELECT * FROM batch ORDER BY {last} LIMIT 1
)
SELECT (SELECT count(*) FROM batch) AS read,
       (SELECT shard_position FROM last) AS upto,
       (SELECT array[tx, global_position] FROM last) AS transaction,
       array_agg(stream_id ORDER BY stream_id) AS streams,
       array_agg(version ORDER BY stream_id) AS versions
FROM moved"""


_READ_SHARD = _read_shard(_EVENT_COLUMNS)
_READ_TRANSACTIONS = _read_transactions(_EVENT_COLUMNS)
_FOLDED = "stream_id, stream_version, type, global_position"
_MOVED_IN_SHARD = _moved_in(_read_shard(f"{_FOLDED}, NULL::bigint AS tx"), "shard_position DESC")
_MOVED_IN_TRANSACTIONS = _moved_in(
    _read_transactions(f"{_FOLDED}, NULL::bigint AS shard, NULL::bigint AS shard_position"),
    "tx DESC, global_position DESC",
)
_FIRST_TRANSACTION = (0, 0)
"""Where a reader goes on in transaction order once it has read every place by shard."""


async def read_all(
    db: Database, after: Checkpoint, *, limit: int = 1000
) -> tuple[list[RecordedEvent], Checkpoint]:
    """Up to ``limit`` events of every stream after ``after``, never skipping one that
    commits late, and the checkpoint past them (``read_all_steps``)."""
    steps = await read_all_steps(db, after, limit=limit)
    return [event for event, _ in steps], steps[-1][1] if steps else after


async def read_all_steps(
    db: Database, after: Checkpoint, *, limit: int = 1000
) -> list[tuple[RecordedEvent, Checkpoint]]:
    """Up to ``limit`` events of every stream after ``after``, each with the checkpoint
    just past it, for a reader that moves its checkpoint event by event.

    A checkpoint in shard order is read by shard (``_in_order``) while any shard's count
    is past it; once none is and the store is read in transaction order, the reading goes
    on from the start of that order, which holds every event written since."""
    if after.transaction is None:
        rest = await _shards_behind(db, _READ_SHARD, after, limit)
        if rest is not None:
            return [(_record(row), at) for row, at in _in_order(rest[1], after, limit)]
    tx, position = after.transaction or _FIRST_TRANSACTION
    rows = await db.fetch(_READ_TRANSACTIONS, str(tx), position, limit)
    return [(_record(r), Checkpoint(transaction=(r["tx"], r["global_position"]))) for r in rows]


class Moved(msgspec.Struct, frozen=True):
    """Which encounters a batch of every stream's events moved, and to what version."""

    encounters: dict[UUID, int]
    """Each encounter with events in the batch: the last version the batch holds."""
    read: int
    """How many events the batch held, campaigns' included."""
    past: Checkpoint
    """The checkpoint just past the batch."""


async def moved_streams(db: Database, after: Checkpoint, *, limit: int = 1000) -> Moved:
    """The encounters up to about ``limit`` events after ``after`` moved, for a reader
    that only asks which streams moved and how far (the carry-over process manager).

    PostgreSQL folds the batch to a row per encounter, so a batch costs the reader a row
    per encounter it moved rather than a row per event: under load that reader followed
    every command's events.  The batch is what ``read_all_steps`` would read, except that
    in shard order each shard whose count moved past the checkpoint is read up to an equal
    share of ``limit``; campaigns' events count as read but name no encounter."""
    if after.transaction is None:
        rest = await _shards_behind(db, _MOVED_IN_SHARD, after, limit)
        if rest is not None:
            encounters: dict[UUID, int] = {}
            places: dict[int, int] = {}
            read = 0
            for shard, row in zip(*rest, strict=True):
                if not row["read"]:
                    continue
                read += row["read"]
                places[shard] = row["upto"]
                encounters.update(_folded(row))
            return Moved(encounters, read, after.past(places))
    tx, position = after.transaction or _FIRST_TRANSACTION
    batch = await db.fetchrow(_MOVED_IN_TRANSACTIONS, str(tx), position, limit)
    assert batch is not None
    if not batch["read"]:
        return Moved({}, 0, Checkpoint(transaction=(tx, position)))
    last_tx, last_position = batch["transaction"]
    return Moved(_folded(batch), batch["read"], Checkpoint(transaction=(last_tx, last_position)))


def _folded(row: asyncpg.Record) -> dict[UUID, int]:
    return dict(zip(row["streams"] or (), row["versions"] or (), strict=True))


async def _shards_behind(
    db: Database, query: str, after: Checkpoint, limit: int
) -> tuple[list[int], list[asyncpg.Record]] | None:
    """The shards whose count moved past ``after``, in ascending order, and ``query`` run
    for each from its place on, in one round trip, with an equal share of ``limit`` (its
    rows in the order of those shards); None when no shard is behind and the store is
    read in transaction order, where the reading goes on."""
    heads = await db.fetch(_HEADS)
    behind = sorted(r["shard"] for r in heads if r["head"] > after.shards[r["shard"]])
    if not behind:
        return ([], []) if heads[0]["by_shard"] else None
    each = -(-limit // len(behind))
    return behind, await db.fetchmany(query, [(s, after.shards[s], each) for s in behind])


def _in_order(
    rows: list[asyncpg.Record], after: Checkpoint, limit: int
) -> list[tuple[asyncpg.Record, Checkpoint]]:
    """Up to ``limit`` of ``rows`` (a ``_read_shard`` of the shards behind ``after``,
    shard by shard), each with the checkpoint just past it.

    Each shard is read in the order of its places, which its count row's lock made the
    order its writers committed in: once a reader sees a place, every lower one of that
    shard has committed (a count that rolls back takes its places with it, and a write
    counts only once it holds its stream row, so the places are dense; nothing here relies
    on that).  Only shards whose count moved past the checkpoint are read, in one
    round trip, sharing the limit; the events come a place of each shard at a time, so a
    busy shard does not hold back the others.  A stream's events are in one shard, so
    they come in version order.
    """
    ranked: list[tuple[int, int, asyncpg.Record]] = []
    rank = 0
    for i, row in enumerate(rows):
        rank = 0 if i == 0 or rows[i - 1]["shard"] != row["shard"] else rank + 1
        ranked.append((rank, row["shard"], row))
    steps: list[tuple[asyncpg.Record, Checkpoint]] = []
    places = list(after.shards)
    for _, shard, row in sorted(ranked, key=lambda r: (r[0], r[1]))[:limit]:
        places[shard] = row["shard_position"]
        steps.append((row, Checkpoint(tuple(places))))
    return steps


_NOW = """SELECT (SELECT by_shard FROM event_order) AS by_shard,
                 (SELECT array_agg(head ORDER BY shard) FROM shard_heads) AS heads,
                 pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS horizon"""


async def checkpoint_now(db: Database) -> Checkpoint:
    """A checkpoint every event still to commit is after.  In shard order every event
    committed so far is at or before it: each shard's committed count (a writer still
    holding a count has not committed its places, and they are above it).  In transaction
    order it is just below the oldest transaction still running, so the events of a
    transaction that began before it and committed already are after it too."""
    now = await db.fetchrow(_NOW)
    assert now is not None
    if now["by_shard"]:
        return Checkpoint(tuple(now["heads"]))
    return Checkpoint(transaction=(now["horizon"] - 1, _LAST_POSITION))


_LAST_POSITION = 2**63 - 1
"""Above every global position (a bigint)."""


async def stream_ruleset(db: Database, stream_id: UUID) -> str | None:
    """The ruleset the stream's first event (the encounter's creation) names; None if the
    stream has no events or is not an encounter's: every reader that decodes by ruleset
    starts here, so a campaign's id is, to all of them, no encounter at all."""
    name = await db.fetchval(
        "SELECT data->>'ruleset' FROM events"
        " WHERE stream_id = $1 AND stream_version = 1 AND type <> $2",
        stream_id,
        CAMPAIGN_FIRST,
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
