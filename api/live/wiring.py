"""Live updates put together from the settings: the hub of feeds, the link that carries
wake-ups between processes, and the write path's hook (``Live``).

PostgreSQL stays the only source of events: a wake-up carries only ``{"version": V}``
(or a revoked token's id), and each process's feed of an encounter reads the new events
itself (api/live/feed.py), so a lost, late or duplicated notification can delay an update
but never create a gap or a duplicate.

Between processes, wake-ups travel through Redis pub/sub when ``REDIS_URL`` is set
(Litestar's channels plugin on ``RecoveringRedisBackend``, api/live/redis_link.py, which
survives Redis restarts), else through PostgreSQL ``LISTEN/NOTIFY``
(api/live/postgres_link.py), so several workers are live without Redis too.  Within a
process the notifier wakes the feed directly, without a round trip.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from uuid import UUID

from litestar.channels import ChannelsPlugin
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from api.live.feed import Encode
from api.live.hub import Hub
from api.live.notifier import Notifier
from api.live.postgres_link import PostgresLink
from api.live.redis_link import LinkStatus, RecoveringRedisBackend, RedisLink
from api.settings import Settings
from events.db import Database

log = logging.getLogger("aeon_ledger.live")


@dataclass
class Live:
    """Everything live updates need: the hub, the link, its status, the write hook."""

    hub: Hub
    status: LinkStatus
    notifier: Notifier
    plugin: ChannelsPlugin | None
    """The channels plugin carrying wake-ups through Redis; None without Redis."""
    postgres: PostgresLink | None
    poll_seconds: float

    def announce_revoked(self, encounter_id: UUID, token_id: str) -> None:
        """Streams opened with ``token_id`` end: in this process at once, in the others
        when the notice reaches them (with the link away, at their next keepalive)."""
        self.notifier.revoked(encounter_id, token_id)

    @contextlib.asynccontextmanager
    async def running(self, db: Database, encode: Encode) -> AsyncIterator[None]:
        """Feeds read from ``db`` and encode with ``encode``; the link and the notifier
        run until the app stops."""
        self.hub.bind(db, encode)
        async with contextlib.AsyncExitStack() as stack:
            if self.postgres is not None:
                await stack.enter_async_context(self.postgres.running(db))
            await stack.enter_async_context(self.notifier.running())
            stack.push_async_callback(self.hub.close)
            yield

    @classmethod
    def from_settings(cls, settings: Settings) -> Live:
        hub = Hub(
            page=settings.live_page,
            poll_seconds=settings.live_poll_seconds,
            keepalive_seconds=settings.live_keepalive_seconds,
            backlog=settings.live_backlog,
            read_cache_seconds=settings.read_cache_seconds,
        )
        if settings.redis_url:
            status = LinkStatus("redis", on_up=hub.wake_all)
            redis = Redis.from_url(
                settings.redis_url,
                socket_connect_timeout=1,
                socket_timeout=2,
                # One immediate retry replaces a pooled connection Redis dropped while it
                # was away (else the first publish after a restart is lost); no backoff:
                # the subscription loop and the feeds' safety-net reads do the waiting.
                retry=Retry(NoBackoff(), 1),
            )
            plugin = ChannelsPlugin(
                RecoveringRedisBackend(redis, status),
                arbitrary_channels_allowed=True,
                # One subscription per followed encounter and process; a wake-up carries
                # no data, so a short backlog is plenty.
                subscriber_max_backlog=16,
                subscriber_backlog_strategy="dropleft",
            )
            link = RedisLink(plugin, hub)
            hub.watch = link.watch
            notifier = Notifier(hub, link.publish)
            return cls(hub, status, notifier, plugin, None, settings.live_poll_seconds)
        assert settings.database_url is not None
        status = LinkStatus("postgres")
        postgres = PostgresLink(settings.database_url, hub, status)
        hub.watch = postgres.watch
        return cls(
            hub, status, Notifier(hub, postgres.publish), None, postgres, settings.live_poll_seconds
        )

    @property
    def fallback(self) -> str:
        return f"live updates fall back to polling PostgreSQL every {self.poll_seconds:g} s"

    def describe_listener(self) -> str:
        """Readiness of the PostgreSQL listening connection, without Redis."""
        if self.status.ok:
            return "ok"
        return f"degraded, {self.fallback} ({self.status.error}, for {self.status.elapsed:.0f} s)"

    def describe(self) -> str:
        """Readiness of the live-update link while Redis itself answers."""
        if self.status.ok:
            return "ok"
        return (
            f"degraded: {self.fallback} (subscription link to Redis: {self.status.error}, "
            f"for {self.status.elapsed:.0f} s)"
        )
