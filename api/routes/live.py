"""Live updates of one encounter as Server-Sent Events, resumable from a version.

Why SSE rather than a WebSocket: the stream only flows one way, SSE's ``id`` and the
``Last-Event-ID`` header a reconnecting ``EventSource`` sends are exactly "resume after
version N", and it is plain HTTP (auth header, proxies, curl).

A stream first reads what it asked for from PostgreSQL, then sends the messages its
encounter's feed offers (api/live_feed.py): one read and one encoding per audience per
event in this process, whatever the number of streams.  Versions of a stream commit in
order, so "after the last one sent" can neither skip nor repeat an event, whatever the
notifications do.  Sending awaits the client, so a slow one only slows itself.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator
from typing import Annotated, Any
from uuid import UUID

import asyncpg
from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter

from api.headers import stream_version
from api.live import Live
from api.live_feed import Audience
from api.live_response import LiveStream
from api.live_transport import Connection
from api.live_wire import audience_of, encode_for, preamble
from api.problems import problem
from api.read_routing import MinVersion, highest, read_at, stated_version
from api.routes.base import EncounterRoutes
from api.routes.reads import ensure_version
from api.state import Services
from events.store import read_stream
from service.tokens import Viewer
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

_MAX_VERSION = 2**31 - 1
"""Stream versions are PostgreSQL integers; a bound past them must be a 400 up front,
not a database error once the stream has started."""

AfterVersion = Annotated[
    int | None,
    QueryParameter(
        ge=0,
        le=_MAX_VERSION,
        description="Send the events after this stream version (default 0: all of them). "
        "A Last-Event-ID header, as a reconnecting EventSource sends, takes precedence.",
    ),
]
UntilVersion = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        le=_MAX_VERSION,
        description="End the stream once this version has been sent (default: follow forever).",
    ),
]
LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        required=False,
        description="The last stream version received: resume right after it.",
    ),
]


def _resume_point(after_version: int | None, last_event_id: str | None) -> int:
    if last_event_id is not None and last_event_id.strip():
        value = stream_version(last_event_id.strip())
        if value is None:
            raise problem(
                400,
                "bad-header",
                "Last-Event-ID must be the stream version of the last event received",
            )
        return value
    return after_version or 0


async def _stream(
    live: Live,
    services: Services,
    encounter_id: UUID,
    viewer: Viewer,
    audience: Audience,
    head: int,
    start: int,
    until: int | None,
    stated: int | None = None,
    connection: Connection | None = None,
) -> AsyncGenerator[bytes]:
    """Catch up from PostgreSQL, then send what the encounter's feed offers.

    The subscriber joins the feed first and reads from PostgreSQL until a short page:
    that read reaches at least the feed's version at joining, and the feed offers
    everything after it, so skipping what was already sent leaves no gap and no
    duplicate.  After an overflow of its backlog (a slow client), the same catch-up
    again.  When the client stated a version (``stated``), a catch-up page may come from a
    replica that holds both it and the feed's version (api/read_routing.py).

    Once caught up, a stream that follows forever over a ``connection`` the server
    exposed lets the feed write to it (``Subscriber.direct``) and sleeps until it must
    end or catch up again; only what it yielded before is sent by its own task, so the
    bytes reach the client in order."""
    subscriber = live.hub.join(
        encounter_id, head, audience, viewer.token_id, after=start, connection=connection
    )
    page, catching_up = live.hub.page, True
    async with metrics.live_subscriber():
        try:
            yield preamble(start)
            while until is None or subscriber.last < until:
                if subscriber.ended:
                    return  # revoked (the reconnect gets its 401), or the database is away
                if catching_up:
                    subscriber.overflowed = False
                    feed = live.hub.feeds.get(encounter_id)
                    joined = None if feed is None else feed.version
                    needed = None if stated is None else highest(stated, joined)
                    try:
                        async with read_at(services, encounter_id, needed, live=True) as where:
                            events = await read_stream(
                                where.db,
                                encounter_id,
                                after_version=subscriber.last,
                                up_to_version=until,
                                limit=page,
                            )
                            messages = await encode_for(
                                services, encounter_id, audience, events, where.db
                            )
                    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                        # Headers are long sent: end the stream cleanly; the client reconnects
                        # with Last-Event-ID (and sees 503 while the database is away).
                        log.warning("live stream of %s ends: database away (%r)", encounter_id, exc)
                        return
                    metrics.live_sent(len(messages))
                    if messages:
                        yield b"".join(m.data for m in messages)
                    if events:
                        subscriber.last = events[-1].stream_version
                    catching_up = len(events) == page or subscriber.overflowed
                    continue
                if (
                    until is None
                    and connection is not None
                    and connection.following
                    and not subscriber.backlog
                    and not subscriber.overflowed
                ):
                    subscriber.direct = True  # everything before is sent: the feed writes now
                await subscriber.wait()
                for message in subscriber.take():
                    if subscriber.ended:
                        return
                    if message.version is None:
                        yield message.data
                    elif message.version > subscriber.last:
                        if until is not None and message.version > until:
                            return
                        yield message.data
                        subscriber.last = message.version
                catching_up = subscriber.overflowed
        finally:
            subscriber.direct = False
            live.hub.leave(encounter_id, subscriber)


class EncounterLive(EncounterRoutes):
    """Live updates of one encounter."""

    tags = ("live",)

    @get(
        "/live",
        operation_id="followEncounter",
        summary="Live events (Server-Sent Events)",
        media_type="text/event-stream",
    )
    async def follow(
        self,
        request: Request[Any, Any, Any],
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        after_version: AfterVersion = None,
        until_version: UntilVersion = None,
        last_event_id: LastEventId = None,
        min_version: MinVersion = None,
    ) -> LiveStream:
        """A stream of the encounter's events as they are appended: each message has
        `id` = stream version, `event` = event type and `data` = the event as
        `GET /events` shows it (secret GM rolls redacted for players). The backlog after
        `after_version` (or `Last-Event-ID`) comes first, then new events, without a gap or a
        duplicate. Idle streams get a comment every 15 s."""
        start = _resume_point(after_version, last_event_id)
        stated = stated_version(request, min_version)
        async with read_at(services, encounter_id, stated) as where:
            head = await ensure_version(services, encounter_id, start, where.db)
        live = services.live
        assert live is not None
        audience = audience_of(viewer)
        connection = Connection.of(request.scope)
        stream = _stream(
            live,
            services,
            encounter_id,
            viewer,
            audience,
            head.version,
            start,
            until_version,
            stated,
            connection,
        )
        return LiveStream(stream, connection)
