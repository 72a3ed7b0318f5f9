"""A caught-up live stream left to its connection (api/live/follow.py): its ASGI
call has returned, and what it must still do is done by its record and the protocol.

Served as ``aeon-ledger serve`` serves (``CoalescingHttpToolsProtocol``), on raw sockets
so the exact bytes of the chunked response (its last chunk, what follows it) are seen.
"""

from __future__ import annotations

import asyncio
import gc
import socket
from uuid import UUID

import httpx

from api.app import create_app
from api.live.follow import Follow
from api.live.subscriber import Subscriber
from api.settings import Settings
from api.state import Services
from api.uvicorn_internals import CoalescingHttpToolsProtocol
from tests.e2e.helpers import combatant
from tests.support.live import (
    HIT,
    bearer,
    eventually,
    open_encounter,
    post_command,
    raw_stream,
    read_until,
    serving,
)

_LAST_CHUNK = b"\r\n0\r\n\r\n"


def _request_tasks() -> list[asyncio.Task[object]]:
    """uvicorn's tasks that run an ASGI call (one per request in progress)."""
    return [
        t
        for t in asyncio.all_tasks()
        if getattr(t.get_coro(), "__qualname__", "") == "RequestResponseCycle.run_asgi"
    ]


def _followers(services: Services, eid: str) -> set[Subscriber]:
    assert services.live is not None
    feed = services.live.hub.feeds.get(UUID(eid))
    return set() if feed is None else feed.subscribers


def _owned(subscriber: Subscriber) -> bool:
    return subscriber.direct and subscriber.connection is not None and subscriber.connection.owned


async def _read_until_bytes(
    sock: socket.socket, marker: bytes, received: bytes = b"", count: int = 1
) -> bytes:
    """``received`` and what arrives on ``sock`` until ``marker`` is there ``count`` times."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(10):
        while received.count(marker) < count:
            chunk = await loop.sock_recv(sock, 65536)
            assert chunk, f"closed before {marker!r}: {received[-200:]!r}"
            received += chunk
    return received


async def test_a_taken_over_stream_ends_with_its_last_chunk_when_its_token_is_revoked(
    database_url: str,
) -> None:
    """The player's stream catches up, its request ends (no ASGI call left) and the feed
    writes to it; a request the client pipelines meanwhile waits; the revocation ends the
    response with its last chunk, and the waiting request is answered after it on the
    same connection (keep-alive, as uvicorn does for any response)."""
    settings = Settings(database_url=database_url, live_keepalive_seconds=60, live_poll_seconds=60)
    app = create_app(settings)
    async with (
        serving(app, http=CoalescingHttpToolsProtocol) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        eid, gm = await open_encounter(http, "Revoked")
        head = await post_command(http, eid, gm, combatant("aria", 40))
        minted = await http.post(
            f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=gm
        )
        token, token_id = minted.json()["token"], minted.json()["info"]["token_id"]
        services: Services = app.state.services
        sock = await raw_stream(url, eid, bearer(token))
        try:
            received = await read_until(sock, head)
            await eventually(lambda: any(_owned(s) for s in _followers(services, eid)))
            assert _request_tasks() == [], "a taken-over stream keeps no ASGI call"
            loop = asyncio.get_running_loop()
            await loop.sock_sendall(sock, b"GET /health/live HTTP/1.1\r\nhost: test\r\n\r\n")
            head = await post_command(http, eid, gm, HIT)
            received += await read_until(sock, head, seen=received)
            assert b"HTTP/1.1 200" not in received.split(b"\r\n\r\n", 1)[1]
            revoked = await http.delete(f"/encounters/{eid}/tokens/{token_id}", headers=gm)
            assert revoked.status_code == 204
            received = await _read_until_bytes(sock, b"HTTP/1.1 200", received, count=2)
            cut = received.index(b"HTTP/1.1 200", 1)
            body, after = received[:cut], received[cut:]
            assert body.endswith(_LAST_CHUNK)
            assert body.count(b"\r\n0\r\n\r\n") == 1
            await eventually(lambda: not _followers(services, eid))
            received = await _read_until_bytes(sock, b"ok", after)
            assert b"event-stream" not in received
        finally:
            sock.close()


async def test_a_client_that_goes_frees_its_taken_over_stream(database_url: str) -> None:
    """Three taken-over streams whose clients close their connections: no write is
    needed for their records to leave the feed (the protocol tells them), the feed ends
    with the last, and no record is left behind."""
    settings = Settings(database_url=database_url, live_keepalive_seconds=60, live_poll_seconds=60)
    app = create_app(settings)
    async with (
        serving(app, http=CoalescingHttpToolsProtocol) as url,
        httpx.AsyncClient(base_url=url) as http,
    ):
        eid, gm = await open_encounter(http, "Gone")
        head = await post_command(http, eid, gm, combatant("aria", 40))
        services: Services = app.state.services
        assert services.live is not None
        hub = services.live.hub
        socks = [await raw_stream(url, eid, gm) for _ in range(3)]
        try:
            for sock in socks:
                await read_until(sock, head)
            await eventually(
                lambda: (
                    len(_followers(services, eid)) == 3
                    and all(_owned(s) for s in _followers(services, eid))
                )
            )
            gc.collect()
            assert len([o for o in gc.get_objects() if isinstance(o, Follow)]) == 3
            for sock in socks:
                sock.close()
            await eventually(lambda: UUID(eid) not in hub.feeds, within=3)
            gc.collect()
            assert [o for o in gc.get_objects() if isinstance(o, Follow)] == []
        finally:
            for sock in socks:
                sock.close()


async def test_a_taken_over_stream_ends_cleanly_when_the_server_shuts_down(
    database_url: str,
) -> None:
    """Shutting down, the server ends a taken-over stream at once with its last chunk
    and closes the connection (the client reconnects elsewhere), rather than holding
    the shutdown until its graceful timeout."""
    settings = Settings(database_url=database_url, live_keepalive_seconds=60, live_poll_seconds=60)
    app = create_app(settings)
    served = serving(app, http=CoalescingHttpToolsProtocol)
    url = await served.__aenter__()
    try:
        async with httpx.AsyncClient(base_url=url) as http:
            eid, gm = await open_encounter(http, "Shutdown")
            head = await post_command(http, eid, gm, combatant("aria", 40))
        services: Services = app.state.services
        sock = await raw_stream(url, eid, gm)
        received = await read_until(sock, head)
        await eventually(lambda: any(_owned(s) for s in _followers(services, eid)))
    except BaseException:
        await served.__aexit__(None, None, None)
        raise
    loop = asyncio.get_running_loop()
    started = loop.time()
    stopping = asyncio.create_task(served.__aexit__(None, None, None))
    try:
        async with asyncio.timeout(5):
            while chunk := await loop.sock_recv(sock, 65536):
                received += chunk
        assert received.endswith(_LAST_CHUNK)
        assert loop.time() - started < 1.5, "the stream held the shutdown"
    finally:
        sock.close()
        await stopping
