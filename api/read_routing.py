"""Which database answers a read: a streaming replica that has replayed far enough, else
the primary (docs/scale-out.md#reads-from-replicas).

A read goes to a replica only when the client states the freshness it needs, as the
version of the encounter it has already seen or written: ``X-Min-Version``, ``?at=N``,
``after_version``, ``Last-Event-ID`` or an ``If-None-Match`` ETag.  A replica behind that
version is skipped; when none has caught up the read waits a bounded moment, then the
primary answers (events/replicas.py).  A read that states
nothing goes to the primary: the service cannot know what that client has written.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any
from uuid import UUID

from litestar import Request
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from api.headers import none_match_version, stream_version
from api.problems import problem
from api.state import Services
from events.replicas import ReadFrom

MIN_VERSION_HEADER = "X-Min-Version"


def stated_version(request: Request[Any, Any, Any], min_version: str | None) -> int | None:
    """The encounter version the client says it has seen, or None if it states none.

    ``X-Min-Version`` is checked here (a 400 naming it); the other parameters belong to
    their routes, which refuse malformed values themselves, so those are only read when
    they are well formed.
    """
    stated: list[int] = []
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
    if (version := none_match_version(request.headers.get("if-none-match"))) is not None:
        stated.append(version)
    return max(stated) if stated else None


async def provide_read_from(
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    encounter_id: FromPath[UUID],
    min_version: Annotated[
        str | None,
        HeaderParameter(
            name=MIN_VERSION_HEADER,
            description="The encounter version this read must include, such as the version "
            "your last write returned: lets a read replica answer without losing your write.",
        ),
    ] = None,
) -> AsyncIterator[ReadFrom]:
    """Where this read of one encounter runs (the ``read_from`` dependency); a replica's
    connection goes back to its pool once the response is made."""
    replicas = services.replicas
    version = stated_version(request, min_version)
    if replicas is None:
        yield ReadFrom(services.pool, replica=False)
    elif version is None:
        replicas.served["primary-unstated"] += 1
        yield ReadFrom(services.pool, replica=False)
    else:
        async with replicas.reader(services.pool, encounter_id, version) as read:
            yield read
