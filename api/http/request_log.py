"""One log line per request, a command's with what the command did, the correlation id
and the command counter, for the observing middleware (api/http/observing.py); and
Litestar's structlog support set up to render the lines (telemetry/logs.py says what a
line holds).

Commands are counted at the end of a request, where every outcome is known, including
the ones decided before the pipeline runs (a rate limit, a token refused, a body that
does not decode).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import time

import structlog
from litestar.logging.config import LoggingConfig, StructLoggingConfig
from litestar.plugins.structlog import StructlogConfig, StructlogPlugin
from litestar.types import HTTPScope, Scope

from telemetry import context, logs, metrics

CORRELATION_HEADER = "x-correlation-id"
_ID_KEY = os.urandom(16)
_KEYED = hashlib.blake2b(key=_ID_KEY, digest_size=16)
"""The hash with the key absorbed, copied per id: cheaper than keying a new one."""
_numbers = itertools.count()


def _fresh_id() -> str:
    """32 hex digits: this process's count of requests under a keyed hash (a key of 128
    random bits per process), unique across processes and unpredictable.  Not the count
    itself: every answer carries its id back, so a player could subtract two of theirs
    and learn how many requests others sent in between (how many times the GM was asked
    for more dice, which a secret roll's faces decide).  A uuid4 per request cost a
    system call and a UUID object; the hash costs neither."""
    keyed = _KEYED.copy()
    keyed.update(next(_numbers).to_bytes(8, "big"))
    return keyed.hexdigest()


def logging_plugin(*, as_json: bool | None = None) -> StructlogPlugin:
    """Litestar's structlog support with our processors; its own request logging (two
    lines per request, without a duration) is left off for our one line."""
    json_lines = not logs.stdout_is_terminal() if as_json is None else as_json
    json_records = not logs.stderr_is_terminal() if as_json is None else as_json
    records = LoggingConfig(  # the standard library's records, to stderr
        formatters={
            "standard": {
                "()": structlog.stdlib.ProcessorFormatter,
                "processors": logs.stdlib_processors(as_json=json_records),
            }
        }
    )
    config = StructLoggingConfig(
        processors=logs.processors(as_json=json_lines),
        logger_factory=logs.logger_factory(as_json=json_lines),
        pretty_print_tty=not json_lines,
        standard_lib_logging_config=records,
        log_exceptions="never",  # problems.py logs unhandled errors with their traceback
    )
    return StructlogPlugin(
        StructlogConfig(structlog_logging_config=config, enable_middleware_logging=False)
    )


def command_outcome(status: int) -> str:
    """A command's outcome from its answer: accepted, or the class of its refusal."""
    if status < 400:
        return "accepted"
    if status in (401, 403):
        return "auth"
    if status == 429:
        return "rate"
    if status == 409:
        return "conflict"
    if status == 422:
        return "rule"
    if status == 404:
        return "not_found"
    if status in (400, 413, 415):
        return "invalid"
    if status == 503:
        return "unavailable"
    return "failed"


def begin(scope: HTTPScope, correlation_header: bytes | None) -> context.RequestFacts:
    """The request's facts, open for the code below to add to: its correlation id (the
    client's ``X-Correlation-ID``, else a fresh one) and the encounter its path names."""
    encounter = scope["path_params"].get("encounter_id")
    facts = context.RequestFacts(
        correlation_id=_correlation(correlation_header) or _fresh_id(),
        encounter_id=str(encounter) if encounter is not None else None,
    )
    context.begin(facts)
    return facts


def finish(
    scope: HTTPScope, facts: context.RequestFacts, status: int, started: float, *, log: bool
) -> None:
    """Count a command by its outcome, and write the request's line when ``log``.

    A command is any POST but minting a token: writes to an encounter and creating one.
    ``started`` is the request's ``time.perf_counter()`` on arrival."""
    duration_ms = round((time.perf_counter() - started) * 1000, 3)
    method: str = scope["method"]
    route: str = scope.get("path_template", scope["path"])
    is_command = method == "POST" and not route.endswith("/tokens")
    outcome = command_outcome(status)
    if is_command:
        metrics.command(outcome)
    if log:
        _log_lines(
            scope, method, route, status, duration_ms, facts, outcome if is_command else None
        )


def _log_lines(
    scope: Scope,
    method: str,
    route: str,
    status: int,
    duration_ms: float,
    facts: context.RequestFacts,
    outcome: str | None,
) -> None:
    """One line per request; a command's says so and adds what the command did."""
    fields = {
        "method": method,
        "path": scope["path"],
        "route": route,
        "status": status,
        "duration_ms": duration_ms,
        "correlation_id": facts.correlation_id,
        "encounter_id": facts.encounter_id,
        "token_id": facts.token_id,
    }
    if outcome is None:
        logs.request_line(fields)
        return
    fields["command_type"] = facts.command_type or route.rsplit("/", 1)[-1]
    fields["outcome"] = outcome
    fields["version"] = facts.version
    fields["events"] = facts.events
    logs.command_line(fields)


def _correlation(value: bytes | None) -> str | None:
    if value is None:
        return None
    text = value.decode("latin-1").strip()[:200]
    # Echoed on the answer and logged: printable ASCII only, else a fresh one.
    return text if text and text.isascii() and text.isprintable() else None
