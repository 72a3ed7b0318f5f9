"""Thousands of live-stream subscribers in one process, as cheap as a client can be.

The subscribers share the machine with the service they measure, so each is an asyncio
``Protocol`` that, once the answer's head is in, only notes when each piece of bytes came
and finds the ``id:`` lines in them after the run (``arrived``): the work done as bytes
arrive, which delays the next subscriber's timestamp, is one append.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence
from typing import cast
from urllib.parse import urlsplit

_ID = re.compile(rb"\nid: (\d+)\r\n")
_END = b"\r\n\r\n"


class Subscriber(asyncio.Protocol):
    """One stream: ``arrived[version]`` is when the event of that version came."""

    __slots__ = ("_parsed", "buffer", "closed", "opened", "pieces", "status", "transport")

    def __init__(self) -> None:
        self.pieces: list[tuple[float, bytes]] = []
        self._parsed: tuple[int, dict[int, float]] = (0, {})
        self.buffer = b""
        self.status = 0
        self.opened = asyncio.get_running_loop().create_future()
        self.closed = False
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        if self.status:
            self.pieces.append((time.monotonic(), data))
            return
        buffer = self.buffer + data
        head, found, rest = buffer.partition(_END)
        if not found:
            self.buffer = buffer
            return
        self.buffer = b""
        self.status = int(head.split(b" ", 2)[1])
        if not self.opened.done():
            self.opened.set_result(self.status)
        if rest:
            self.pieces.append((time.monotonic(), rest))

    @property
    def arrived(self) -> dict[int, float]:
        """When the event of each version came: the time of the piece that completed
        its message (parsed on demand, from where the last call stopped)."""
        done, arrived = self._parsed
        pending = self.buffer
        for at, data in self.pieces[done:]:
            pending += data
            cut = pending.rfind(_END)
            if cut >= 0:
                for version in _ID.findall(pending, 0, cut + 2):
                    arrived[int(version)] = at
                pending = pending[cut + 4 :]
        self.buffer = pending
        self._parsed = (len(self.pieces), arrived)
        return arrived

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed before the answer"))


async def subscribe(url: str, encounter_id: str, headers: dict[str, str], after: int) -> Subscriber:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    loop = asyncio.get_running_loop()
    _, subscriber = await loop.create_connection(Subscriber, host, port)
    lines = [
        f"GET /encounters/{encounter_id}/live?after_version={after} HTTP/1.1",
        f"host: {host}:{port}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    assert subscriber.transport is not None
    subscriber.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    status = await asyncio.wait_for(subscriber.opened, 30)
    if status != 200:
        raise RuntimeError(f"a live stream was refused with {status}")
    return subscriber


async def subscribe_many(
    url: str, tables: Sequence[tuple[str, dict[str, str], int]], count: int, *, at_once: int = 100
) -> list[tuple[int, Subscriber]]:
    """``count`` subscribers spread evenly over ``tables`` (id, headers, current version);
    each is returned with the index of its table."""
    slots = asyncio.Semaphore(at_once)

    async def one(n: int) -> tuple[int, Subscriber]:
        index = n % len(tables)
        eid, headers, after = tables[index]
        async with slots:
            return index, await subscribe(url, eid, headers, after)

    return await asyncio.gather(*(one(n) for n in range(count)))


def close_all(subscribers: Sequence[tuple[int, Subscriber]]) -> None:
    for _, subscriber in subscribers:
        if subscriber.transport is not None:
            subscriber.transport.close()
