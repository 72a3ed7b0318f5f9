"""Serving the app for live-stream tests: uvicorn in the test's own event loop, with the
protocol ``aeon-ledger serve`` uses or uvicorn's own, and the few steps every live test
takes (open an encounter, post a command, read a raw stream up to a version)."""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from litestar import Litestar

from api.uvicorn_internals import CoalescingHttpToolsProtocol
from tests.support.processes import free_port

SECRET_CHECK = {
    "type": "generic.check",
    "combatant": "grak",
    "notation": "1d20+2",
    "label": "Perception",
    "target_number": 15,
}
"""A check the GM may roll hidden: a player's stream must not show its dice."""

HIT = {"type": "generic.damage", "target": "aria", "amount": 1}

PROTOCOLS = pytest.mark.parametrize(
    "protocol", [CoalescingHttpToolsProtocol, None], ids=["written-by-the-feed", "through-asgi"]
)
"""Each live test twice: served as ``aeon-ledger serve`` serves, where a caught-up
stream is written by its feed, and by uvicorn's own protocol, where it is not."""

_ID = re.compile(rb"\nid: (\d+)\r\n")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@asynccontextmanager
async def serving(
    app: Litestar, *, http: type[asyncio.Protocol] | str | None = None
) -> AsyncIterator[str]:
    """The app on a spare loopback port, served by uvicorn in this event loop; with
    ``http`` the protocol ``aeon-ledger serve`` uses, so caught-up live streams are
    written by their feed (api/uvicorn_internals.py), else uvicorn's own, so they are not."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=2,
        http=http or "auto",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        async with asyncio.timeout(20):
            while not server.started:
                assert not task.done(), "uvicorn stopped while starting"
                await asyncio.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def open_encounter(http: httpx.AsyncClient, name: str) -> tuple[str, dict[str, str]]:
    """A new generic encounter's id and its GM's authorization header."""
    created = await http.post("/encounters", json={"ruleset": "generic", "name": name})
    assert created.status_code == 201, created.text
    return created.json()["encounter_id"], bearer(created.json()["gm_token"])


async def post_command(http: httpx.AsyncClient, eid: str, gm: dict[str, str], cmd: Any) -> int:
    """Post ``cmd``, which must succeed; the encounter's version after it."""
    response = await http.post(f"/encounters/{eid}/commands", json={"command": cmd}, headers=gm)
    assert response.status_code == 200, response.text
    version: int = response.json()["version"]
    return version


async def eventually(condition: Callable[[], bool], within: float = 5) -> None:
    for _ in range(int(within / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    assert condition()


async def raw_stream(url: str, eid: str, headers: dict[str, str]) -> socket.socket:
    """A live stream's connection that reads nothing until told to, with a small
    receive buffer so the server's writes back up soon."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, (host, int(port)))
    lines = [f"GET /encounters/{eid}/live HTTP/1.1", f"host: {host}:{port}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    await loop.sock_sendall(sock, ("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


async def read_until(sock: socket.socket, version: int, seen: bytes = b"") -> bytes:
    """What arrives on ``sock`` until the event of ``version`` has."""
    loop, received = asyncio.get_running_loop(), b""
    async with asyncio.timeout(10):
        while version not in [int(v) for v in _ID.findall(seen + received)]:
            chunk = await loop.sock_recv(sock, 65536)
            assert chunk, "the server closed the stream"
            received += chunk
    return received
