"""Every error leaves as an RFC 9457 problem document (Litestar's problem-details plugin).

Domain exceptions map to statuses here and nowhere else, so controllers stay thin and a
client can rely on the shape: ``type``, ``title``, ``status``, ``detail`` and, where useful,
extra members such as ``current_version`` on a conflict or ``errors`` on bad input.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import asyncpg
import msgspec
from litestar.exceptions import HTTPException
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsException

from events.errors import IdempotencyKeyReused, StreamNotFound, VersionConflict
from events.upcasting import MissingUpcaster
from service.authorize import Forbidden
from service.dice.model import DiceError, DiceNeeded
from service.history import CannotUndo, NothingToRedo
from service.loading import EventNotFolded, VersionNotReached
from service.options import InvalidOption
from service.registry import UnknownRuleset
from service.requests import RequestTooLarge, TooManyRequests
from service.ruleset import RuleViolation
from service.tokens import TokenRevoked
from service.write.refusals import StreamDamaged
from telemetry import metrics

PROBLEM_BASE = "https://aeon-ledger.dev/problems/"


def problem(status: int, slug: str, detail: str, **extra: Any) -> ProblemDetailsException:
    return ProblemDetailsException(
        status_code=status,
        type_=PROBLEM_BASE + slug,
        title=HTTPStatus(status).phrase,
        detail=detail,
        extra=extra or None,
    )


def _http(exc: HTTPException) -> ProblemDetailsException:
    slugs = {
        400: "bad-request",
        401: "unauthorized",
        403: "forbidden",
        404: "not-found",
        405: "method-not-allowed",
        413: "body-too-large",
        415: "unsupported-media-type",
        429: "rate-limited",
    }
    errors = exc.extra if isinstance(exc.extra, list) else None
    extra: dict[str, Any] = dict(exc.extra) if isinstance(exc.extra, dict) else {}
    if errors:
        extra["errors"] = errors
    detail = exc.detail or HTTPStatus(exc.status_code).phrase
    if exc.status_code == 413:
        detail = "The request body is larger than this service accepts."
    return ProblemDetailsException(
        status_code=exc.status_code,
        type_=PROBLEM_BASE + slugs.get(exc.status_code, str(exc.status_code)),
        title=HTTPStatus(exc.status_code).phrase,
        detail=detail,
        headers=exc.headers,
        extra=extra or None,
    )


def _conflict(exc: VersionConflict) -> ProblemDetailsException:
    p = problem(409, "version-conflict", str(exc), current_version=exc.actual)
    p.headers = {"ETag": f'"{exc.actual}"'}
    return p


def _unavailable(exc: Exception) -> ProblemDetailsException:
    p = problem(503, "storage-unavailable", "The event store cannot be reached; try again shortly.")
    p.headers = {"Retry-After": "2"}
    return p


def unauthorized(detail: str) -> ProblemDetailsException:
    exc = problem(401, "unauthorized", detail)
    exc.headers = {"WWW-Authenticate": 'Bearer realm="aeon-ledger"'}
    return exc


def token_refused() -> ProblemDetailsException:
    """The one answer to a token that opens nothing here, wherever it is found out: a
    wrong, a revoked and another encounter's token look alike, so a holder learns nothing
    of which it is (whether it was ever valid, whether the GM revoked it)."""
    return unauthorized("the token is not valid for this encounter (wrong, revoked or another's)")


def _not_folded(exc: EventNotFolded) -> ProblemDetailsException:
    # Logged and counted: an operator must hear of it, and the client can only report it.
    logging.getLogger("aeon_ledger.api").error("stream not folded: %s", exc)
    metrics.event_not_folded()
    return problem(
        503,
        "event-not-folded",
        f"The stored history of this encounter cannot be read back: {exc}. Its verify"
        " report (GET /encounters/<id>/verify?deep=true) says what is wrong.",
        version=exc.version,
    )


def _damaged(exc: StreamDamaged) -> ProblemDetailsException:
    # Logged: an operator must hear of it, and the client can only report it.
    logging.getLogger("aeon_ledger.api").error("damaged stream: %s", exc)
    return problem(
        503,
        "stream-damaged",
        "The stored history of this encounter is damaged: its stored rows go past its"
        " events (as when events were deleted in the database), so nothing was written."
        f" Run GET /encounters/{exc.stream_id}/verify?deep=true to see what is wrong; once"
        " the events are restored (or accepted as they are), `aeon-ledger projections"
        " rebuild` re-derives the rest from them.",
    )


def _revoked(exc: TokenRevoked) -> ProblemDetailsException:
    return token_refused()


def _option(exc: InvalidOption) -> ProblemDetailsException:
    error = {"message": exc.reason, "source": "body"}
    if exc.key:
        error["key"] = f"options.{exc.key}"
    return problem(422, "invalid-options", str(exc), errors=[error])


def _rule(exc: RuleViolation) -> ProblemDetailsException:
    return problem(422, "rule-violation", exc.reason, **({"rule": exc.rule} if exc.rule else {}))


_MAP: dict[type[Exception], Callable[[Any], ProblemDetailsException]] = {
    HTTPException: _http,
    StreamNotFound: lambda e: problem(
        404, "encounter-not-found", f"No encounter has id {e.stream_id}."
    ),
    VersionConflict: _conflict,
    IdempotencyKeyReused: lambda e: problem(422, "idempotency-key-reused", str(e)),
    RuleViolation: _rule,
    InvalidOption: _option,
    CannotUndo: lambda e: problem(422, "cannot-undo", str(e)),
    Forbidden: lambda e: problem(403, "forbidden", str(e)),
    RequestTooLarge: lambda e: problem(422, "request-too-large", str(e)),
    TooManyRequests: lambda e: problem(409, "too-many-requests-waiting", str(e)),
    TokenRevoked: _revoked,
    StreamDamaged: _damaged,
    EventNotFolded: _not_folded,
    NothingToRedo: lambda e: problem(409, "nothing-to-redo", str(e)),
    VersionNotReached: lambda e: problem(404, "version-not-found", str(e), current_version=e.head),
    DiceNeeded: lambda e: problem(
        422, "dice-needed", str(e), dice_needed=msgspec.to_builtins(e.needed)
    ),
    DiceError: lambda e: problem(422, "invalid-dice", str(e)),
    UnknownRuleset: lambda e: problem(422, "unknown-ruleset", str(e)),
    msgspec.ValidationError: lambda e: problem(400, "bad-request", str(e)),
    MissingUpcaster: lambda e: problem(500, "internal", "An event could not be read."),
    asyncpg.PostgresConnectionError: _unavailable,
    asyncpg.CannotConnectNowError: _unavailable,
    asyncpg.TooManyConnectionsError: _unavailable,
    asyncpg.InterfaceError: _unavailable,
    # A failover (docs/scale-out.md): the primary shutting down, no host accepting writes
    # yet (a multi-host DATABASE_URL before the promotion), a write reaching a standby.
    asyncpg.AdminShutdownError: _unavailable,
    asyncpg.CrashShutdownError: _unavailable,
    asyncpg.TargetServerAttributeNotMatched: _unavailable,
    asyncpg.ReadOnlySQLTransactionError: _unavailable,
    ConnectionError: _unavailable,
    OSError: _unavailable,
    TimeoutError: _unavailable,
}


def problem_details_config() -> ProblemDetailsConfig:
    return ProblemDetailsConfig(
        enable_for_all_http_exceptions=True, exception_to_problem_detail_map=_MAP
    )


def _internal(exc: Exception) -> ProblemDetailsException:
    # Logged with its traceback here; the client gets no internals.
    logging.getLogger("aeon_ledger.api").error("unhandled error", exc_info=exc)
    return problem(500, "internal", "The server failed to handle this request; it was logged.")


_MAP[Exception] = _internal


def _too_deep(exc: RecursionError) -> ProblemDetailsException:
    # msgspec gives up on JSON nested deeper than it follows (found by tests/reliability/
    # test_abuse.py); any other RecursionError is a bug and stays a logged 500.
    if "deserializing" in str(exc):
        return problem(400, "bad-request", "The JSON body is nested too deeply.")
    return _internal(exc)


# Litestar decodes the body itself and lets these two through untranslated: a string with
# bytes that are not UTF-8, and nesting beyond the decoder's depth, would be answered 500.
_MAP[UnicodeDecodeError] = lambda e: problem(
    400, "bad-request", f"The request body is not valid UTF-8 ({e.reason} at byte {e.start})."
)
_MAP[RecursionError] = _too_deep


def _out_of_range(exc: asyncpg.DataError) -> ProblemDetailsException:
    # A request value that passed validation but not PostgreSQL's types (an integer past
    # int4 in a path or query parameter, found by schemathesis): the client's to fix, so a
    # 400; logged, because the route should have bounded the parameter.
    logging.getLogger("aeon_ledger.api").warning("request value rejected by PostgreSQL: %s", exc)
    return problem(400, "bad-request", "A value in the request is out of the accepted range.")


_MAP[asyncpg.DataError] = _out_of_range


# PostgreSQL stores no NUL character in text (a JSON "\u0000" in a name, say): a 400 that
# names it, rather than the generic one above.
_MAP[asyncpg.UntranslatableCharacterError] = lambda e: problem(
    400,
    "bad-request",
    "Text in the request holds the NUL character (\\u0000), which cannot be stored.",
)
