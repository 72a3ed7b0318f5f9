"""A command's write as a short sequence of single-shard statements, for Citus
(AEON_WRITE_STATEMENT=split; docs/scale-out.md#one-phase-commit-on-citus).

Why: Citus 13 plans no data-modifying CTE that INSERTs as a router query, so the one
statement of service/commit.py becomes subplans whose intermediate results Citus sends to
every worker, and an ``INSERT ... SELECT`` it collects on the coordinator; both make it
commit in two phases.  Every statement here names one encounter, so Citus routes it
whole to the shard group of that encounter (the stream, its count row, its events and
read models), and a transaction made only of them commits in one phase on that worker.
On one PostgreSQL it costs a round trip per statement, which is why it is opt-in.

The statements, in one transaction, with the guarantees of the single statement:

1. the guards, the shard's count and the stream head's move: service/commit.py's own CTEs
   (``GUARDED_MOVE``), with their lock order.  If the head did not move, nothing was
   written and the write is refused for the same reasons.
2. the events, as ``INSERT ... VALUES`` with their places below the count statement 1
   returned (a VALUES insert is routed whole; the coordinator fills in the global position
   and the transaction id, as it does for the single statement).
3. the read models, snapshots and seed: the very parts the single statement joins as CTEs,
   each made a statement of its own by ``router_form``.
4. the idempotency record: the answer ``Written.response`` is, so byte-identical.

Statement 1 decides: the later ones run only after it moved the head, so they need no
condition of their own, only the encounter's row to be routed by.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Literal

from events.db import Connection
from events.store import append_arguments, insert_events_values, values_arguments
from service.commit import (
    GUARDED_MOVE,
    SEED,
    SNAPSHOTS,
    CommandWrite,
    Refused,
    Written,
    guarded_move,
    named_values,
)

WriteStatement = Literal["single", "split"]
"""``single``, the one statement of service/commit.py (the default: one round trip);
``split``, this module's statements (one phase on Citus).  The service's settings choose
(AEON_WRITE_STATEMENT, api/settings.py)."""

Key = int | str
"""A parameter of a statement here: an index into ``append_arguments`` or a part's name."""

_FIRST = (
    GUARDED_MOVE
    + """
SELECT (SELECT token_valid FROM guard) AS token_valid,
       (SELECT key_unused FROM guard) AS key_unused,
       (SELECT head FROM counted) AS head,
       EXISTS (SELECT FROM moved) AS moved"""
)
_ANSWER = """INSERT INTO idempotency_keys (stream_id, key, request_hash, response)
VALUES ($1, $2, $3, $4)"""
_CTE = re.compile(r", (\w+) AS \(\n(.*?)\n\)(?=, \w+ AS \(\n|$)", re.S)
_PARAMETER = re.compile(r"\$(\d+)|@([a-z_]+)")
_GATE = "WHERE EXISTS (SELECT FROM moved)"
_STREAM = "SELECT $1,"


def router_form(part: str) -> list[str]:
    """The statements that write what ``part`` (CTEs after the single statement's
    ``moved``: projections/statement.py's conventions) writes, each routed to the stream's
    shard: the stream id is taken from the stream's own row, ``streams AS m``, instead of
    ``$1``, because Citus pushes an ``INSERT ... SELECT`` down to one shard only when the
    distribution column comes from a co-located table filtered to one value.  Without
    that it collects the rows on the coordinator and commits in two phases.

    Raises ValueError for a part that does not follow the conventions, so that a new part
    fails loudly in the tests rather than writing unconditionally."""
    statements = []
    for match in _CTE.finditer(part):
        body = match[2]
        if body.count(_GATE) != 1 or body.count(_STREAM) != 1:
            raise ValueError(f"part {match[1]!r}: expected one {_STREAM!r} and one {_GATE!r}")
        body = body.replace(_STREAM, "SELECT m.stream_id,")
        head, tail = body.split(_GATE)
        if "\n    FROM " in head:
            head = head.replace("\n    FROM ", "\n    FROM streams AS m, ", 1)
            gate = "WHERE m.stream_id = $1"
        else:
            gate = "FROM streams AS m WHERE m.stream_id = $1"
        statements.append(head + gate + tail)
    if not statements or "".join(m[0] for m in _CTE.finditer(part)) != part:
        raise ValueError(f"not a list of CTEs: {part[:60]!r}")
    return statements


def numbered(sql: str) -> tuple[str, tuple[Key, ...]]:
    """``sql`` with its parameters (``$n`` of ``append_arguments``, ``@name`` of the
    parts) numbered $1, $2, ... in order of first use, and what each one is."""
    keys: list[Key] = []

    def number(match: re.Match[str]) -> str:
        key: Key = int(match[1]) if match[1] else match[2]
        if key not in keys:
            keys.append(key)
        return f"${keys.index(key) + 1}"

    return _PARAMETER.sub(number, sql), tuple(keys)


@cache
def _first(token: bool, key: bool) -> tuple[str, tuple[Key, ...]]:
    return numbered(guarded_move(_FIRST, token=token, key=key))


@cache
def _parts(projection: str, snapshots: bool, seed: bool) -> tuple[tuple[str, tuple[Key, ...]], ...]:
    part = projection + (SNAPSHOTS if snapshots else "") + (SEED if seed else "")
    return tuple(numbered(s) for s in router_form(part))


def _arguments(
    keys: tuple[Key, ...], by_index: tuple[Any, ...], by_name: dict[str, Any]
) -> list[Any]:
    return [by_index[k - 1] if isinstance(k, int) else by_name.get(k) for k in keys]


async def commit_split(conn: Connection, write: CommandWrite) -> Written | Refused:
    """Write ``write`` as the statements above on ``conn``, which must be in a
    transaction: a refusal writes nothing, and an error leaves the transaction to be
    rolled back by its owner.

    Raises asyncpg.UniqueViolationError when a concurrent request with the same
    Idempotency-Key committed its answer first, as service.commit.commit does."""
    by_index = append_arguments(write.append)
    by_name = named_values(write)
    sql, keys = _first(token=write.token_id is not None, key=write.idempotency is not None)
    first = await conn.fetchrow(sql, *_arguments(keys, by_index, by_name))
    assert first is not None
    if not first["moved"]:
        return Refused(token_revoked=not first["token_valid"], key_used=not first["key_unused"])
    events = insert_events_values(len(write.append.versions))
    rows = await conn.fetch(events, *values_arguments(write.append, first["head"]))
    positions = [r["global_position"] for r in sorted(rows, key=lambda r: r["stream_version"])]
    parts = _parts(write.rows.statement_part(False), bool(write.snapshots), write.seed is not None)
    for sql, keys in parts:
        await conn.execute(sql, *_arguments(keys, by_index, by_name))
    written = Written(write.append.recorded(positions), write.answer.with_positions(positions))
    if write.idempotency is not None:
        idem = write.idempotency
        await conn.execute(_ANSWER, idem.namespace, idem.key, idem.request_hash, written.response)
    return written
