"""How a command's write reaches PostgreSQL: one strategy per deployment, chosen once at
start-up from AEON_WRITE_STATEMENT (api/settings.py; ``strategy_for``).

``single`` (``OneStatement``, the default): each write is events/append.py's one
statement.  Writes ready together go in one round trip and one implicit transaction,
whatever encounters they touch: on one PostgreSQL the cheapest way to commit.

``split`` (``SplitStatements``, for Citus): each write is events/append_split.py's few
statements, and a transaction never holds more than one encounter, so that Citus routes
it whole to the encounter's worker and commits it there in one phase
(docs/scale-out.md#one-phase-commit-on-citus).  On one PostgreSQL it costs a round trip
per statement and a transaction per encounter.

Either way a write that is refused writes nothing and leaves the others alone.  When
PostgreSQL refuses one write of a group (an Idempotency-Key another connection committed
first, say), nothing of the group's transaction stands, so each write is tried again on
its own and gets its own outcome.  Any other error (a lost connection) is raised for the
whole group, and nothing is retried: the group may have committed.
"""

from __future__ import annotations

import asyncio
from itertools import groupby
from typing import Literal, Protocol

import asyncpg

from events.append_split import commit_split
from events.db import Connection
from events.write import CommandWrite, Refused, Written, commit, commit_many
from telemetry import metrics

Outcome = Written | Refused
WriteStatement = Literal["single", "split"]
"""AEON_WRITE_STATEMENT: the names of the strategies (``strategy_for``)."""

NOT_WRITTEN = (asyncpg.PostgresError, ValueError)
"""Errors after which nothing of the transaction stands: PostgreSQL refused it, or asyncpg
could not encode an argument (its client-side DataError is a ValueError; it rolls back
what it had sent).  Only then are a group's writes tried again one by one."""


class WriteStrategy(Protocol):
    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        """Write in the caller's transaction, which holds the stream's lock.

        Raises asyncpg.UniqueViolationError when a concurrent request with the same
        Idempotency-Key committed its answer first."""
        ...

    async def write_group(
        self, pool: asyncpg.Pool, writes: list[CommandWrite]
    ) -> list[Outcome | Exception]:
        """Write ``writes`` (sorted by shard and stream) and commit: each one's outcome,
        or the error PostgreSQL refused it alone with.  Raises for the group as a whole
        (a lost connection)."""
        ...


class OneStatement:
    """Each write one statement; a group in one round trip per statement variant."""

    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        return await commit(conn, write)

    async def write_group(
        self, pool: asyncpg.Pool, writes: list[CommandWrite]
    ) -> list[Outcome | Exception]:
        metrics.group_committed(len(writes))
        # Writes with and without rolls or a snapshot go in one statement: its empty parts
        # cost PostgreSQL far less than another round trip and commit.
        every_part = len({(bool(w.rows.rolls), bool(w.snapshots)) for w in writes}) > 1
        by_variant: dict[tuple[bool, bool, bool], list[int]] = {}
        for n, w in enumerate(writes):
            variant = (w.token_id is not None, w.idempotency is not None, w.seed is not None)
            by_variant.setdefault(variant, []).append(n)
        results: dict[int, Outcome | Exception] = {}
        async with pool.acquire() as conn:
            for members in by_variant.values():
                found = await _together(conn, [writes[n] for n in members], every_part)
                results.update(zip(members, found, strict=True))
        return [results[n] for n in range(len(writes))]


async def _together(
    conn: Connection, writes: list[CommandWrite], every_part: bool
) -> list[Outcome | Exception]:
    if len(writes) > 1:
        try:
            return list(await commit_many(conn, writes, every_part=every_part))
        except NOT_WRITTEN:
            pass  # one write's error rolled the group back: each on its own, below
    results: list[Outcome | Exception] = []
    for write in writes:
        try:
            results += await commit_many(conn, [write], every_part=every_part)
        except NOT_WRITTEN as refused:
            results.append(refused)
    return results


class SplitStatements:
    """Each write its routed statements; a group as one transaction per encounter, the
    encounters' transactions at the same time on connections of their own."""

    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        return await commit_split(conn, write)

    async def write_group(
        self, pool: asyncpg.Pool, writes: list[CommandWrite]
    ) -> list[Outcome | Exception]:
        parts = [list(p) for _, p in groupby(writes, key=lambda w: w.append.stream_id)]
        done = await asyncio.gather(*(self._one_encounter(pool, part) for part in parts))
        return [result for part in done for result in part]

    async def _one_encounter(
        self, pool: asyncpg.Pool, writes: list[CommandWrite]
    ) -> list[Outcome | Exception]:
        """One encounter's writes in one transaction; the answers are known only after
        its commit.  A failure of the connection is this encounter's alone."""
        metrics.group_committed(len(writes))
        try:
            async with pool.acquire() as conn:
                try:
                    async with conn.transaction():
                        return [await commit_split(conn, w) for w in writes]
                except NOT_WRITTEN as refused:
                    if len(writes) == 1:
                        return [refused]
                results: list[Outcome | Exception] = []
                for write in writes:
                    try:
                        async with conn.transaction():
                            results.append(await commit_split(conn, write))
                    except NOT_WRITTEN as refused:
                        results.append(refused)
                return results
        except Exception as failed:
            return [failed] * len(writes)


STRATEGIES: dict[WriteStatement, type[OneStatement | SplitStatements]] = {
    "single": OneStatement,
    "split": SplitStatements,
}


def strategy_for(name: WriteStatement) -> WriteStrategy:
    """The strategy AEON_WRITE_STATEMENT names."""
    return STRATEGIES[name]()
