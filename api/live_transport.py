"""A live stream's connection: written by the encounter's feed, and owned by the server's
protocol once the stream has caught up.

Why: with ten thousand streams, handing each message to each stream's own task (wake the
task, resume its generator, pass the bytes through the ASGI send chain) cost most of the
service's CPU and most of the delivery latency, all of it per subscriber; and an idle
stream that kept its ASGI call open kept everything a request holds while it runs (the
middleware and routing coroutines of Litestar and uvicorn, the request objects, the
scope): most of its memory.  A stream that has caught up and follows its feed therefore
hands its connection over (``take_over``): the ASGI call returns, the feed writes each
chunk, framed once per audience, straight to the connection, and the stream's own record
(api/live_follow.py) ends the chunked response when it must end.

This needs the connection, which ASGI does not expose: the service's uvicorn protocol
(api/serving.py) puts a ``Connection`` on its request cycle in
``scope["extensions"][EXTENSION]`` and tells it when the client goes (``lost``) and when
the server shuts down.  Without it (another server, the test client), or for a response
that is not chunked, streams send through ASGI as before.  Only uvicorn's own state is
read and set (is the response started and chunked, is writing paused, is the response
complete); the bytes go through the same transport uvicorn writes to, so what the stream
sent through ASGI before is on the wire first.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

EXTENSION = "aeon.live_connection"
"""The key of ``scope["extensions"]`` that holds the request's ``Connection``."""

_LAST_CHUNK = b"0\r\n\r\n"

_DETACHED_SCOPE: Any = {"type": "http", "method": "GET"}
"""What a taken-over request cycle keeps of its scope: the request's own scope holds
Litestar's per-request state, which would otherwise live as long as the stream."""


def chunk(body: bytes) -> bytes:
    """``body`` as one HTTP/1.1 chunk, as uvicorn frames what a streaming response sends."""
    return b"%x\r\n%s\r\n" % (len(body), body)


class Server(Protocol):
    """What a ``Connection`` needs of the server's protocol (api/serving.py)."""

    transport: asyncio.Transport
    flow: FlowControl

    def on_response_complete(self) -> None: ...

    def forget_request(self, scope: object) -> None: ...


class Connection:
    """Where a live stream's bytes can be written without its task, who to tell when its
    client goes, and, once taken over, the owner of the stream's response."""

    __slots__ = ("_cycle", "_gone", "_owned", "_server", "on_lost", "on_shutdown")

    def __init__(self, cycle: RequestResponseCycle, server: Server) -> None:
        # Weak: the scope holds this, and the cycle holds the scope; strong references
        # would make every request a reference cycle left for the garbage collector.
        # The cycle lives as long as its request (uvicorn's task holds it), the protocol
        # as long as its connection.
        self._cycle = weakref.ref(cycle)
        self._server = weakref.ref(server)
        self._owned: RequestResponseCycle | None = None
        """The request cycle of a taken-over stream (its ASGI call has returned)."""
        self._gone = False
        self.on_lost: Callable[[], None] | None = None
        """Called once the client is gone (by the server's protocol)."""
        self.on_shutdown: Callable[[], None] | None = None
        """Called when the server shuts down while it owns the stream."""

    @classmethod
    def of(cls, scope: Any) -> Connection | None:
        """The connection of the request ``scope`` is for, if the server exposed it."""
        connection = scope.get("extensions", {}).get(EXTENSION)
        if not isinstance(connection, Connection) or scope.get("method") != "GET":
            return None
        return connection

    def lost(self) -> None:
        """The server's protocol saw the connection end."""
        self._gone = True
        self._owned = None
        callback, self.on_lost = self.on_lost, None
        self.on_shutdown = None
        if callback is not None:
            callback()

    def shutting_down(self) -> None:
        """The server's protocol was asked to shut down (the response is owned)."""
        callback, self.on_shutdown = self.on_shutdown, None
        if self._owned is not None:
            self._owned.keep_alive = False  # end the connection with the stream
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
    def owned(self) -> bool:
        """Taken over, and the client still there."""
        return self._owned is not None

    def take_over(self, on_lost: Callable[[], None]) -> bool:
        """Own the response from now on: the ASGI call may return without ending it.

        uvicorn's cycle is marked disconnected so that it neither ends the response nor
        closes the connection when the call returns, and drops whatever the call still
        sends; the response stays incomplete for uvicorn (a pipelined request waits for
        ``finish``).  False when the response is not an open chunked one."""
        cycle = self._cycle()
        server = self._server()
        if cycle is None or server is None or self._gone or not self.following:
            return False
        if server.transport.is_closing():
            return False
        cycle.disconnected = True
        server.forget_request(cycle.scope)
        cycle.scope = _DETACHED_SCOPE
        self._owned = cycle
        self.on_lost = on_lost
        return True

    @property
    def transport(self) -> asyncio.Transport | None:
        server = self._server()
        return server.transport if server is not None else None

    @property
    def gone(self) -> bool:
        server = self._server()
        return self._gone or server is None or server.transport.is_closing()

    def write(self, framed: bytes) -> bool:
        """Write ``framed`` (chunks) now, unless the client is not keeping up (uvicorn
        paused writing: the stream's record then catches up, awaiting the client) or
        gone; False when nothing was written."""
        server = self._server()
        if server is None or self._owned is None or server.flow.write_paused:
            return False
        transport = server.transport
        if transport.is_closing():
            return False
        getattr(transport, "write_now", transport.write)(framed)
        return True

    async def send(self, body: bytes) -> bool:
        """Write ``body`` as a chunk once the client takes more (flow control); False
        when the client is gone."""
        server = self._server()
        while server is not None and server.flow.write_paused and not self.gone:
            await server.flow.drain()
        if server is None or self._owned is None or self.gone:
            return False
        server.transport.write(chunk(body))
        return True

    def finish(self) -> None:
        """End the owned response as uvicorn ends a chunked one: the last chunk, then the
        connection closes or waits for the next request (keep-alive)."""
        cycle, self._owned = self._owned, None
        self.on_lost = self.on_shutdown = None
        server = self._server()
        if cycle is None or server is None or server.transport.is_closing():
            return
        server.transport.write(_LAST_CHUNK)
        cycle.response_complete = True
        cycle.message_event.set()
        if not cycle.keep_alive:
            server.transport.close()
        server.on_response_complete()
