"""Which database answers a read: a streaming replica that has replayed far enough, else
the primary (docs/scale-out.md#reads-from-replicas).

A read goes to a replica only when the client states the freshness it needs, as the
version of the encounter it has already seen or written: ``X-Min-Version``, ``?at=N``,
``after_version``, ``Last-Event-ID`` or an ``If-None-Match`` ETag.  A replica behind that
version is skipped; when none has caught up the read waits a bounded moment, then the
primary answers (events/replicas.py).  A read that states
nothing goes to the primary: the service cannot know what that client has written.

The live streams' pages are routed the same way (``live_reader``): a feed's read after a
wake-up states the version the wake-up announced, a stream's catch-up the version its
client resumes from.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any
from uuid import UUID

from litestar import Request
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from api.http.headers import none_match_version, stream_version
from api.http.problems import problem
from api.state import Services
from events.db import Database
from events.replicas import Reader, ReadFrom
from telemetry import metrics

MIN_VERSION_HEADER = "X-Min-Version"


def stated_version(request: Request[Any, Any, Any], min_version: str | None) -> int | None:
    """The encounter version the client says it has seen, or None if it states none.

    ``X-Min-Version`` is checked here (a 400 naming it); the other parameters belong to
    their routes, which refuse malformed values themselves, so those are only read when
    they are well formed.
    """
    stated: list[int | None] = []
    if min_version is not None:
        version = stream_version(min_version.strip())
        if version is None:
            raise problem(
                400,
                "bad-min-version",
                f"{MIN_VERSION_HEADER} must be a stream version (digits), such as the "
                "version your last write returned.",
            )
        stated.append(version)
    for name in ("at", "after_version"):
        value = request.query_params.get(name)
        if value is not None and (version := stream_version(value)) is not None:
            stated.append(version)
    last_event_id = request.headers.get("last-event-id")
    if last_event_id is not None and (v := stream_version(last_event_id.strip())) is not None:
        stated.append(v)
    stated.append(none_match_version(request.headers.get("if-none-match")))
    return highest(*stated)


@asynccontextmanager
async def read_at(
    services: Services, encounter_id: UUID, version: int | None, *, live: bool = False
) -> AsyncIterator[ReadFrom]:
    """Where a read of ``encounter_id`` that must include ``version`` runs: a replica
    that has replayed it (after the bounded wait), else the primary; with no ``version``
    the primary.  ``live``: counted with the live streams' reads."""
    replicas = services.replicas
    if replicas is None:
        yield ReadFrom(services.pool, replica=False)
        return
    served, kind = (replicas.live_served, "live") if live else (replicas.served, "request")
    if version is None:
        served["primary-unstated"] += 1
        metrics.read_routed(kind, "primary-unstated")
        yield ReadFrom(services.pool, replica=False)
    else:
        async with replicas.reader(services.pool, encounter_id, version, served) as read:
            metrics.read_routed(kind, "replica" if read.replica else "primary")
            yield read


def live_reader(services: Services) -> Reader:
    """The ``Reader`` of the live feeds (api/live/feed.py): ``read_at`` counted as live."""

    @asynccontextmanager
    async def read(encounter_id: UUID, version: int | None) -> AsyncIterator[Database]:
        async with read_at(services, encounter_id, version, live=True) as where:
            yield where.db

    return read


def highest(*versions: int | None) -> int | None:
    """The most a read must include of the versions stated, or None if none is."""
    stated = [v for v in versions if v is not None]
    return max(stated) if stated else None


MinVersion = Annotated[
    str | None,
    HeaderParameter(
        name=MIN_VERSION_HEADER,
        description="The encounter version this read must include, such as the version "
        "your last write returned: lets a read replica answer without losing your write.",
    ),
]


async def provide_read_from(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    encounter_id: FromPath[UUID],
    min_version: MinVersion = None,
) -> AsyncIterator[ReadFrom]:
    """Where this read of one encounter runs (the ``read_from`` dependency); a replica's
    connection goes back to its pool once the handler has returned (a streamed body
    reads on a connection of its own: ``read_at``)."""
    async with read_at(services, encounter_id, stated_version(request, min_version)) as read:
        yield read
