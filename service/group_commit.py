"""Group commit: writes that become ready while an earlier group is in flight go together,
in one round trip and one transaction.

Why: on a small virtual machine a round trip to PostgreSQL costs more CPU than anything
else a command does.  Measured on the 2-core development machine (bench/README.md), a
9 KB write alone cost about 180 us in asyncpg and the kernel and 250 us in PostgreSQL;
in groups of 16, 40 and 72 us.  With one command the group is just that command, sent at
once, so a lone client waits no longer than before; under load the groups grow by
themselves, since whatever arrives during a round trip waits for the next.

A group changes nothing a command can observe.  Each write is its own execution of its
own statement with its own guards (stream version, token, Idempotency-Key), so a write
that is refused writes nothing and leaves the others alone, and a later write of the same
stream in the group is refused by the version the earlier one moved.  The group commits
once, and every answer waits for the commit that made its events durable.  When the
group fails as a whole because PostgreSQL refused one write (an Idempotency-Key another
connection committed first, say), each write is tried again on its own, so every command
gets its own outcome; when the connection fails, every write of the group gets the error,
as each would have alone, and none is retried (the group may have committed).  Writes
are sent in shard and stream order, so two groups that touch the same shards and streams
take their locks in the same order and never deadlock.

``per_encounter`` (AEON_GROUP_COMMIT=per-encounter) keeps every transaction to one
encounter: a group is split by stream and each part commits in a transaction of its own,
the parts at the same time on connections of their own.  For Citus: a transaction that
writes one encounter writes one shard group, where a group of several encounters writes
shards on several workers (docs/scale-out.md#group-commit-on-citus says what that gains
with today's statement).  On one PostgreSQL the default groups are cheaper: one round
trip and one commit for the lot.

``split`` (AEON_WRITE_STATEMENT=split) writes each command as events/append_split.py's
statements, in transactions of one encounter as with ``per_encounter`` (which it implies:
only then is each transaction one shard group's, which Citus commits in one phase).
"""

from __future__ import annotations

import asyncio
from itertools import groupby
from typing import Any, Literal, NamedTuple
from uuid import UUID

import asyncpg

from events.append import bound, outcome
from events.append_split import commit_split
from events.shards import shard_of
from events.write import CommandWrite, Refused, Written
from telemetry import metrics

Outcome = Written | Refused
WriteStatement = Literal["single", "split"]
"""``single``, the one statement of events/append.py (the default: one round trip);
``split``, the statements of events/append_split.py (one phase on Citus)."""
Mode = Literal["on", "per-encounter"]
"""AEON_GROUP_COMMIT: ``on`` groups whatever is ready together; ``per-encounter`` never
puts two encounters in one transaction."""

_NOT_WRITTEN = (asyncpg.PostgresError, ValueError)
"""Errors after which nothing of the group's transaction stands: PostgreSQL refused it, or
asyncpg could not encode an argument (its client-side DataError is a ValueError; it rolls
back what it had sent).  Only then are a group's writes tried again one by one; after any
other error (a lost connection) the group may have committed, and a retry could apply a
command twice."""


class _Waiting(NamedTuple):
    write: CommandWrite
    answer: asyncio.Future[Outcome]


class _Bound(NamedTuple):
    arguments: list[Any]
    write: CommandWrite
    answer: asyncio.Future[Outcome]


