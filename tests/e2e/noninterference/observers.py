"""What a player or spectator receives without asking, during a whole run: a live stream
held open from before the first command to after the last, and the deliveries of a
webhook in the players' view."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import httpx

from tests.support.receiver import Receiver

_ID = re.compile(rb"(?:^|\n)id: (\d+)\r?\n")
_KEEPALIVE = re.compile(rb": keepalive\r?\n\r?\n")


class HeldStream:
    """``GET /live`` opened with a reader's token and read, bytes as they come, until it
    is closed."""

    def __init__(self, http: httpx.AsyncClient, eid: str, headers: dict[str, str]) -> None:
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.opened = asyncio.Event()
        self._task = asyncio.create_task(self._read(http, f"/encounters/{eid}/live", headers))

    async def _read(self, http: httpx.AsyncClient, path: str, headers: dict[str, str]) -> None:
        # auth=None: the client's GmTokens would read the whole body before answering.
        query = {"after_version": 0}
        opened = http.stream("GET", path, params=query, headers=headers, auth=None, timeout=None)
        async with opened as live:
            assert live.status_code == 200, await live.aread()
            self.opened.set()
            async for chunk in live.aiter_raw():
                self.received += chunk
                self.arrived.set()

    async def open(self) -> HeldStream:
        """Once the server has answered the request (its refusal raised here)."""
        async with asyncio.timeout(10):
            while not self.opened.is_set():
                if self._task.done():
                    self._task.result()
                await asyncio.sleep(0.01)
        return self

    def last_id(self) -> int:
        ids = _ID.findall(bytes(self.received))
        return int(ids[-1]) if ids else 0

    async def close_after(self, version: int) -> bytes:
        """Everything received once the message of ``version`` has arrived, keep-alive
        comments left out (they follow the clock, not the encounter)."""
        async with asyncio.timeout(15):
            while self.last_id() < version:
                assert not self._task.done(), self._task.result()
                self.arrived.clear()
                await self.arrived.wait()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        return _KEEPALIVE.sub(b"", bytes(self.received))


async def webhook_bodies(receiver: Receiver, eid: str, version: int) -> bytes:
    """The bodies a players' webhook delivered for encounter ``eid``, in order, once the
    event of ``version`` has arrived."""

    def mine() -> list[Any]:
        return [r for r in receiver.accepted if r.json()["encounter_id"] == eid]

    await receiver.wait_for(lambda: any(r.json()["version"] >= version for r in mine()))
    delivered = mine()
    assert all(r.json()["audience"] == "players" for r in delivered)
    return b"\n".join(r.body for r in delivered)
