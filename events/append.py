"""Appending to a stream: the events, the stream head and, for a command, everything its
write stores besides (events/write.py), in one statement: one round trip to PostgreSQL.

The statement is a chain of data-modifying CTEs: the guards (the writer's token
unrevoked, the Idempotency-Key unused), the stream row locked at the version the command
was decided on, the shard's count (when the store is read by shard), the head's move, the
events, then the parts a write needs (read models, snapshots, seed, the stored answer).
Every part after the move writes only if the head moved (``WHERE EXISTS (SELECT FROM
moved)``), so the statement writes all of it or nothing.  events/append_split.py runs the
same parts as statements of their own, each routed to one Citus worker.

Why one statement: every round trip costs CPU on both sides (asyncpg and the event loop in
the service; a statement, a wake-up and a commit in PostgreSQL), and a command's write is
seven statements' work: as one, it costs PostgreSQL about 40% less CPU (bench/README.md).

A part it would run empty (no rolls, no snapshot, no new seed, no Idempotency-Key, the
service key's unchecked token) still costs PostgreSQL its plan nodes and parameters on
every execution, so the statement has a variant per set of parts (``Parts``), built once
and cached; asyncpg then prepares it once per connection.  Parameters are named where a
part uses them (``Parameters``) and numbered in order of first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple
from uuid import UUID

import msgspec

from events.db import Connection
from events.envelope import NewEvent, RecordedEvent
from events.errors import StreamNotFound, VersionConflict
from events.heads import StreamHead
from events.prepared import PreparedAppend, head_signature, prepare_append
from events.shards import anchor_of

_json = msgspec.json.Encoder()


class Parameters:
    """A statement's parameters, numbered in order of first use: ``p("stream")`` is the
    placeholder of the value named ``stream`` (``$1`` if it came first)."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __call__(self, name: str) -> str:
        if name not in self.names:
            self.names.append(name)
        return f"${self.names.index(name) + 1}"


class Gate:
    """How a part that writes an encounter's rows names the stream and waits for the move.

    As a CTE of the one statement, a part takes the stream id as a parameter and writes
    only if the CTE ``moved`` has a row.  As a statement of its own (``routed``: the split
    write, after the move), it takes the stream id from the stream's own row, ``streams AS
    m``: Citus pushes an ``INSERT ... SELECT`` down to one shard only when the
    distribution column comes from a co-located table filtered to one value."""

    def __init__(self, p: Parameters, *, routed: bool = False) -> None:
        self._p, self._routed = p, routed
        self.stream = "m.stream_id" if routed else p("stream")

    def source(self, rows: str | None = None) -> str:
        """The FROM and WHERE of a part's SELECT, reading ``rows`` (if any)."""
        if not self._routed:
            tables = f"\n    FROM {rows}" if rows else ""
            return f"{tables}\n    WHERE EXISTS (SELECT FROM moved)"
        tables = f"streams AS m, {rows}" if rows else "streams AS m"
        return f"\n    FROM {tables}\n    WHERE m.stream_id = {self._p('stream')}"


def head_ctes(p: Parameters, *, token: bool, key: bool, wait: bool = False) -> str:
    """The guards, the lock of the stream row, the shard's count and the head's move.

    The count moves only while the store is read by shard (``event_order``, migration
    0024): every writer and reader of a database agrees on that row, and the statement
    is the same in either order.  By transaction the events go unnumbered and nobody
    waits for a count (docs/scale-out.md#the-order-of-every-stream).

    Why this order, and why ``SKIP LOCKED``: the count row is held from here to the
    commit, and a holder of a count must never wait for a stream row, or two writers
    could wait for each other (a group holding shard s's count waiting for a row that a
    locking-path command holds while it waits for that count).  So the stream row is taken
    first and only if nobody holds it: a write whose row is locked by another writer is
    refused, as if the version had moved, and the locking path then queues for the row
    properly.  Groups send their writes in shard order (service/write/group_commit.py), so
    counts are always taken in ascending shard order, and a transaction holding a count
    waits only for a higher count, never for a row: no cycle can form.  A plain append
    (``wait``) may wait for its row: it holds no count yet when it does.  (``locked``
    selects a column it does not need: Citus passes a CTE on as an intermediate result,
    which cannot have none.)"""
    stream, version, new_version = p("stream"), p("version"), p("new_version")
    unrevoked = "true"
    if token:
        unrevoked = f"""EXISTS (SELECT FROM access_tokens
                WHERE encounter_id = {stream} AND token_id = {p("token")}
                AND revoked_at IS NULL)"""
    unused = "true"
    if key:
        unused = f"""NOT EXISTS (SELECT FROM idempotency_keys
                WHERE stream_id = {p("key_stream")} AND key = {p("key")})"""
    return f"""WITH guard AS (
    SELECT {unrevoked} AS token_valid, {unused} AS key_unused
), locked AS (
    SELECT stream_id FROM streams
    WHERE stream_id = {stream} AND version = {version}
          AND (SELECT token_valid AND key_unused FROM guard)
    FOR UPDATE {"" if wait else "SKIP LOCKED"}
), counted AS (
    UPDATE shard_heads SET head = head + ({new_version} - {version})
    WHERE anchor = {p("anchor")} AND EXISTS (SELECT FROM locked)
          AND (SELECT by_shard FROM event_order)
    RETURNING head
), moved AS (
    UPDATE streams
    SET version = {new_version}, last_hash = {p("new_hash")},
        head_signature = {p("head_signature")}
    WHERE stream_id = {stream} AND version = {version} AND EXISTS (SELECT FROM locked)
    RETURNING stream_id
)"""


