"""Structured log lines, one per request (a command's also tells what the command did),
rendered by structlog as JSON (one object a line) or, on a terminal, as plain text.

Litestar's ``StructLoggingConfig`` (api/http/request_log.py) installs the processors below;
this module only says what a line holds.  Never a token: the viewer's token id is the
public half (``<id>.<secret>``), the secret is never seen here.
"""

from __future__ import annotations

import sys
from typing import Any

import msgspec
import structlog
from structlog.typing import Processor

_encode = msgspec.json.Encoder(enc_hook=repr).encode
"""A value JSON has no form for (an exception's class, an object a library put in a
record) is written as its repr, so the line is never lost to it."""


def _serialize(event: Any, **_: Any) -> bytes:
    return _encode(event)


def _serialize_text(event: Any, **_: Any) -> str:
    return _encode(event).decode()


def processors(*, as_json: bool) -> list[Processor]:
    """JSON lines for log collectors; readable text for a person at a terminal."""
    common: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if as_json:
        return [
            *common,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_serialize),
        ]
    return [*common, structlog.dev.ConsoleRenderer(colors=False)]


def stdlib_processors(*, as_json: bool) -> list[Processor]:
    """For the standard library's records (every ``logging`` logger: ours, uvicorn's,
    asyncpg's): with the logger's name, and the traceback rendered as text, since a
    record's exception is a live object (an asyncpg error's class has a metaclass of its
    own) that no JSON encoder can write."""
    common: list[Processor] = [
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        structlog.stdlib.ProcessorFormatter.remove_processors_meta,
    ]
    if as_json:
        return [
            *common,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_serialize_text),
        ]
    return [*common, structlog.dev.ConsoleRenderer(colors=False)]


def logger_factory(*, as_json: bool) -> Any:
    """Bytes straight to stdout for JSON (msgspec encodes to bytes); text otherwise."""
    if as_json:
        return structlog.BytesLoggerFactory()
    return structlog.WriteLoggerFactory()


def stdout_is_terminal() -> bool:
    return sys.stdout.isatty()


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


_log = structlog.get_logger("aeon_ledger")


def request_line(fields: dict[str, Any]) -> None:
    """method, path, route, status, duration_ms and the request's facts."""
    _log.info("request", **fields)


def command_line(fields: dict[str, Any]) -> None:
    """A request's fields and the command's: command_type, outcome, version, events."""
    _log.info("command", **fields)
