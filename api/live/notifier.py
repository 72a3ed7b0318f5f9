"""The write path's publish hook: this process's feeds are woken at once, other processes
through a task of its own, so a command never waits for Redis or a ``NOTIFY`` and never
fails because of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from uuid import UUID

from api.background import running_tasks
from api.live.hub import Hub
from events.envelope import RecordedEvent
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

_WARN_EVERY = 10.0
"""Seconds between two warnings about failed publishes (one per command would flood)."""

Publish = Callable[[Mapping[UUID, int], Sequence[tuple[UUID, str]]], Awaitable[None]]
"""Carries wake-ups (encounter -> version) and revocations to the other processes."""


class Notifier:
    """The pipeline's publish hook: wakes this process's feed of the encounter, and
    remembers the newest version per encounter for the other processes.

    Wake-ups gather while a publish is under way, so a burst of commands (a whole group
    commit, say) costs one message; a failed publish is logged and dropped (every feed's
    safety-net read covers it).  The hook itself never awaits the link.
    """

    def __init__(self, hub: Hub, publish: Publish, *, timeout: float = 1.0) -> None:
        self._hub, self._publish, self._timeout = hub, publish, timeout
        self._pending: dict[UUID, int] = {}
        self._revoked: list[tuple[UUID, str]] = []
        self._wake: asyncio.Event | None = None
        self._warned = -_WARN_EVERY

    async def __call__(self, encounter_id: UUID, recorded: Sequence[RecordedEvent]) -> None:
        if not recorded:
            return
        version = recorded[-1].stream_version
        self._hub.wake(encounter_id, version)
        if self._wake is not None:
            self._pending[encounter_id] = max(version, self._pending.get(encounter_id, 0))
            self._wake.set()

    def revoked(self, encounter_id: UUID, token_id: str) -> None:
        """``token_id`` no longer opens the encounter: its streams end, here at once and
        on the other processes as soon as the notice reaches them."""
        self._hub.revoked(encounter_id, token_id)
        if self._wake is not None:
            self._revoked.append((encounter_id, token_id))
            self._wake.set()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self._wake = asyncio.Event()
        try:
            async with running_tasks(self._run(self._wake), name="live-notifier"):
                yield
        finally:
            self._wake = None

    async def _run(self, wake: asyncio.Event) -> None:
        while True:
            await wake.wait()
            wake.clear()
            versions, self._pending = self._pending, {}
            revoked, self._revoked = self._revoked, []
            try:
                async with asyncio.timeout(self._timeout):  # no task per publish
                    await self._publish(versions, revoked)
                metrics.live_published(ok=True)
            except Exception as exc:  # the command is committed; never let this fail it
                metrics.live_published(ok=False)
                now = time.monotonic()
                if now - self._warned >= _WARN_EVERY:
                    log.warning("live updates: publish failed (%r); feeds poll", exc)
                    self._warned = now
