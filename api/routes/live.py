"""Live updates of one encounter as Server-Sent Events, resumable from a version.

Why SSE rather than a WebSocket: the stream only flows one way, SSE's ``id`` and the
``Last-Event-ID`` header a reconnecting ``EventSource`` sends are exactly "resume after
version N", and it is plain HTTP (auth header, proxies, curl).

A stream first reads what it asked for from PostgreSQL, then sends the messages its
encounter's feed offers (api/live/feed.py): one read and one encoding per audience per
event in this process, whatever the number of streams.  Versions of a stream commit in
order, so "after the last one sent" can neither skip nor repeat an event, whatever the
notifications do.  Sending awaits the client, so a slow one only slows itself.  Once
caught up, a stream served by the service's own uvicorn protocol is left to its
connection and the request ends (api/live/follow.py).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated, Any
from uuid import UUID

from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter

from api.http.headers import stream_version
from api.http.problems import problem
from api.http.read_routing import MinVersion, read_at, stated_version
from api.litestar_internals import LiveStream
from api.live.follow import Follow
from api.live.subscriber import Audience
from api.live.wire import audience_of, preamble
from api.live.wiring import Live
from api.routes.base import EncounterRoutes
from api.routes.reads import ensure_version
from api.state import Services
from api.uvicorn_internals import Connection
from service.tokens import Viewer

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
    """The stream's ASGI body: its preamble, then what its ``Follow`` sends
    (api/live/follow.py) until the stream ends or its connection owns it."""
    subscriber = live.hub.join(
        encounter_id, head, audience, viewer.token_id, after=start, connection=connection
    )
    follow = Follow(
        live,
        services,
        encounter_id,
        audience,
        subscriber,
        until=until,
        stated=stated,
        connection=connection,
    )
    try:
        yield preamble(start)
        async for body in follow.chunks():
            yield body
    finally:
        if not follow.owned:
            follow.close()


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
        connection = LiveStream.connection_of(request.scope)
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
