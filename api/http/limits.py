"""Per-token rate limits, counting with one atomic increment per request, shared between
processes via Redis.

The limit is counted per verified token id or, for requests without one (no bearer, an
unknown or a wrong one), per client address (``VerifiedTokens``), in fixed windows of a
minute.  Counts live in Redis when ``REDIS_URL`` is set so every process sees the same
budget; if Redis stops answering, each process counts in its own memory until it is
back, because a limiter must never take the service down.

Why not Litestar's rate-limit middleware: it keeps every request's timestamp of the
window in the store, reads and rewrites that list (get, then set) for each request, and
holds one lock per process across both store calls.  With Redis that serialised every
request of a process behind two round trips, the get-then-set lost counts between
processes, and the list grew with the limit (600 timestamps decoded and re-encoded per
request at the default).  ``RateLimit`` keeps what Litestar's answered (the paths left
out, its 429 exception, a problem response, and its RateLimit headers) and counts with
``WindowCounter.hit``: INCR in one Redis round trip, or a dict.  It is no middleware of
its own: the observing middleware (api/http/observing.py) asks it, in the same layer
that logs and measures the request.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from typing import Protocol

import asyncpg
from litestar import Litestar
from litestar.exceptions import TooManyRequestsException
from redis.asyncio import Redis
from redis.exceptions import RedisError

from events import access
from events.db import Database
from service.lru import LRU
from telemetry import metrics

log = logging.getLogger("aeon_ledger.limits")

UNLIMITED_PATHS = ["/health", "/schema"]
"""Probes and the API document; everything else (the console's files and /metrics too)
is counted like any request, so no path is a free door for a flood."""
_NAMESPACE = "aeon-ledger-rate-limit:"
_WINDOW_SECONDS = 60
"""The limit is set per minute (``AEON_RATE_LIMIT_PER_MINUTE``)."""


class VerifiedTokens:
    """Bearer tokens verified here, by digest, with the token id they stand for: the
    budget of a request is its verified token's, else its client address's.

    A bearer not seen before is checked against the stored token digests once (one
    primary-key lookup), so every process counts a token under the same id from its first
    request.  A made-up bearer per request is counted against its address, and so is
    every failed authentication: guessing tokens is as limited as any other request.
    Digests only: the secret is never held.
    """

    def __init__(self, capacity: int = 100_000) -> None:
        self._ids: LRU[bytes, str] = LRU(capacity)
        self._wrong: LRU[bytes, bool] = LRU(capacity)

    def remember(self, token: str, token_id: str | None = None) -> None:
        """``token_id`` defaults to the id a minted token starts with (service.tokens)."""
        self._ids.put(_digest(token), token_id or token.partition(".")[0])

    async def identify(self, header: str | None, address: str, app: Litestar) -> str:
        """The budget of a request with this ``Authorization`` header from ``address``;
        ``app``'s database is asked only about a bearer not seen before."""
        if header:
            scheme, _, token = header.strip().partition(" ")
            token = token.strip()
            if scheme.lower() == "bearer" and token:
                digest = _digest(token)
                known = self._ids.get(digest)
                if (
                    known is None
                    and self._wrong.get(digest) is None
                    and (db := _database(app)) is not None
                ):
                    try:
                        known = await _stored_id(db, token)
                    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                        return "address:" + address  # 503 comes later
                    if known is None:
                        self._wrong.put(digest, True)
                    else:
                        self._ids.put(digest, known)
                if known is not None:
                    return "token:" + known
        return "address:" + address


def _database(app: Litestar) -> Database | None:
    """The app's pool once its lifespan has opened it, else None."""
    services = getattr(app.state, "services", None)
    return services.pool if services is not None else None


async def _stored_id(db: Database, token: str) -> str | None:
    """The id of the stored token this one is, revoked or not (a revoked token is
    refused later, and still counted under its id); None for anything else."""
    token_id, _, secret = token.partition(".")
    if not secret or len(token_id) > 64:
        return None
    stored = await access.is_stored(db, token_id, hashlib.sha256(secret.encode()).digest())
    return token_id if stored else None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class WindowCounter(Protocol):
    async def hit(self, key: str, window: int) -> tuple[int, int]:
        """Count one request against ``key``: the requests of its current window so far,
        this one included, and the seconds until that window ends."""
        ...


class MemoryCounter:
    """This process's counts.  No lock: nothing awaits between reading and writing a count.

    Windows that ended are dropped when the table has doubled since the last sweep, so
    tokens that stop calling cost nothing for long.
    """

    def __init__(self) -> None:
        self._counts: dict[str, list[float]] = {}
        self._sweep_at = 1024

    async def hit(self, key: str, window: int) -> tuple[int, int]:
        now = time.monotonic()
        entry = self._counts.get(key)
        if entry is None or entry[1] <= now:
            if len(self._counts) >= self._sweep_at:
                self._sweep(now)
            entry = self._counts[key] = [0, now + window]
        entry[0] += 1
        return int(entry[0]), max(1, round(entry[1] - now))

    def _sweep(self, now: float) -> None:
        self._counts = {k: e for k, e in self._counts.items() if e[1] > now}
        self._sweep_at = max(1024, 2 * len(self._counts))


_HIT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('TTL', KEYS[1])}
"""


class RedisCounter:
    """Counts shared by every process: INCR, and the window's expiry set by its first
    request, in one script (one round trip, atomic in Redis)."""

    def __init__(self, redis: Redis) -> None:
        self._hit = redis.register_script(_HIT)

    async def hit(self, key: str, window: int) -> tuple[int, int]:
        count, ttl = await self._hit(keys=[_NAMESPACE + key], args=[window])
        return int(count), max(1, int(ttl))


class FallbackCounter:
    """Redis while it answers, this process's memory while it does not.

    After a failure Redis is left alone for ``retry_after`` seconds, so an unreachable
    Redis costs one timeout per interval, not one per request.
    """

    def __init__(self, redis: Redis, *, retry_after: float = 2.0) -> None:
        self._redis = RedisCounter(redis)
        self._memory = MemoryCounter()
        self._retry_after = retry_after
        self._retry_at = 0.0

    async def hit(self, key: str, window: int) -> tuple[int, int]:
        if time.monotonic() >= self._retry_at:
            try:
                counted = await self._redis.hit(key, window)
            except (RedisError, OSError) as exc:
                if self._retry_at == 0.0:
                    log.warning("rate limits fall back to per-process memory: %s", exc)
                self._retry_at = time.monotonic() + self._retry_after
            else:
                if self._retry_at:
                    log.info("rate limits are shared through Redis again")
                self._retry_at = 0.0
                return counted
        return await self._memory.hit(key, window)


class RateLimit:
    """The limit every request but ``UNLIMITED_PATHS`` is held to: its budget's count in
    the current window, its RateLimit headers, and the 429 past the budget.

    Called by the observing middleware (api/http/observing.py) with what it read off the
    request in its one pass over the headers; the exception it raises is answered by
    Litestar outside every middleware, as a problem response with the same headers.
    """

    def __init__(
        self,
        per_minute: int,
        *,
        counter: WindowCounter,
        verified: VerifiedTokens,
    ) -> None:
        self.max_requests = per_minute
        self.counter, self.verified = counter, verified
        self._window = _WINDOW_SECONDS
        self._unlimited = re.compile("|".join(UNLIMITED_PATHS))
        # The header names and the two values that never change, encoded once.
        self._fixed_headers = [
            (b"ratelimit-policy", f"{per_minute}; w={self._window}".encode()),
            (b"ratelimit-limit", str(per_minute).encode()),
        ]

    def applies_to(self, path: str) -> bool:
        """False for a path holding one of ``UNLIMITED_PATHS`` (searched anywhere in it,
        as Litestar's middleware exclusions do)."""
        return self._unlimited.search(path) is None

    async def admit(
        self, authorization: str | None, address: str, app: Litestar
    ) -> list[tuple[bytes, bytes]]:
        """Count the request against its budget: the RateLimit headers of its answer, or
        ``TooManyRequestsException`` (with the same headers) past the budget."""
        key = await self.verified.identify(authorization, address, app)
        count, reset_in = await self.counter.hit(key, self._window)
        headers = [
            *self._fixed_headers,
            (b"ratelimit-remaining", str(max(0, self.max_requests - count)).encode()),
            (b"ratelimit-reset", str(reset_in).encode()),
        ]
        if count > self.max_requests:
            metrics.rate_limited()
            raise TooManyRequestsException(headers={k.decode(): v.decode() for k, v in headers})
        return headers


def rate_limit(per_minute: int, redis: Redis | None, verified: VerifiedTokens) -> RateLimit:
    return RateLimit(
        per_minute,
        verified=verified,
        counter=FallbackCounter(redis) if redis is not None else MemoryCounter(),
    )
