"""Live updates of one encounter as Server-Sent Events, resumable from a version.

Why SSE rather than a WebSocket: the stream only flows one way, SSE's ``id`` and the
``Last-Event-ID`` header a reconnecting ``EventSource`` sends are exactly "resume after
version N", and it is plain HTTP (auth header, proxies, curl).

Each step reads the events after the last version sent from PostgreSQL, a page at a time,
and sends them; a wake-up from the channels plugin, or the fallback poll when none comes,
triggers the next step.  Versions of a stream commit in order, so reading "after the last
one sent" can neither skip nor repeat an event, whatever the notifications do.  One page
is the most a subscriber holds: sending awaits the client, so a slow one only slows itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any
from uuid import UUID

import asyncpg
import msgspec
from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from api.auth import bearer_token
from api.headers import stream_version
from api.live import Live
from api.live_channels import channel_of, revoked_token
from api.problems import problem
from api.routes.base import EncounterRoutes
from api.routes.reads import ensure_version, events_as_seen
from api.state import Services
from events.envelope import RecordedEvent
from events.store import read_stream
from service.tokens import Viewer, authenticate
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

RETRY_MS = 1000
"""Sent as ``retry:``: how long an EventSource waits before reconnecting."""

_encode = msgspec.json.Encoder().encode
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
    start: int,
    until: int | None,
    still_valid: Callable[[], Awaitable[bool]],
) -> AsyncIterator[ServerSentEventMessage]:
    yield ServerSentEventMessage(data=None, retry=RETRY_MS, comment=f"after version {start}")
    wake = asyncio.Event()
    revoked = asyncio.Event()

    async def on_notice(notice: bytes) -> None:
        metrics.live_woken()
        if viewer.token_id is not None and revoked_token(notice) == viewer.token_id:
            revoked.set()
        wake.set()

    last = start
    quiet_since = checked_at = time.monotonic()
    async with (
        metrics.live_subscriber(),
        live.plugin.start_subscription(channel_of(encounter_id)) as subscriber,
        # join=False: a wake-up dropped by the one-slot backlog is never marked done,
        # so waiting for the backlog to drain could wait forever.
        subscriber.run_in_background(on_notice, join=False),
    ):
        while until is None or last < until:
            if revoked.is_set() and not await still_valid():
                return  # revoked: the reconnect will get its 401
            wake.clear()  # before reading: a commit during the read wakes the next step
            try:
                events = await read_stream(
                    services.pool,
                    encounter_id,
                    after_version=last,
                    up_to_version=until,
                    limit=live.page,
                )
                messages = await _messages(services, encounter_id, viewer, events)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                # Headers are long sent: end the stream cleanly; the client reconnects
                # with Last-Event-ID (and sees 503 while the database is away).
                log.warning("live stream of %s ends: database unavailable (%r)", encounter_id, exc)
                return
            if events:
                metrics.live_sent(len(messages))
                for message in messages:
                    yield message
                last = events[-1].stream_version
                quiet_since = time.monotonic()
                if len(events) == live.page or last == until:
                    continue
            now = time.monotonic()
            if now - checked_at >= live.keepalive_seconds:
                if not await still_valid():
                    return  # revoked: the reconnect will get its 401
                checked_at = now
            if now - quiet_since >= live.keepalive_seconds:
                yield ServerSentEventMessage(data=None, comment="keepalive")
                quiet_since = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), live.poll_seconds)
            if not wake.is_set():
                metrics.live_polled()


async def _messages(
    services: Services, encounter_id: UUID, viewer: Viewer, events: list[RecordedEvent]
) -> list[ServerSentEventMessage]:
    out = await events_as_seen(services, encounter_id, viewer, events)
    return [
        ServerSentEventMessage(id=e.stream_version, event=e.type, data=_encode(e).decode())
        for e in out
    ]


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
    ) -> ServerSentEvent:
        """A stream of the encounter's events as they are appended: each message has
        `id` = stream version, `event` = event type and `data` = the event as
        `GET /events` shows it (secret GM rolls redacted for players). The backlog after
        `after_version` (or `Last-Event-ID`) comes first, then new events, without a gap or a
        duplicate. Idle streams get a comment every 15 s."""
        start = _resume_point(after_version, last_event_id)
        await ensure_version(services, encounter_id, start)
        live = services.live
        assert live is not None
        token = bearer_token(request)

        async def still_valid() -> bool:
            if viewer.token_id is None or token is None:  # the service key: nothing to revoke
                return True
            return await authenticate(services.pool, encounter_id, token) is not None

        stream = _stream(live, services, encounter_id, viewer, start, until_version, still_valid)
        return ServerSentEvent(stream)
