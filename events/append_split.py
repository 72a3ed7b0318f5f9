"""A command's write as a short sequence of single-shard statements, for Citus
(AEON_WRITE_STATEMENT=split; docs/scale-out.md#one-phase-commit-on-citus).

Why: Citus 13 plans no data-modifying CTE that INSERTs as a router query, so the one
statement of events/append.py becomes subplans whose intermediate results Citus sends to
every worker, and an ``INSERT ... SELECT`` it collects on the coordinator; both make it
commit in two phases.  Every statement here names one encounter, so Citus routes it
whole to the shard group of that encounter (the stream, its count row, its events and
read models), and a transaction made only of them commits in one phase on that worker.
On one PostgreSQL it costs a round trip per statement, which is why it is opt-in.

The statements, in one transaction, with the guarantees of the single statement:

1. the guards, the shard's count and the stream head's move: the single statement's
   own first CTEs (``head_ctes``), with their lock order.  If the head did not move,
   nothing was written and the write is refused for the same reasons.
2. the events, as ``INSERT ... VALUES`` with their places below the count statement 1
   returned (a VALUES insert is routed whole; the coordinator fills in the global position
   and the transaction id, as it does for the single statement).
3. the read models, snapshots and seed: the single statement's parts, each routed by the
   stream's own row (``Gate(routed=True)``).
4. the idempotency record: the answer ``Written.response`` is, so byte-identical.

Statement 1 decides: the later ones run only after it moved the head, so they need no
condition of their own, only the encounter's row to be routed by.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from events.append import (
    Gate,
    Parameters,
    Statement,
    head_ctes,
    log,
    rolls,
    seed,
    snapshots,
    state,
)
from events.db import Connection
from events.prepared import PreparedAppend
from events.shards import shard_of
from events.write import CommandWrite, Refused, Written, write_values

_ANSWER = """INSERT INTO idempotency_keys (stream_id, key, request_hash, response)
VALUES ($1, $2, $3, $4)"""
_FIELDS = ("version", "type", "type_version", "data", "prev_hash", "hash", "position")
"""An event's values in the VALUES insert, each named with the event's index."""


@cache
def first(*, token: bool, key: bool) -> Statement:
    """Statement 1: the guards, the count and the move, and what became of them."""
    p = Parameters()
    sql = (
        head_ctes(p, token=token, key=key)
        + """
SELECT (SELECT token_valid FROM guard) AS token_valid,
       (SELECT key_unused FROM guard) AS key_unused,
       (SELECT head FROM counted) AS head,
       EXISTS (SELECT FROM moved) AS moved"""
    )
    return Statement(sql, tuple(p.names))


@cache
def events_values(count: int) -> Statement:
    """Statement 2: the events, one VALUES row each (``event_values``)."""
    p = Parameters()
    shared = p("stream"), p("metadata"), p("recorded_at"), p("shard")
    rows = []
    for n in range(count):
        v = [p(f"{field}{n}") for field in _FIELDS]
        rows.append(
            f"({shared[0]}, {v[0]}, {v[1]}, {v[2]}, {v[3]}::json, {shared[1]}::json,"
            f" {shared[2]}, {v[4]}, {v[5]}, {shared[3]}, {v[6]})"
        )
    joined = ",\n       ".join(rows)
    sql = f"""INSERT INTO events (stream_id, stream_version, type, type_version, data,
                    metadata, recorded_at, prev_hash, hash, shard, shard_position)
VALUES {joined}
RETURNING global_position, stream_version"""
    return Statement(sql, tuple(p.names))


def event_values(prepared: PreparedAppend, head: int | None) -> dict[str, Any]:
    """The values of ``events_values``: each event is numbered in its shard below
    ``head``, the shard's count after these events (as the single statement numbers
    them below ``counted``), or left unnumbered without one (the store is read in
    transaction order)."""
    last = prepared.new_head.version
    values: dict[str, Any] = {
        "stream": prepared.stream_id,
        "metadata": prepared.metadata_json,
        "recorded_at": prepared.recorded_at,
        "shard": shard_of(prepared.stream_id),
    }
    for n, row in enumerate(prepared.rows()):
        values.update(
            zip(
                (f"{f}{n}" for f in _FIELDS),
                (*row, None if head is None else head - (last - row[0])),
                strict=True,
            )
        )
    return values


Part = Callable[[Parameters, Gate], str]


@cache
def routed(part: Part) -> Statement:
    """Statement 3: ``part`` of the single statement as a statement of its own."""
    p = Parameters()
    return Statement(part(p, Gate(p, routed=True)), tuple(p.names))


def _arguments(statement: Statement, values: dict[str, Any]) -> list[Any]:
    return [values[name] for name in statement.names]


async def commit_split(conn: Connection, write: CommandWrite) -> Written | Refused:
    """Write ``write`` as the statements above on ``conn``, which must be in a
    transaction: a refusal writes nothing, and an error leaves the transaction to be
    rolled back by its owner.

    Raises asyncpg.UniqueViolationError when a concurrent request with the same
    Idempotency-Key committed its answer first, as events.append.commit does."""
    values = write_values(write)
    head = first(token=write.token_id is not None, key=write.idempotency is not None)
    moved = await conn.fetchrow(head.sql, *_arguments(head, values))
    assert moved is not None
    if not moved["moved"]:
        return Refused(token_revoked=not moved["token_valid"], key_used=not moved["key_unused"])
    inserted = events_values(len(write.append.versions))
    rows = await conn.fetch(
        inserted.sql, *_arguments(inserted, event_values(write.append, moved["head"]))
    )
    positions = [r["global_position"] for r in sorted(rows, key=lambda r: r["stream_version"])]
    parts: list[Part] = [state, log]
    parts += [rolls] if write.rows.rolls else []
    parts += [snapshots] if write.snapshots else []
    parts += [seed] if write.seed is not None else []
    for part in parts:
        statement = routed(part)
        await conn.execute(statement.sql, *_arguments(statement, values))
    written = Written(write.append.recorded(positions), write.answer.with_positions(positions))
    if write.idempotency is not None:
        idem = write.idempotency
        await conn.execute(_ANSWER, idem.namespace, idem.key, idem.request_hash, written.response)
    return written
