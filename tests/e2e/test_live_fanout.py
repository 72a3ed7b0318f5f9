"""Live fan-out: one feed per encounter per process hands the same encoded
messages to every stream of an audience.

What must hold whatever the feed does: a wake-up lost in transit still reaches every
stream (the feed's own safety-net read), a slow stream delays no other and, once it reads
again, misses nothing, and a player's stream never carries the GM's encoding.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import httpx

from api.app import create_app
from api.routes.live import _stream
from api.settings import Settings
from api.state import Services
from api.uvicorn_internals import CoalescingHttpToolsProtocol
from projections.inline import read_model_rows
from service.commands import Actor
from service.core_events import NoteAdded
from service.tokens import Viewer
from service.write.pipeline import CommandPipeline
from tests.e2e.helpers import combatant, inner_events
from tests.scaleout.live_client import Subscriber
from tests.scaleout.sse import Message, parse
from tests.support.live import (
    HIT,
    PROTOCOLS,
    SECRET_CHECK,
    bearer,
    eventually,
    open_encounter,
    post_command,
    raw_stream,
    read_until,
    serving,
)

SECRET_NOTE = "the dragon is the duke in disguise"


@PROTOCOLS
async def test_a_wake_up_lost_in_transit_still_reaches_every_subscriber(
    database_url: str, protocol: type[asyncio.Protocol] | None
) -> None:
    """A commit by a writer that announces nothing (a process that died between its
    commit and its NOTIFY, say): the feed's safety-net read finds it for all streams."""
    settings = Settings(database_url=database_url, live_poll_seconds=0.3)
    app = create_app(settings)
    async with serving(app, http=protocol) as url, httpx.AsyncClient(base_url=url) as http:
        eid, gm = await open_encounter(http, "Lost")
        head = await post_command(http, eid, gm, combatant("aria", 20))
        subscribers = [Subscriber(url, eid, gm) for _ in range(12)]
        try:
            for subscriber in subscribers:
                subscriber.start()
            for subscriber in subscribers:
                await subscriber.wait_for(head, within=5)
            services: Services = app.state.services
            silent = CommandPipeline(
                services.pool, read_model_rows, chain_key=settings.chain_key_bytes
            )
            await silent.add_note(UUID(eid), NoteAdded(text="unannounced"), actor=Actor(role="gm"))
            for subscriber in subscribers:
                await subscriber.wait_for(head + 1, within=5)
            assert all(s.versions == list(range(1, head + 2)) for s in subscribers)
            assert services.live is not None and len(services.live.hub.feeds) == 1
        finally:
            for subscriber in subscribers:
                await subscriber.close()


async def _collect(stream: AsyncIterator[bytes], into: list[str]) -> None:
    async for chunk in stream:
        into.extend(chunk.decode().splitlines())


async def test_a_slow_subscriber_delays_no_other_and_misses_nothing(database_url: str) -> None:
    """Four streams of one feed with a backlog of three messages: one stops reading (its
    client is slow); the others get every event while it waits; it then catches up from
    PostgreSQL, without a gap or a duplicate."""
    settings = Settings(database_url=database_url, live_backlog=3, live_poll_seconds=60)
    app = create_app(settings)
    async with serving(app) as url, httpx.AsyncClient(base_url=url) as http:
        eid, gm = await open_encounter(http, "Slow")
        head = await post_command(http, eid, gm, combatant("aria", 50))
        services: Services = app.state.services
        live = services.live
        assert live is not None
        encounter = UUID(eid)
        gm_viewer = Viewer(role="gm")
        fast_lines: list[list[str]] = [[], [], []]
        fast = [
            asyncio.create_task(
                _collect(_stream(live, services, encounter, gm_viewer, "gm", head, 0, None), lines)
            )
            for lines in fast_lines
        ]
        slow = _stream(live, services, encounter, gm_viewer, "gm", head, 0, None)
        slow_lines = (await anext(slow)).decode().splitlines()  # the preamble, then it stalls
        try:
            for n in range(12):
                head = await post_command(
                    http, eid, gm, {"type": "generic.damage", "target": "aria", "amount": 1}
                )
            for _ in range(250):  # five seconds
                if all(_last(lines) == head for lines in fast_lines):
                    break
                await asyncio.sleep(0.02)
            (subscriber,) = [
                s for s in live.hub.feeds[encounter].subscribers if not s.backlog and s.overflowed
            ] or [None]
            assert subscriber is not None, "the slow stream's backlog should have overflowed"
            for lines in fast_lines:
                assert [m.id for m in parse(lines)] == list(range(1, head + 1))
            async with asyncio.timeout(5):
                while _last(slow_lines) < head:
                    slow_lines.extend((await anext(slow)).decode().splitlines())
            assert [m.id for m in parse(slow_lines)] == list(range(1, head + 1))
        finally:
            for task in fast:
                task.cancel()
            await asyncio.gather(*fast, return_exceptions=True)
            await slow.aclose()


