"""Writing a live stream's messages straight to its connection, from the encounter's feed.

Why: with ten thousand streams, handing each message to each stream's own task (wake the
task, resume its generator, pass the bytes through the ASGI send chain) cost most of the
service's CPU and most of the delivery latency, all of it per subscriber.  A stream that
has caught up and follows its feed can instead have the feed write the bytes for it: one
chunk, framed once per audience, written to each connection; the stream's task sleeps
until the stream must end or fall back to reading PostgreSQL.

This needs the connection, which ASGI does not expose: the service's uvicorn protocol
(api/serving.py) puts a ``Connection`` on its request cycle in
``scope["extensions"][EXTENSION]``, and tells it when the client goes (``on_lost``), so
a stream need not keep a task reading ASGI ``receive`` to learn it.  Without
it (another server, the test client), or for a response that is not chunked, streams send
through ASGI as before.  Only uvicorn's own state is read (is the response started and
chunked, is writing paused, is the client gone); the bytes go through the same
transport uvicorn writes to, so what the stream's task sent before is on the wire first.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

EXTENSION = "aeon.live_connection"
"""The key of ``scope["extensions"]`` that holds the request's ``Connection``."""


def chunk(body: bytes) -> bytes:
    """``body`` as one HTTP/1.1 chunk, as uvicorn frames what a streaming response sends."""
    return b"%x\r\n%s\r\n" % (len(body), body)


class Connection:
    """Where a live stream's bytes can be written without its task, and who to tell
    when its client goes."""

    __slots__ = ("_cycle", "on_lost")

    def __init__(self, cycle: RequestResponseCycle) -> None:
        # Weak: the scope holds this, and the cycle holds the scope; a strong reference
        # would make every request a reference cycle left for the garbage collector.
        # The cycle lives as long as its request (uvicorn's task holds it).
        self._cycle = weakref.ref(cycle)
        self.on_lost: Callable[[], None] | None = None
        """Called once the client is gone (by the server's protocol)."""

    @classmethod
    def of(cls, scope: Any) -> Connection | None:
        """The connection of the request ``scope`` is for, if the server exposed it."""
        connection = scope.get("extensions", {}).get(EXTENSION)
        if not isinstance(connection, Connection) or scope.get("method") != "GET":
            return None
        return connection

    def lost(self) -> None:
        """The server's protocol saw the connection end."""
        callback, self.on_lost = self.on_lost, None
        if callback is not None:
            callback()

    @property
    def following(self) -> bool:
        """The response is started as chunks and still open: direct writes are possible."""
        cycle = self._cycle()
        return (
            cycle is not None
            and bool(cycle.response_started and cycle.chunked_encoding)
            and not (cycle.response_complete or cycle.disconnected)
        )

    @property
    def transport(self) -> asyncio.Transport | None:
        cycle = self._cycle()
        return cycle.transport if cycle is not None else None

    @property
    def gone(self) -> bool:
        cycle = self._cycle()
        return cycle is None or cycle.disconnected or cycle.transport.is_closing()

    def write(self, framed: bytes) -> bool:
        """Write ``framed`` (chunks) now, unless the client is not keeping up (uvicorn
        paused writing: the stream's own task then sends, awaiting the client) or gone;
        False when nothing was written."""
        cycle = self._cycle()
        if cycle is None or cycle.flow.write_paused or cycle.disconnected:
            return False
        if cycle.response_complete:
            return False
        transport: asyncio.Transport = cycle.transport
        if transport.is_closing():
            return False
        getattr(transport, "write_now", transport.write)(framed)
        return True
