"""How the service is served: uvicorn, one worker per core, tuned for small machines.

Two things uvicorn does not do on its own, both measured with ``bench.throughput``: each
worker listens on its own socket, so connections spread over the workers, and a
response's head and body leave in one write (on the tested uvicorn only: the protocol
that does it is built on uvicorn's internals, api/uvicorn_internals.py).
"""

from __future__ import annotations

import contextlib
import socket
import sys
from collections.abc import Callable
from typing import cast

import uvicorn
from uvicorn.supervisors import Multiprocess

from api.uvicorn_internals import http_protocol


def run_uvicorn(
    host: str,
    port: int,
    workers: int,
    log_level: str,
    factory: str | Callable[[], object] = "api.app:create_app",
    trusted_proxies: tuple[str, ...] = (),
) -> None:
    """``uvicorn.run`` on an app factory (the service's, built from the command line's
    settings, or bench.floor's, by name), except that with
    several workers each worker listens on its own socket where the system balances them.

    uvicorn binds one socket in the parent and lets every worker accept from it: whichever
    worker wakes first takes the connection, and with keep-alive clients one worker can end
    up with most of them while the other core idles (measured: 25 of 32 connections on one
    of two workers).  On Linux each worker gets its own listening socket on the port with
    SO_REUSEPORT instead, and the kernel spreads new connections over them by address hash.

    Responses go out in one write where uvicorn is the tested version (``http_protocol``).

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from
    ``trusted_proxies`` (AEON_TRUSTED_PROXIES), none by default: uvicorn on its own trusts
    them from loopback (or from its FORWARDED_ALLOW_IPS), so anyone on the machine, or any
    local proxy that passes the header through, could choose the address a request is
    counted under.

    The listening sockets are declared as TCP, on Linux or not: uvicorn's
    ``Config.bind_socket`` leaves the socket's ``proto`` at 0; accepted sockets inherit it,
    asyncio then never sets TCP_NODELAY on them, and every keep-alive response after the
    first waits ~40 ms for the client's delayed ACK (a uvicorn shortcoming; measured here:
    48 ms per command with --workers 2 against 3 ms with one worker).
    """
    config = uvicorn.Config(
        factory,
        factory=True,
        http=http_protocol(),
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
    # uvicorn raises the Ctrl-C it caught again once its graceful shutdown is done: the
    # service has stopped by then, so it ends without a traceback (the caller's finally
    # stops an embedded PostgreSQL).
    if config.workers <= 1:
        with contextlib.suppress(KeyboardInterrupt):
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
