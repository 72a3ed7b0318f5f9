"""A live-update subscriber as a client would write one: follow the stream, remember the
last id, and on a reconnect send it back as Last-Event-ID."""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx

from tests.scaleout.sse import Message, follow


class Subscriber:
    def __init__(self, url: str, encounter_id: str, headers: dict[str, str]) -> None:
        self.url, self.encounter_id, self.headers = url, encounter_id, headers
        self.received: list[Message] = []
        self.connections = 0
        self._task: asyncio.Task[None] | None = None

    @property
    def versions(self) -> list[int]:
        return [m.id for m in self.received]

    @property
    def last(self) -> int:
        return self.received[-1].id if self.received else 0

    def start(self, *, reconnect_after: int | None = None) -> None:
        """Follow from the first event; with ``reconnect_after``, drop the connection once
        that many events have arrived and resume on a new one."""
        self._task = asyncio.create_task(self._run(reconnect_after))

    async def _run(self, reconnect_after: int | None) -> None:
        async with httpx.AsyncClient(
            base_url=self.url, timeout=httpx.Timeout(10, read=None)
        ) as http:
            while True:
                headers = dict(self.headers)
                if self.received:
                    headers["Last-Event-ID"] = str(self.last)
                path = f"/encounters/{self.encounter_id}/live"
                async with http.stream("GET", path, headers=headers) as response:
                    assert response.status_code == 200, await response.aread()
                    self.connections += 1
                    async for message in follow(response):
                        self.received.append(message)
                        if len(self.received) == reconnect_after:
                            break
                    else:
                        return

    async def wait_for(self, version: int, within: float) -> float:
        """Seconds until the event of ``version`` arrived; fails after ``within`` seconds."""
        started = time.monotonic()
        while self.last < version:
            assert self._task is not None
            if self._task.done():
                self._task.result()  # raises what the subscriber ran into
                raise AssertionError("the stream ended")
            waited = time.monotonic() - started
            assert waited < within, f"version {version} not received in {within} s (at {self.last})"
            await asyncio.sleep(0.02)
        return time.monotonic() - started

    async def ended(self, within: float) -> None:
        """Wait for the server to end the stream (and the reconnect to be refused)."""
        assert self._task is not None
        done, _ = await asyncio.wait({self._task}, timeout=within)
        assert done, f"the stream did not end within {within} s"

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
