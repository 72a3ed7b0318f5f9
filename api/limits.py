"""Per-token rate limits (Litestar's middleware), shared between processes via Redis.

The limit is counted per bearer token (hashed, so the store never holds a token) or, for
requests without one, per client address.  Counts live in Redis when ``REDIS_URL`` is
set so every process sees the same budget; if Redis stops answering, each process counts
in its own memory until it is back, because a limiter must never take the service down.
"""

from __future__ import annotations

import hashlib
import logging
import time
from datetime import timedelta
from typing import Any

from litestar import Request
from litestar.middleware.rate_limit import RateLimitConfig, get_remote_address
from litestar.stores.base import Store
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("aeon_ledger.limits")

UNLIMITED_PATHS = ["/health", "/schema"]


def identify(request: Request[Any, Any, Any]) -> str:
    header = request.headers.get("authorization")
    if header:
        return "token:" + hashlib.sha256(header.encode()).hexdigest()[:32]
    return "address:" + get_remote_address(request)


def rate_limit_config(per_minute: int) -> RateLimitConfig:
    return RateLimitConfig(
        rate_limit=("minute", per_minute),
        identifier_for_request=identify,
        exclude=UNLIMITED_PATHS,
        store="rate_limit",
    )


class FallbackStore(Store):
    """Redis while it answers, this process's memory while it does not.

    After a failure Redis is left alone for ``retry_after`` seconds, so an unreachable
    Redis costs one timeout per interval, not one per request.
    """

    def __init__(self, redis: Redis, *, retry_after: float = 2.0) -> None:
        self._redis = RedisStore(redis, namespace="aeon-ledger-rate-limit")
        self._memory = MemoryStore()
        self._retry_after = retry_after
        self._retry_at = 0.0

    async def _call(self, method: str, *args: Any) -> Any:
        if time.monotonic() >= self._retry_at:
            try:
                result = await getattr(self._redis, method)(*args)
            except (RedisError, OSError) as exc:
                if self._retry_at == 0.0:
                    log.warning("rate limits fall back to per-process memory: %s", exc)
                self._retry_at = time.monotonic() + self._retry_after
            else:
                if self._retry_at:
                    log.info("rate limits are shared through Redis again")
                self._retry_at = 0.0
                return result
        return await getattr(self._memory, method)(*args)

    async def set(
        self, key: str, value: str | bytes, expires_in: int | timedelta | None = None
    ) -> None:
        await self._call("set", key, value, expires_in)

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        value: bytes | None = await self._call("get", key, renew_for)
        return value

    async def delete(self, key: str) -> None:
        await self._call("delete", key)

    async def delete_all(self) -> None:
        await self._call("delete_all")

    async def exists(self, key: str) -> bool:
        return bool(await self._call("exists", key))

    async def expires_in(self, key: str) -> int | None:
        value: int | None = await self._call("expires_in", key)
        return value