def insert_events(p: Parameters) -> str:
    """The events, numbered in their shard below the count ``counted`` returned
    (events/shards.py), or unnumbered when the store is read in transaction order.
    They go as one JSON array of rows (``event_rows``), read as jsonb: parsed once,
    where as json every ``e->>k`` parsed its row again."""
    new_version = p("new_version")
    return f"""INSERT INTO events (stream_id, stream_version, type, type_version, data,
                        metadata, recorded_at, prev_hash, hash, shard, shard_position)
    SELECT {p("stream")}, (e->>0)::int, e->>1, (e->>2)::int, (e->>3)::json,
           {p("metadata")}::json, {p("recorded_at")}, e->>4, e->>5, {p("shard")},
           (SELECT head FROM counted) - ({new_version} - (e->>0)::int)
    FROM jsonb_array_elements({p("events")}::jsonb) AS e
    WHERE EXISTS (SELECT FROM moved)
    ORDER BY (e->>0)::int
    RETURNING global_position, stream_version"""


def state(p: Parameters, g: Gate) -> str:
    """The encounter's current state (an upsert): every command writes it."""
    return f"""INSERT INTO encounter_state (encounter_id, ruleset, name, version,
                                 schema_version, state, created_at, updated_at)
    SELECT {g.stream}, {p("ruleset")}, {p("name")}, {p("new_version")},
           {p("schema_version")}, {p("state")}::json, {p("created_at")}, {p("updated_at")}\
{g.source()}
    ON CONFLICT (encounter_id) DO UPDATE
    SET name = EXCLUDED.name, version = EXCLUDED.version,
        schema_version = EXCLUDED.schema_version, state = EXCLUDED.state,
        updated_at = EXCLUDED.updated_at"""


def log(p: Parameters, g: Gate) -> str:
    """The replay log's lines: every command writes some."""
    return f"""INSERT INTO log_entries (encounter_id, version, round, type, text, gm_text,
                             hidden_rolls, gm_only, recorded_at)
    SELECT {g.stream}, (l->>0)::int, (l->>1)::int, l->>2, l->>3, l->>4,
           ARRAY(SELECT jsonb_array_elements_text(l->5)), (l->>6)::boolean,
           (l->>7)::timestamptz{g.source(f"jsonb_array_elements({p('log')}::jsonb) AS l")}"""


def rolls(p: Parameters, g: Gate) -> str:
    """The roll ledger: only for a command that rolled (or a group sharing one statement)."""
    return f"""INSERT INTO roll_ledger (encounter_id, roll_id, version, round, record)
    SELECT {g.stream}, r->>0, (r->>1)::int, (r->>2)::int, (r->>3)::json\
{g.source(f"jsonb_array_elements({p('rolls')}::jsonb) AS r")}"""


def snapshots(p: Parameters, g: Gate) -> str:
    """The snapshots due under the snapshot policy."""
    return f"""INSERT INTO snapshots (stream_id, version, schema_version, state)
    SELECT {g.stream}, (s->>0)::int, (s->>1)::int, (s->>2)::json\
{g.source(f"jsonb_array_elements({p('snapshots')}::jsonb) AS s")}
    ON CONFLICT (stream_id, version) DO UPDATE
    SET schema_version = EXCLUDED.schema_version, state = EXCLUDED.state"""


