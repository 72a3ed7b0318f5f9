"""Pools on the streaming replicas, and the choice of one that has replayed an
encounter far enough (the routing rule is api/http/read_routing.py's).

The replica's own ``streams`` row says how far it has replayed that encounter: one
primary-key read on the replica, nothing asked of the primary, and the number compared is
the very version the client holds (comparing ``pg_last_wal_replay_lsn()`` with the LSN of
the client's write would need that LSN carried back to the client).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from uuid import UUID

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from events.db import Connection, Database
from events.errors import StreamNotFound
from events.heads import stream_head

log = logging.getLogger("aeon_ledger")


class ReadFrom:
    """Where a read runs: the primary's pool, or one replica connection held for the read.

    A plain class rather than a union of the two: Litestar resolves the routes'
    annotations at run time, and its signature models take no union of classes.
    """

    __slots__ = ("db", "replica")

    def __init__(self, db: Database, *, replica: bool) -> None:
        self.db = db
        self.replica = replica

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """One connection, for a transaction: the replica's, held already, or one of the
        primary's pool."""
        if isinstance(self.db, asyncpg.Pool):
            async with self.db.acquire() as conn:
                yield conn
        else:
            yield self.db


Reader = Callable[[UUID, int | None], AbstractAsyncContextManager[Database]]
"""Where one read of an encounter runs, given the version it must include: a replica
that has replayed that far, else the primary; None states no version, so the primary.

The live feeds take one (api/live/feed.py) rather than a pool, so the choice stays here and
in api/http/read_routing.py."""


def on_primary(db: Database) -> Reader:
    """A ``Reader`` for a service without replicas: every read on ``db``."""

    @asynccontextmanager
    async def read(stream_id: UUID, version: int | None) -> AsyncIterator[Database]:
        yield db

    return read


_POLL_SECONDS = 0.01
_DOWN_SECONDS = 5.0
"""How long a replica that failed to answer is left out before it is tried again."""
_CHECK_TIMEOUT = 1.0


class ReadReplicas:
    """Pools on the replicas named by ``AEON_READ_DATABASE_URLS``, tried in turn."""

    def __init__(self, pools: Sequence[asyncpg.Pool], wait_seconds: float) -> None:
        self.pools = list(pools)
        self.wait_seconds = wait_seconds
        self._turn = itertools.cycle(range(len(self.pools)))
        self._down_until = [0.0] * len(self.pools)
        self.served: Counter[str] = Counter()
        """Reads answered per place: ``replica``, ``primary`` (a replica was behind or
        down after the wait) and ``primary-unstated`` (the read stated no freshness)."""
        self.live_served: Counter[str] = Counter()
        """The same for the pages live streams read: a feed's read after a wake-up, a
        stream's catch-up; ``primary-unstated`` there also counts the feeds' safety-net
        polls, which no wake-up announced."""
        self.waited = 0
        """Reads that waited for a replica to replay (whoever answered them in the end)."""
        self.waited_seconds = 0.0

    @classmethod
    async def open(cls, urls: Sequence[str], *, max_size: int, wait_seconds: float) -> ReadReplicas:
        """Pools that connect on first use, so a replica down at start-up delays nothing."""
        pools = [
            await asyncpg.create_pool(url, min_size=0, max_size=max_size, command_timeout=30)
            for url in urls
        ]
        return cls(pools, wait_seconds)

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.pools))

    @asynccontextmanager
    async def reader(
        self,
        primary: asyncpg.Pool,
        stream_id: UUID,
        min_version: int,
        served: Counter[str] | None = None,
    ) -> AsyncIterator[ReadFrom]:
        """A connection to a replica holding ``stream_id`` at ``min_version`` or later,
        waiting at most ``wait_seconds`` for one; else ``primary``.  Counted in ``served``
        (default: ``self.served``).

        The connection that passed the check is the one the read uses, held until it is
        done: behind a load balancer (CloudNativePG's ``-ro`` service) another connection
        of the same pool may reach another replica, one further behind.
        """
        served = self.served if served is None else served
        began = time.monotonic()
        deadline = began + self.wait_seconds
        while True:
            start = next(self._turn)
            for i in itertools.chain(range(start, len(self.pools)), range(start)):
                conn = await self._caught_up(i, stream_id, min_version)
                if conn is not None:
                    served["replica"] += 1
                    self._count_wait(began)
                    try:
                        yield ReadFrom(conn, replica=True)
                    finally:
                        await self.pools[i].release(conn)
                    return
            all_down = all(until > time.monotonic() for until in self._down_until)
            if all_down or time.monotonic() + _POLL_SECONDS > deadline:
                served["primary"] += 1
                self._count_wait(began)
                yield ReadFrom(primary, replica=False)
                return
            await asyncio.sleep(_POLL_SECONDS)

    def _count_wait(self, began: float) -> None:
        waited = time.monotonic() - began
        if waited >= _POLL_SECONDS:
            self.waited += 1
            self.waited_seconds += waited

    async def _caught_up(
        self, i: int, stream_id: UUID, min_version: int
    ) -> PoolConnectionProxy | None:
        """A connection of replica ``i`` if it has replayed ``stream_id`` that far."""
        now = time.monotonic()
        if self._down_until[i] > now:
            return None
        pool, conn = self.pools[i], None
        try:
            conn = await pool.acquire(timeout=_CHECK_TIMEOUT)
            head = await asyncio.wait_for(stream_head(conn, stream_id), _CHECK_TIMEOUT)
            if head.version >= max(min_version, 1):
                return conn
        except StreamNotFound:
            pass  # not replayed yet (or no such encounter: the primary will say)
        except TimeoutError:
            pass  # every connection busy, or a slow answer: skipped for this read only
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("read replica %d left out for %.0f s: %r", i, _DOWN_SECONDS, exc)
            self._down_until[i] = now + _DOWN_SECONDS
        if conn is not None:
            await pool.release(conn)
        return None
