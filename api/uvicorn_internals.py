"""Everything the service builds on uvicorn's private internals, in one place, used only
on the uvicorn versions it was tested with.

Two optimisations reach below uvicorn's public API: the HTTP protocol sends what a loop
turn writes in one system call (``CoalescingHttpToolsProtocol``), and a caught-up live
stream's connection is handed to the encounter's feed (``Connection``), which reads and
sets the request cycle's state and the protocol's flow control.  A release of uvicorn
may rename any of that without notice, so ``http_protocol`` checks the installed version
at start-up: on one it does not know, the service serves with uvicorn's own httptools
protocol and says so in a warning; responses then leave in two writes, and live streams
send through ASGI (no ``Connection`` is offered), slower but correct.

A live stream's connection: the service's protocol puts a ``Connection`` on each
request in ``scope["extensions"][EXTENSION]`` and tells it when the client goes
(``lost``) and when the server shuts down.  With ten thousand streams, handing each
message to each stream's own task cost most of the service's CPU and most of the
delivery latency, and an idle stream that kept its ASGI call open kept everything a
request holds while it runs.  A stream that has caught up therefore hands its connection
over (``take_over``): the ASGI call returns, the feed writes each chunk straight to the
connection, and the stream's record (api/live/follow.py) ends the response when it must.
The bytes go through the transport uvicorn writes to, so what the stream sent through
ASGI before is on the wire first.
"""

from __future__ import annotations

import asyncio
import logging
import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import uvicorn

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # a uvicorn other than the tested one, where nothing below is used
    HttpToolsProtocol = asyncio.Protocol  # type: ignore[misc,assignment]

if TYPE_CHECKING:
    from uvicorn.protocols.http.flow_control import FlowControl
    from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

log = logging.getLogger("aeon_ledger")

TESTED = (0, 54)
"""The uvicorn release (major, minor) whose internals this module was written against."""

EXTENSION = "aeon.live_connection"
"""The key of ``scope["extensions"]`` that holds the request's ``Connection``."""

_LAST_CHUNK = b"0\r\n\r\n"

_DETACHED_SCOPE: Any = {"type": "http", "method": "GET"}
"""What a taken-over request cycle keeps of its scope: the request's own scope holds
Litestar's per-request state, which would otherwise live as long as the stream."""


def known(version: str | None = None) -> bool:
    """Whether ``version`` (the installed uvicorn's by default) is the tested release."""
    release = re.match(r"(\d+)\.(\d+)", version or uvicorn.__version__)
    return release is not None and (int(release[1]), int(release[2])) == TESTED


def http_protocol(version: str | None = None) -> type[asyncio.Protocol] | str:
    """The HTTP protocol to serve with: the coalescing one on the tested uvicorn, else
    uvicorn's own httptools protocol, with a warning that says what is given up."""
    if known(version):
        return CoalescingHttpToolsProtocol
    log.warning(
        "uvicorn %s is not the tested %d.%d: serving with uvicorn's own HTTP protocol "
        "(a response's head and body in two writes, live streams through ASGI)",
        version or uvicorn.__version__,
        *TESTED,
    )
    return "httptools"


def chunk(body: bytes) -> bytes:
    """``body`` as one HTTP/1.1 chunk, as uvicorn frames what a streaming response sends."""
    return b"%x\r\n%s\r\n" % (len(body), body)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with what it writes in one turn of the event loop
    sent in one system call, and each request's ``Connection`` offered to the app.

    uvicorn writes a response's status line and headers as soon as the app starts the
    response, and the body when it sends it: two writes, two packets, and a client woken
    twice.  Both happen in the same turn of the loop, so holding writes until the turn
    ends joins them.  On a small virtual machine each write that wakes another process
    costs tens of microseconds on both sides (bench/README.md).
    """

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(cast(asyncio.Transport, _TurnBuffered(transport, self.loop)))

    _live: Connection | None = None
    _owning: Connection | None = None
    """A taken-over stream's connection while a pipelined request behind it has its own."""

    def on_headers_complete(self) -> None:
        """Also hands the request's connection to the app (``scope["extensions"]``), so a
        live stream's feed can write to it, the stream learns when the client goes
        without a task of its own reading ``receive``, and a caught-up stream can leave
        its response to this protocol."""
        previous = self._live
        super().on_headers_complete()
        if previous is not None and previous.owned:
            self._owning = previous
        cycle = self.cycle
        if cycle is not None and cycle.scope is self.scope:
            self._live = Connection(cycle, self)
            extensions: dict[str, Any] = self.scope.setdefault("extensions", {})
            extensions[EXTENSION] = self._live

    def forget_request(self, scope: object) -> None:
        """Drop this protocol's references to ``scope`` and its headers: its response was
        taken over and only the connection stays (the next request's ``on_message_begin``
        sets new ones before anything reads them).  Kept when the protocol has moved on
        to a pipelined request's."""
        if self.scope is scope:
            self.scope = cast(Any, None)
            self.headers = cast(Any, None)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        for live in (self._owning, self._live):
            if live is not None:
                live.lost()
        self._owning = None

    def shutdown(self) -> None:
        """A taken-over live stream ends now (its last chunk, then the connection
        closes), rather than holding the shutdown until its timeout."""
        super().shutdown()
        for live in (self._owning, self._live):
            if live is not None and live.owned:
                live.shutting_down()


class _TurnBuffered:
    """A transport whose writes wait for the end of the current loop turn; everything
    else is the wrapped transport's, with held bytes sent first where order matters."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._held is None:
            self._held = [data]
            self._loop.call_soon(self._flush)
        else:
            self._held.append(data)

    def write_now(self, data: bytes) -> None:
        """Write without waiting for the turn to end (after what is held): for writes
        made outside a response's own turn, such as a live feed's to each of its
        streams, where holding would only add a callback per write."""
        if self._held is None:
            self._transport.write(data)
        else:
            self._held.append(data)

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def _flush(self) -> None:
        held, self._held = self._held, None
        if held and not self._transport.is_closing():
            self._transport.write(b"".join(held))

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._flush()
        self._transport.set_protocol(protocol)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class Server(Protocol):
    """What a ``Connection`` needs of the server's protocol."""

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
