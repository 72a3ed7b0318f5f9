"""The Redis side of live updates: a pub/sub backend that survives Redis restarts, and
the status of its link that readiness reports.

Upstream, Litestar's Redis pub/sub backend's one reader task dies with the first
connection error and nothing restarts it, so live updates would stay broken after Redis
comes back; ``RecoveringRedisBackend`` owns its pub/sub connection in a loop that
reconnects and re-subscribes, and tells ``LinkStatus`` when the link is lost and back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Any
from uuid import UUID

import msgspec
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.redis import RedisChannelsPubSubBackend
from redis.asyncio import Redis
from redis.exceptions import RedisError

from api.live.channels import channel_of, revocation, revoked_token, woken_version
from api.live.hub import Hub

log = logging.getLogger("aeon_ledger.live")

HEARTBEAT = "aeon:live"
"""Always subscribed, so the pub/sub connection is read (and its loss noticed) even while
no client follows any encounter."""


class LinkStatus:
    """Whether wake-ups currently cross processes; readiness reports it.  ``on_up`` runs
    when a lost link is back: wake-ups sent meanwhile are gone, so every feed reads."""

    def __init__(self, mode: str, on_up: Callable[[], None] | None = None) -> None:
        self.mode, self._on_up = mode, on_up
        self.error: str | None = None
        self.since = time.monotonic()

    @property
    def ok(self) -> bool:
        return self.error is None

    def up(self) -> None:
        if self.error is not None:
            log.info("live updates: %s link restored after %.1f s", self.mode, self.elapsed)
            self.error, self.since = None, time.monotonic()
            if self._on_up is not None:
                self._on_up()

    def down(self, exc: BaseException) -> None:
        reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        if self.error is None:
            log.warning("live updates: %s link lost (%s); feeds poll PostgreSQL", self.mode, reason)
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


class RedisLink:
    """Wake-ups through Redis pub/sub, a channel per encounter (``encounter:{id}``): a
    process subscribes to the encounters it has feeds of, once each."""

    def __init__(self, plugin: ChannelsPlugin, hub: Hub) -> None:
        self._plugin, self._hub = plugin, hub

    async def publish(
        self, versions: Mapping[UUID, int], revoked: Sequence[tuple[UUID, str]]
    ) -> None:
        for encounter_id, token_id in revoked:
            await self._plugin.wait_published(revocation(token_id), channel_of(encounter_id))
        for encounter_id, version in versions.items():
            data = msgspec.json.encode({"version": version})
            await self._plugin.wait_published(data, channel_of(encounter_id))

    @contextlib.asynccontextmanager
    async def watch(self, encounter_id: UUID) -> AsyncIterator[None]:
        hub = self._hub

        async def on_notice(notice: bytes) -> None:
            token_id = revoked_token(notice)
            if token_id is not None:
                hub.revoked(encounter_id, token_id)
            else:
                hub.wake(encounter_id, woken_version(notice))

        async with (
            self._plugin.start_subscription(channel_of(encounter_id)) as subscriber,
            # join=False: a wake-up the bounded backlog dropped is never marked done, so
            # waiting for the backlog to drain could wait forever.
            subscriber.run_in_background(on_notice, join=False),
        ):
            yield
