"""The write path's publish hook: wake-ups published from a task of its own, so a command
never waits for Redis and never fails because of it (and the channels plugin's own
``publish`` queue, which stalls behind a failed publish, is not used for them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Sequence
from uuid import UUID

import msgspec
from litestar.channels import ChannelsPlugin

from api.live_channels import channel_of
from events.envelope import RecordedEvent
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

_WARN_EVERY = 10.0
"""Seconds between two warnings about failed publishes (one per command would flood)."""


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
                    metrics.live_published(ok=True)
                except Exception as exc:  # the command is committed; never let this fail it
                    metrics.live_published(ok=False)
                    now = time.monotonic()
                    if now - self._warned >= _WARN_EVERY:
                        log.warning("live updates: publish failed (%r); subscribers poll", exc)
                        self._warned = now
                    break  # the rest of the batch would fail alike; subscribers poll
