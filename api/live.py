"""Fan-out for live updates: after each commit, a wake-up on channel ``encounter:{id}``.

The channel carries only ``{"version": V}``; a subscriber that wakes up reads the events
after the last version it sent from PostgreSQL (``api/routes/live.py``).  PostgreSQL stays
the only source of events, so a lost, late or duplicated notification can delay an update
but never create a gap or a duplicate, and Redis being down only slows things to the
subscribers' fallback poll.

Litestar's channels plugin carries the wake-ups: its in-memory backend without
``REDIS_URL``, its Redis pub/sub backend with it.  Upstream, that backend's one reader task
dies with the first connection error and nothing restarts it (and the plugin's own
``publish`` queue stalls behind a failed publish), so live updates would stay broken after
Redis comes back; ``RecoveringRedisBackend`` (api/live_redis.py) owns its pub/sub
connection in a loop that reconnects and re-subscribes, and ``Notifier``
(api/live_notifier.py) publishes from its own task, so a command never waits for Redis and
never fails because of it.  The channels and their messages are api/live_channels.py's;
this module puts the pieces together from the settings (``Live``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from uuid import UUID

from litestar.channels import ChannelsPlugin
from litestar.channels.backends.base import ChannelsBackend
from litestar.channels.backends.memory import MemoryChannelsBackend
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from api.live_channels import channel_of, revocation
from api.live_notifier import Notifier
from api.live_redis import LinkStatus, RecoveringRedisBackend
from api.settings import Settings

log = logging.getLogger("aeon_ledger.live")


@dataclass
class Live:
    """Everything live updates need: the channels plugin, its link status, the hook."""

    plugin: ChannelsPlugin
    status: LinkStatus
    notifier: Notifier
    poll_seconds: float
    page: int
    keepalive_seconds: float

    def announce_revoked(self, encounter_id: UUID, token_id: str) -> None:
        """Tell every process's live streams of this encounter that ``token_id`` is
        revoked: the streams it opened end at once.  Best effort, as every wake-up: with
        Redis away they end at their next keepalive check instead."""
        try:
            self.plugin.publish(revocation(token_id), channels=[channel_of(encounter_id)])
        except Exception as exc:  # a failed publish must not fail the revocation
            log.warning("could not announce a revoked token: %r", exc)

    @classmethod
    def from_settings(cls, settings: Settings) -> Live:
        backend: ChannelsBackend
        if settings.redis_url:
            status = LinkStatus("redis")
            redis = Redis.from_url(
                settings.redis_url,
                socket_connect_timeout=1,
                socket_timeout=2,
                # One immediate retry replaces a pooled connection Redis dropped while it
                # was away (else the first publish after a restart is lost); no backoff:
                # the subscription loop and the fallback poll do the waiting.
                retry=Retry(NoBackoff(), 1),
            )
            backend = RecoveringRedisBackend(redis, status)
        else:
            status = LinkStatus("in-process")
            backend = MemoryChannelsBackend()
        plugin = ChannelsPlugin(
            backend,
            arbitrary_channels_allowed=True,
            # A wake-up carries no data: one pending per subscriber is enough, and a
            # subscriber that is slow to read can never make the process buffer more.
            subscriber_max_backlog=1,
            subscriber_backlog_strategy="dropleft",
        )
        return cls(
            plugin=plugin,
            status=status,
            notifier=Notifier(plugin),
            poll_seconds=settings.live_poll_seconds,
            page=settings.live_page,
            keepalive_seconds=settings.live_keepalive_seconds,
        )

    @property
    def fallback(self) -> str:
        return f"live updates fall back to polling PostgreSQL every {self.poll_seconds:g} s"

    def describe(self) -> str:
        """Readiness of the live-update link while Redis itself answers."""
        if self.status.ok:
            return "ok"
        return (
            f"degraded: {self.fallback} (subscription link to Redis: {self.status.error}, "
            f"for {self.status.elapsed:.0f} s)"
        )