def seed(p: Parameters, g: Gate) -> str:
    """A new dice epoch's seeds: the public one, and the secret one under ``-epoch``."""
    epoch = p("epoch")
    values = f"""(VALUES ({epoch}::int, {p("seed")}::bytea, {p("commitment")}::text),
                 (-{epoch}::int, {p("secret_seed")}::bytea, {p("secret_commitment")}::text))\
 AS v(e, s, c)"""
    return f"""INSERT INTO dice_seeds (stream_id, epoch, seed, client_seed, commitment)
    SELECT {g.stream}, e, s, {p("client_seed")}, c{g.source(values)}"""


def answer(p: Parameters) -> str:
    """The idempotency record, its answer assembled around the positions just assigned."""
    return f"""INSERT INTO idempotency_keys (stream_id, key, request_hash, response)
    SELECT {p("key_stream")}, {p("key")}, {p("request_hash")},
           convert_to({p("answer_prefix")}
                      || string_agg('{{"global_position":' || a.global_position
                                    || e.tail, ',' ORDER BY e.v)
                      || {p("answer_suffix")}, 'UTF8')
    FROM appended AS a
         JOIN unnest({p("answer_versions")}::int[], {p("answer_tails")}::text[]) AS e(v, tail)
         ON e.v = a.stream_version
    HAVING count(*) > 0"""


class Parts(NamedTuple):
    """Which parts a write's statement has: one cached variant per combination."""

    token: bool = False
    key: bool = False
    read_models: bool = False
    rolls: bool = False
    snapshots: bool = False
    seed: bool = False
    wait: bool = False


class Statement(NamedTuple):
    sql: str
    names: tuple[str, ...]
    """The named value of each parameter, in order."""


@cache
def statement(parts: Parts) -> Statement:
    """The one statement with ``parts``; it returns the guards' verdicts and the global
    positions of the events (none if it wrote nothing)."""
    p = Parameters()
    g = Gate(p)
    head = head_ctes(p, token=parts.token, key=parts.key, wait=parts.wait)
    ctes = [("appended", insert_events(p))]
    if parts.read_models:
        ctes += [("state", state(p, g)), ("log", log(p, g))]
    if parts.rolls:
        ctes.append(("rolls", rolls(p, g)))
    if parts.snapshots:
        ctes.append(("snapshots", snapshots(p, g)))
    if parts.seed:
        ctes.append(("seed", seed(p, g)))
    if parts.key:
        ctes.append(("answer", answer(p)))
    sql = head + "".join(f", {name} AS (\n    {body}\n)" for name, body in ctes)
    sql += """
SELECT (SELECT token_valid FROM guard) AS token_valid,
       (SELECT key_unused FROM guard) AS key_unused,
       array(SELECT global_position FROM appended ORDER BY stream_version) AS positions"""
    return Statement(sql, tuple(p.names))


def event_rows(prepared: PreparedAppend) -> str:
    """The events as one JSON array of rows (version, type, type version, data as JSON
    text, previous hash, hash): one parameter, where an array per column cost asyncpg an
    encoder and several abstract-class checks per column and per element."""
    return _json.encode(list(prepared.rows())).decode()


def append_values(prepared: PreparedAppend, signature: str | None) -> dict[str, Any]:
    """The values of the head's and the events' parameters."""
    shard, anchor = anchor_of(prepared.stream_id)
    new = prepared.new_head
    return {
        "stream": prepared.stream_id,
        "version": prepared.head.version,
        "new_version": new.version,
        "new_hash": new.last_hash,
        "metadata": prepared.metadata_json,
        "recorded_at": prepared.recorded_at,
        "events": event_rows(prepared),
        "shard": shard,
        "anchor": anchor,
        "head_signature": signature,
    }


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
    """Append ``new_events`` after ``head`` inside the caller's transaction: the statement
    without a command's parts.  With ``key`` the new head is signed (events/signing.py).

    The conditional UPDATE of the stream row is the concurrency control: of two writers
    that read the same head, on any process, the second finds the version moved, appends
    nothing and gets VersionConflict; its transaction must then be rolled back by the caller.
    """
    if not new_events:
        return []
    prepared = prepare_append(
        stream_id, head, new_events, metadata=metadata, recorded_at=recorded_at
    )
    sql, names = statement(Parts(wait=True))
    values = append_values(prepared, head_signature(key, prepared))
    row = await conn.fetchrow(sql, *[values[name] for name in names])
    assert row is not None
    if not row["positions"]:
        actual = await conn.fetchval("SELECT version FROM streams WHERE stream_id = $1", stream_id)
        if actual is None:
            raise StreamNotFound(stream_id)
        raise VersionConflict(stream_id, head.version, actual)
    return prepared.recorded(row["positions"])