async def _follow_raw(
    http: httpx.AsyncClient,
    eid: str,
    headers: dict[str, str],
    until: int,
    into: list[bytes],
    *,
    bounded: bool = True,
) -> None:
    """The stream's bytes up to the event of ``until``: bounded by ``until_version`` (the
    stream sends through ASGI), or followed and left there (so the feed writes to it,
    when the server lets it)."""
    path = f"/encounters/{eid}/live" + (f"?until_version={until}" if bounded else "")
    async with http.stream("GET", path, headers=headers) as response:
        assert response.status_code == 200
        async for chunk in response.aiter_bytes():
            into.append(chunk)
            if not bounded and b"\nid: %d\r\n" % until in b"".join(into):
                return


@PROTOCOLS
async def test_a_player_stream_never_receives_the_gm_encoding(
    database_url: str, protocol: type[asyncio.Protocol] | None
) -> None:
    """GM and player streams of one feed, open while a secret roll and a GM-only note are
    made: the player's bytes hold neither the roll's result nor the note, the GM's do;
    whether the streams send what the feed hands them or the feed writes to them."""
    settings = Settings(database_url=database_url, live_poll_seconds=60)
    app = create_app(settings)
    bounded = protocol is None
    async with serving(app, http=protocol) as url, httpx.AsyncClient(base_url=url) as http:
        eid, gm = await open_encounter(http, "Secrets")
        for who in ("aria", "grak"):
            await post_command(http, eid, gm, combatant(who, 20, ac=10))
        minted = await http.post(
            f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=gm
        )
        player = bearer(minted.json()["token"])
        start = (await http.get(f"/encounters/{eid}", headers=gm)).json()["version"]
        gm_bytes: list[bytes] = []
        player_bytes: list[bytes] = []
        until = start + 2
        streams = [
            asyncio.create_task(_follow_raw(http, eid, gm, until, gm_bytes, bounded=bounded)),
            asyncio.create_task(
                _follow_raw(http, eid, player, until, player_bytes, bounded=bounded)
            ),
        ]
        await asyncio.sleep(0.3)  # both streams are following the feed
        services: Services = app.state.services
        assert services.live is not None
        followers = services.live.hub.feeds[UUID(eid)].subscribers
        assert len(followers) == 2 and all(s.direct is not bounded for s in followers)
        secret = await http.post(
            f"/encounters/{eid}/commands",
            json={"command": SECRET_CHECK, "hidden": True},
            headers=gm,
        )
        assert secret.status_code == 200, secret.text
        total = inner_events(secret.json()["events"])[0]["data"]["rolls"][0]["total"]
        note = await http.post(
            f"/encounters/{eid}/notes", json={"text": SECRET_NOTE, "gm_only": True}, headers=gm
        )
        assert note.status_code == 200, note.text
        async with asyncio.timeout(10):
            await asyncio.gather(*streams)
        gm_seen = parse(b"".join(gm_bytes).decode().splitlines())
        player_seen = parse(b"".join(player_bytes).decode().splitlines())
        assert (
            [m.id for m in gm_seen][-2:] == [m.id for m in player_seen][-2:] == [until - 1, until]
        )
        assert SECRET_NOTE.encode() in b"".join(gm_bytes)
        assert SECRET_NOTE.encode() not in b"".join(player_bytes)
        (sealed,) = [m for m in player_seen if m.id == until - 1]
        assert "events" not in sealed.data["data"]  # the envelope's public form alone
        assert _roll(gm_seen, until - 1)["total"] == total
        gm_messages = {m.id: m for m in gm_seen}
        for message in player_seen:  # what differs for players is never the GM's message
            if message.id >= until - 1:
                assert message != gm_messages[message.id]


