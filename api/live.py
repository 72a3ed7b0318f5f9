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
Redis comes back; ``RecoveringRedisBackend`` owns its pub/sub connection in a loop that
reconnects and re-subscribes, and ``Notifier`` publishes from its own task, so a command
never waits for Redis and never fails because of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import msgspec
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.base import ChannelsBackend
from litestar.channels.backends.memory import MemoryChannelsBackend
from litestar.channels.backends.redis import RedisChannelsPubSubBackend
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from api.settings import Settings
from events.envelope import RecordedEvent

log = logging.getLogger("aeon_ledger.live")

HEARTBEAT = "aeon:live"
"""Always subscribed, so the pub/sub connection is read (and its loss noticed) even while
no client follows any encounter."""


_WARN_EVERY = 10.0
"""Seconds between two warnings about failed publishes (one per command would flood)."""


def channel_of(encounter_id: UUID) -> str:
    return f"encounter:{encounter_id}"


def revocation(token_id: str) -> bytes:
    """The notice on an encounter's channel that a token was revoked."""
    return msgspec.json.encode({"revoked": token_id})


def revoked_token(notice: bytes) -> str | None:
    """The token id a notice says was revoked; None for a wake-up."""
    if b'"revoked"' not in notice:
        return None
    try:
        token = msgspec.json.decode(notice).get("revoked")
    except (msgspec.DecodeError, AttributeError):
        return None
    return token if isinstance(token, str) else None


class LinkStatus:
    """Whether wake-ups currently cross processes; readiness reports it."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.error: str | None = None
        self.since = time.monotonic()

    @property
    def ok(self) -> bool:
        return self.error is None

    def up(self) -> None:
        if self.error is not None:
            log.info("live updates: Redis link restored after %.1f s", self.elapsed)
            self.error, self.since = None, time.monotonic()

    def down(self, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if self.error is None:
            log.warning("live updates: Redis link lost (%s); subscribers poll PostgreSQL", reason)
            self.since = time.monotonic()
        self.error = reason

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.since


class RecoveringRedisBackend(RedisChannelsPubSubBackend):
    """Litestar's Redis pub/sub backend whose reading side survives Redis restarts.

    One loop owns the pub/sub connection: it subscribes to the wanted channels, reads
    messages, pings now and then (a silent peer counts as lost), and on any error drops
    the connection, marks the link down and starts over after a pause.  ``unsubscribe``
    only changes the wanted set; ``subscribe`` also waits (briefly, and only while the
    link is up) for Redis to confirm, so a subscriber that reads its backlog afterwards
    cannot miss the wake-up of a commit that lands in between.  Publishing is inherited.
    """

    def __init__(
        self,
        redis: Redis,
        status: LinkStatus,
        *,
        tick: float = 0.1,
        retry_after: float = 0.5,
        ping_every: float = 5.0,
        confirm_within: float = 1.0,
    ) -> None:
        super().__init__(redis=redis)
        self._status = status
        self._tick, self._retry_after, self._ping_every = tick, retry_after, ping_every
        self._confirm_within = confirm_within
        self._wanted: set[str] = set()
        self._confirmed: set[str] = set()
        self._progress: asyncio.Condition | None = None

    @property
    def _condition(self) -> asyncio.Condition:
        if self._progress is None:  # created in the running loop, not at import
            self._progress = asyncio.Condition()
        return self._progress

    async def on_startup(self) -> None:
        pass

    async def on_shutdown(self) -> None:
        await self._redis.aclose()

    async def subscribe(self, channels: Iterable[str]) -> None:
        new = set(channels)
        self._wanted.update(new)
        async with self._condition:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._condition.wait_for(lambda: new <= self._confirmed or not self._status.ok),
                    self._confirm_within,
                )

    async def unsubscribe(self, channels: Iterable[str]) -> None:
        self._wanted.difference_update(channels)

    async def stream_events(self) -> AsyncGenerator[tuple[str, Any], None]:
        while True:
            pubsub = self._redis.pubsub()
            try:
                async for item in self._listen(pubsub):
                    yield item
            except (RedisError, OSError) as exc:
                self._status.down(exc)
            finally:
                self._confirmed.clear()
                async with self._condition:
                    self._condition.notify_all()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(self._retry_after)

    async def _listen(self, pubsub: Any) -> AsyncIterator[tuple[str, bytes]]:
        # The heartbeat last: Redis confirms in order, so its confirmation means the
        # link is whole again (and is when the status turns back to ok).
        listening = {*self._wanted, HEARTBEAT}
        await pubsub.subscribe(*(listening - {HEARTBEAT}), HEARTBEAT)
        pinged = ponged = time.monotonic()
        while True:
            wanted = {HEARTBEAT, *self._wanted}
            if wanted - listening:
                await pubsub.subscribe(*(wanted - listening))
            if listening - wanted:
                await pubsub.unsubscribe(*(listening - wanted))
            listening = wanted
            message = await pubsub.get_message(timeout=self._tick)
            now = time.monotonic()
            if message is not None:
                ponged = now
                channel = message["channel"]
                name = channel.decode() if isinstance(channel, bytes) else channel
                if message["type"] == "message" and name in self._wanted:
                    yield name, message["data"]
                elif message["type"] in ("subscribe", "unsubscribe"):
                    await self._confirm(name, message["type"] == "subscribe")
            if now - pinged >= self._ping_every:
                if now - ponged > 2 * self._ping_every:
                    raise ConnectionError("no answer to PING from Redis")
                await pubsub.ping()
                pinged = now

    async def _confirm(self, channel: str, subscribed: bool) -> None:
        if not subscribed:
            self._confirmed.discard(channel)
            return
        self._confirmed.add(channel)
        if channel == HEARTBEAT:
            self._status.up()
        async with self._condition:
            self._condition.notify_all()


class Notifier:
    """The pipeline's publish hook: remembers the newest version per encounter and
    publishes it from a task of its own.

    Wake-ups for one encounter coalesce while a publish is under way, so a burst of
    commands costs a few messages; a failed publish is logged and dropped (subscribers'
    fallback poll covers it).  The hook itself never awaits Redis.
    """

    def __init__(self, plugin: ChannelsPlugin, *, timeout: float = 1.0) -> None:
        self._plugin, self._timeout = plugin, timeout
        self._pending: dict[UUID, int] = {}
        self._wake: asyncio.Event | None = None
        self._warned = -_WARN_EVERY

    async def __call__(self, encounter_id: UUID, recorded: Sequence[RecordedEvent]) -> None:
        if not recorded or self._wake is None:
            return
        version = recorded[-1].stream_version
        self._pending[encounter_id] = max(version, self._pending.get(encounter_id, 0))
        self._wake.set()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self._wake = asyncio.Event()
        task = asyncio.create_task(self._run(self._wake), name="live-notifier")
        try:
            yield
        finally:
            self._wake = None
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            batch, self._pending = self._pending, {}
            for encounter_id, version in batch.items():
                data = msgspec.json.encode({"version": version})
                try:
                    async with asyncio.timeout(self._timeout):  # no task per publish
                        await self._plugin.wait_published(data, channel_of(encounter_id))
                except Exception as exc:  # the command is committed; never let this fail it
                    now = time.monotonic()
                    if now - self._warned >= _WARN_EVERY:
                        log.warning("live updates: publish failed (%r); subscribers poll", exc)
                        self._warned = now
                    break  # the rest of the batch would fail alike; subscribers poll


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