class GroupCommit:
    def __init__(
        self,
        pool: asyncpg.Pool,
        *,
        in_flight: int = 1,
        max_group: int = 64,
        per_encounter: bool = False,
        split: bool = False,
    ) -> None:
        """``in_flight`` groups at most are written at a time by this process (each on its
        own pooled connection, or one per encounter with ``per_encounter``); ``max_group``
        writes at most go in one.

        One group in flight makes the next one as large as the load allows: in the
        throughput benchmark (bench/README.md) it cost both the worker and PostgreSQL
        less per command than two, at 8 clients (6-10% more commands/s, lower latency)
        and at 32 (2-4%).  The price is that a group that waits (for a shard's count,
        held by another writer of that shard until it commits) holds up the process's
        other writes until it is through.  It never waits for a stream row: the
        statement skips a locked one and refuses that write (events/append.py).
        """
        self._pool = pool
        self._slots = asyncio.Semaphore(in_flight)
        self._max_group = max_group
        self._per_encounter = per_encounter or split
        self._split = split
        self._waiting: list[_Waiting] = []
        self._drain_scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def commit(self, write: CommandWrite) -> Outcome:
        """Write ``write`` with the next group; as ``events.append.commit`` outside a
        transaction, which it replaces for the pipeline's common path."""
        answer: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._waiting.append(_Waiting(write, answer))
        self._schedule()
        return await answer

    def _schedule(self) -> None:
        if self._drain_scheduled or not self._waiting:
            return
        self._drain_scheduled = True
        task = asyncio.get_running_loop().create_task(self._drain())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _drain(self) -> None:
        async with self._slots:
            self._drain_scheduled = False
            group = self._waiting[: self._max_group]
            del self._waiting[: self._max_group]
            self._schedule()
            # A request cancelled while it waited is not written: nobody would hear of it.
            await self._write([w for w in group if not w.answer.done()])

    async def _write(self, group: list[_Waiting]) -> None:
        in_order = sorted(group, key=_shard_and_stream)
        if not self._per_encounter:
            await self._write_together(in_order)
            return
        parts = [list(p) for _, p in groupby(in_order, key=lambda w: w.write.append.stream_id)]
        await asyncio.gather(*(self._write_together(part) for part in parts))

    async def _write_together(self, in_order: list[_Waiting]) -> None:
        """Write ``in_order`` (sorted by shard and stream) in one transaction, settling
        every answer."""
        metrics.group_committed(len(in_order))
        if self._split:
            await self._write_split(in_order)
            return
        # Writes with and without rolls or a snapshot go in one statement: its empty parts
        # cost PostgreSQL far less than another round trip and commit.
        parts = {(bool(w.write.rows.rolls), bool(w.write.snapshots)) for w in in_order}
        by_statement = _by_statement(in_order, every_part=len(parts) > 1)
        try:
            async with self._pool.acquire() as conn:
                for sql, members in by_statement.items():
                    await _write_statement(conn, sql, members)
        except BaseException as exc:
            for waiting in in_order:
                _settle(waiting.answer, exc)
            if not isinstance(exc, Exception):
                raise

    async def _write_split(self, in_order: list[_Waiting]) -> None:
        """As ``_write_together``, each write as its statements; the answers are settled
        after the commit.  When PostgreSQL refuses one write, the transaction is gone, so
        each write is tried again in a transaction of its own."""
        try:
            async with self._pool.acquire() as conn:
                try:
                    async with conn.transaction():
                        outcomes = [await commit_split(conn, w.write) for w in in_order]
                except _NOT_WRITTEN as refused:
                    if len(in_order) == 1:
                        _settle(in_order[0].answer, refused)
                        return
                else:
                    for waiting, result in zip(in_order, outcomes, strict=True):
                        _settle(waiting.answer, result)
                    return
                for waiting in in_order:
                    try:
                        async with conn.transaction():
                            alone = await commit_split(conn, waiting.write)
                    except _NOT_WRITTEN as refused:
                        _settle(waiting.answer, refused)
                    else:
                        _settle(waiting.answer, alone)
        except BaseException as exc:
            for waiting in in_order:
                _settle(waiting.answer, exc)
            if not isinstance(exc, Exception):
                raise


def _shard_and_stream(waiting: _Waiting) -> tuple[int, UUID]:
    """The order writes go in: by shard, so that a group takes the count rows
    (events/append.py's COUNT_POSITIONS) in ascending order, then by stream.  A write takes
    its stream row before its count, but only if nobody holds it, so with counts in one
    order two groups never deadlock."""
    stream_id = waiting.write.append.stream_id
    return shard_of(stream_id), stream_id


def _by_statement(group: list[_Waiting], *, every_part: bool) -> dict[str, list[_Bound]]:
    by_statement: dict[str, list[_Bound]] = {}
    for waiting in group:
        sql, arguments = bound(waiting.write, every_part=every_part)
        by_statement.setdefault(sql, []).append(_Bound(arguments, *waiting))
    return by_statement


async def _write_statement(
    conn: asyncpg.pool.PoolConnectionProxy[asyncpg.Record], sql: str, members: list[_Bound]
) -> None:
    if len(members) > 1:
        try:
            rows = await conn.fetchmany(sql, [m.arguments for m in members])
        except _NOT_WRITTEN:
            pass  # one write's error rolled the group back: each on its own, below
        else:
            for member, row in zip(members, rows, strict=True):
                _settle(member.answer, outcome(member.write, row))
            return
    for member in members:
        try:
            alone = await conn.fetchrow(sql, *member.arguments)
        except _NOT_WRITTEN as refused:
            _settle(member.answer, refused)
        else:
            assert alone is not None
            _settle(member.answer, outcome(member.write, alone))


def _settle(answer: asyncio.Future[Outcome], result: Outcome | BaseException) -> None:
    if answer.done():
        return
    if isinstance(result, asyncio.CancelledError):
        answer.cancel()
    elif isinstance(result, BaseException):
        answer.set_exception(result)
    else:
        answer.set_result(result)