def _roll(messages: list[Message], version: int) -> dict[str, Any]:
    (message,) = [m for m in messages if m.id == version]
    found: dict[str, Any] = message.data["data"]["events"][0]["data"]["rolls"][0]
    return found


def _last(lines: list[str]) -> int:
    messages = parse(lines)
    return messages[-1].id if messages else 0


_ID = re.compile(rb"\nid: (\d+)\r\n")


async def test_a_stream_written_by_the_feed_is_handed_back_when_its_client_stalls(
    database_url: str,
) -> None:
    """Served as ``aeon-ledger serve`` serves (the feed writes to caught-up connections):
    one client stops reading, its connection's buffers fill, the feed stops writing to
    it and its own stream reads what it missed from PostgreSQL while the other streams
    get every event at once; once the client reads again it has every event once, in
    order, and the feed writes to it again."""
    settings = Settings(database_url=database_url, live_poll_seconds=60)
    app = create_app(settings)
    served = serving(app, http=CoalescingHttpToolsProtocol)
    async with served as url, httpx.AsyncClient(base_url=url) as http:
        eid, gm = await open_encounter(http, "Stall")
        head = await post_command(http, eid, gm, combatant("aria", 50))
        services: Services = app.state.services
        assert services.live is not None
        hub = services.live.hub
        fast = [Subscriber(url, eid, gm) for _ in range(3)]
        stalled = await raw_stream(url, eid, gm)
        try:
            for subscriber in fast:
                subscriber.start()
                await subscriber.wait_for(head, within=5)
            feed = hub.feeds[UUID(eid)]
            await eventually(
                lambda: len(feed.subscribers) == 4 and all(s.direct for s in feed.subscribers)
            )
            (slow,) = [s for s in feed.subscribers if _peer(s) == stalled.getsockname()]
            assert slow.connection is not None
            transport = slow.connection.transport
            assert transport is not None
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            transport.set_write_buffer_limits(high=4096)
            note = {"text": "x" * 2000}
            for _ in range(200):
                response = await http.post(f"/encounters/{eid}/notes", json=note, headers=gm)
                assert response.status_code == 200, response.text
                head = response.json()["version"]
                if not slow.direct:
                    break
            assert not slow.direct, "the stalled client's buffers never filled"
            for subscriber in fast:  # nobody waits for the stalled client
                await subscriber.wait_for(head, within=5)
                assert subscriber.versions == list(range(1, head + 1))
            head = await post_command(http, eid, gm, HIT)
            received = await read_until(stalled, head)
            assert [int(v) for v in _ID.findall(received)] == list(range(1, head + 1))
            await eventually(lambda: slow.direct)  # caught up: the feed writes to it again
            head = await post_command(http, eid, gm, HIT)
            received += await read_until(stalled, head, seen=received)
            assert [int(v) for v in _ID.findall(received)] == list(range(1, head + 1))
            # Clients that go end their streams at once (no write is needed to notice:
            # the protocol tells the stream), and the feed with the last of them.
            stalled.close()
            for subscriber in fast:
                await subscriber.close()
            await eventually(lambda: UUID(eid) not in hub.feeds, within=3)
        finally:
            stalled.close()
            for subscriber in fast:
                await subscriber.close()


def _peer(subscriber: Any) -> object:
    transport = subscriber.connection.transport
    return transport.get_extra_info("peername") if transport is not None else None
