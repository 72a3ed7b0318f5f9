"""How the service is served: uvicorn, one worker per core, tuned for small machines.

Two things uvicorn does not do on its own, both measured with ``bench.throughput``: each
worker listens on its own socket, so connections spread over the workers, and a
response's head and body leave in one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from typing import Any, cast

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

from api import live_transport


def run_uvicorn(
    host: str,
    port: int,
    workers: int,
    log_level: str,
    factory: str = "api.app:create_app",
    trusted_proxies: tuple[str, ...] = (),
) -> None:
    """``uvicorn.run`` on an app factory (the service's, or bench.floor's), except that with
    several workers each worker listens on its own socket where the system balances them.

    uvicorn binds one socket in the parent and lets every worker accept from it: whichever
    worker wakes first takes the connection, and with keep-alive clients one worker can end
    up with most of them while the other core idles (measured: 25 of 32 connections on one
    of two workers).  On Linux each worker gets its own listening socket on the port with
    SO_REUSEPORT instead, and the kernel spreads new connections over them by address hash.

    Responses go out in one write (``CoalescingHttpToolsProtocol``).

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from
    ``trusted_proxies`` (AEON_TRUSTED_PROXIES), none by default: uvicorn on its own trusts
    them from loopback (or from its FORWARDED_ALLOW_IPS), so anyone on the machine, or any
    local proxy that passes the header through, could choose the address a request is
    counted under.

    The listening sockets are declared as TCP, on Linux or not: uvicorn's
    ``Config.bind_socket`` leaves the socket's ``proto`` at 0; accepted sockets inherit it,
    asyncio then never sets TCP_NODELAY on them, and every keep-alive response after the
    first waits ~40 ms for the client's delayed ACK (uvicorn issue 3149; measured here:
    48 ms per command with --workers 2 against 3 ms with one worker).
    """
    config = uvicorn.Config(
        factory,
        factory=True,
        http=CoalescingHttpToolsProtocol,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        access_log=False,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=list(trusted_proxies),
        # Open live-update streams would otherwise hold a SIGTERM shutdown forever.
        timeout_graceful_shutdown=5,
    )
    if config.workers <= 1:
        uvicorn.Server(config).run()
        return
    if sys.platform == "linux":
        # Bound but not listening: it holds the port (and picks it, for port 0) without
        # ever being given a connection.
        reserved = reuse_port_socket(config.host, config.port)
        listener = _OwnListener(config.host, reserved.getsockname()[1])
        sockets = [cast(socket.socket, listener)]
    else:
        bound = config.bind_socket()
        reserved = socket.socket(bound.family, bound.type, socket.IPPROTO_TCP, bound.detach())
        reserved.set_inheritable(True)
        sockets = [reserved]
    with reserved, contextlib.suppress(KeyboardInterrupt):
        Multiprocess(config, sockets=sockets).run()


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` with SO_REUSEPORT, not yet listening."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


class _OwnListener:
    """What the parent hands uvicorn as the workers' listening socket: uvicorn pickles it
    into each worker it spawns (and respawns), and it unpickles there as that worker's own
    SO_REUSEPORT socket."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        return reuse_port_socket, (self.host, self.port)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with what it writes in one turn of the event loop
    sent in one system call.

    uvicorn writes a response's status line and headers as soon as the app starts the
    response, and the body when it sends it: two writes, two packets, and a client woken
    twice.  Both happen in the same turn of the loop, so holding writes until the turn
    ends joins them.  On a small virtual machine each write that wakes another process
    costs tens of microseconds on both sides (bench/README.md).
    """

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(cast(asyncio.Transport, _TurnBuffered(transport, self.loop)))

    _live: live_transport.Connection | None = None
    _owning: live_transport.Connection | None = None
    """A taken-over stream's connection while a pipelined request behind it has its own."""

    def on_headers_complete(self) -> None:
        """Also hands the request's connection to the app (``scope["extensions"]``), so a
        live stream's feed can write to it, the stream learns when the client goes
        without a task of its own reading ``receive``, and a caught-up stream can leave
        its response to this protocol (api/live_transport.py)."""
        previous = self._live
        super().on_headers_complete()
        if previous is not None and previous.owned:
            self._owning = previous
        cycle = self.cycle
        if cycle is not None and cycle.scope is self.scope:
            self._live = live_transport.Connection(cycle, self)
            extensions: dict[str, Any] = self.scope.setdefault("extensions", {})
            extensions[live_transport.EXTENSION] = self._live

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
