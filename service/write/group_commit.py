"""Group commit: writes that become ready while an earlier group is in flight go together,
in one round trip and one transaction.

Why: on a small virtual machine a round trip to PostgreSQL costs more CPU than anything
else a command does.  Measured on the 2-core development machine (bench/README.md), a
9 KB write alone cost about 180 us in asyncpg and the kernel and 250 us in PostgreSQL;
in groups of 16, 40 and 72 us.  With one command the group is just that command, sent at
once, so a lone client waits no longer than before; under load the groups grow by
themselves, since whatever arrives during a round trip waits for the next.

A group changes nothing a command can observe.  Each write is its own execution with its
own guards (stream version, token, Idempotency-Key), so a write that is refused writes
nothing and leaves the others alone, and a later write of the same stream in the group
is refused by the version the earlier one moved.  Every answer waits for the commit that
made its events durable; when the connection fails, every write of the group gets the
error, as each would have alone.  Writes are sent in shard and stream order, so two
groups that touch the same shards and streams take their locks in the same order and
never deadlock.

How the writes of a group reach PostgreSQL is the strategy's (service/write/strategy.py):
one transaction for the lot, or one per encounter for Citus.
"""

from __future__ import annotations

import asyncio
from typing import NamedTuple
from uuid import UUID

import asyncpg

from events.shards import shard_of
from events.write import CommandWrite
from service.write.strategy import Outcome, WriteStrategy


class _Waiting(NamedTuple):
    write: CommandWrite
    answer: asyncio.Future[Outcome]


class GroupCommit:
    def __init__(
        self,
        pool: asyncpg.Pool,
        strategy: WriteStrategy,
        *,
        in_flight: int = 1,
        max_group: int = 64,
    ) -> None:
        """``in_flight`` groups at most are written at a time by this process;
        ``max_group`` writes at most go in one.

        One group in flight makes the next one as large as the load allows: in the
        throughput benchmark (bench/README.md) it cost both the worker and PostgreSQL
        less per command than two, at 8 clients (6-10% more commands/s, lower latency)
        and at 32 (2-4%); with the store read by transaction, where no group waits for
        another's count, two measured the same as one.  The price, in shard order
        (Citus), is that a group that waits (for a shard's count, held by another writer
        of that shard until it commits) holds up the process's other writes until it is
        through.  It never waits for a stream row: the statement skips a locked one and
        refuses that write (events/append.py).
        """
        self._pool = pool
        self._strategy = strategy
        self._slots = asyncio.Semaphore(in_flight)
        self._max_group = max_group
        self._waiting: list[_Waiting] = []
        self._drain_scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def commit(self, write: CommandWrite) -> Outcome:
        """Write ``write`` with the next group, outside any transaction of the caller's."""
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
        if not group:
            return
        in_order = sorted(group, key=_shard_and_stream)
        try:
            results = await self._strategy.write_group(self._pool, [w.write for w in in_order])
        except BaseException as exc:
            for waiting in in_order:
                _settle(waiting.answer, exc)
            if not isinstance(exc, Exception):
                raise
            return
        for waiting, result in zip(in_order, results, strict=True):
            _settle(waiting.answer, result)


def _shard_and_stream(waiting: _Waiting) -> tuple[int, UUID]:
    """The order writes go in: by shard, so that a group takes the count rows
    (events/append.py's ``head_ctes``) in ascending order when the store is read by
    shard, then by stream.  A write takes its stream row before its count, but only if
    nobody holds it, so with counts in one order two groups never deadlock."""
    stream_id = waiting.write.append.stream_id
    return shard_of(stream_id), stream_id


def _settle(answer: asyncio.Future[Outcome], result: Outcome | BaseException) -> None:
    if answer.done():
        return
    if isinstance(result, asyncio.CancelledError):
        answer.cancel()
    elif isinstance(result, BaseException):
        answer.set_exception(result)
    else:
        answer.set_result(result)
