"""What every write to an encounter carries besides its body: who writes (the token's
actor), the If-Match version, the Idempotency-Key and the body's fingerprint.

Built once, as the ``write`` dependency, so each write route is only its body and its
rule, and no write route can forget that a spectator token writes nothing; the headers
still appear in every write operation of the OpenAPI document.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request
from litestar.di import NamedDependency
from litestar.params import HeaderParameter

from api.http.auth import actor_of
from api.http.headers import (
    MAX_FREE_TEXT,
    chain_head,
    etag,
    expected_version,
    idempotency_key,
)
from api.http.responses import read_answer_head
from api.settings import Settings
from events.idempotency import request_fingerprint
from service.commands import Write
from service.requests import RequestLimits
from service.tokens import Viewer

IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match", description='Expected stream version, e.g. "7"; 409 if it moved.'
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(name="Idempotency-Key", description="Same key, same body: appended once."),
]
CorrelationId = Annotated[
    str | None, HeaderParameter(name="X-Correlation-ID", max_length=MAX_FREE_TEXT)
]


async def provide_write(
    request: Request[Any, Any, Any],
    viewer: NamedDependency[Viewer],
    if_match: IfMatch = None,
    idempotency: IdempotencyKey = None,
    correlation: CorrelationId = None,
) -> Write:
    key = scoped_key(viewer, idempotency_key(idempotency))
    return Write(
        actor=actor_of(viewer, correlation),
        expected_version=expected_version(if_match),
        idempotency_key=key,
        # Only a key's replay compares requests; without one the hash would go unused.  The
        # route is part of it: the same key and body sent to another route (an empty body
        # to /redo after /dice/reveal) is another request, a 422, never the first's answer.
        request_hash=request_fingerprint(
            f"{request.method} {request.url.path}\n".encode() + await request.body()
        )
        if key
        else "",
    )


def scoped_key(viewer: Viewer, key: str | None) -> str | None:
    """The key as stored: under the token that sent it, so a key seen in another actor's
    events replays nothing of theirs; a replay only ever answers the caller's own write."""
    if key is None:
        return None
    return f"{viewer.token_id or viewer.role}/{key}"


def answer_headers(response: bytes) -> dict[str, str]:
    """ETag and Aeon-Chain-Head of a command's answer, read from the answer itself (its
    last event's hash is the head).  No signature: the answer may be a replay read from
    the database, and signing what the database says would sign a forgery."""
    head = read_answer_head(response)
    headers = {"ETag": etag(head.version)}
    if (moved := head.chain_head()) is not None:
        headers.update(chain_head(*moved))
    return headers


def request_limits(settings: Settings) -> RequestLimits:
    """The caps the operator set on players' requests waiting for the GM (asked for, or
    held while a secret is open)."""
    return RequestLimits(
        per_token=settings.max_pending_requests, max_bytes=settings.max_request_bytes
    )
