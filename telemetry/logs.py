"""Structured log lines, one per request (a command's also tells what the command did),
rendered by structlog as JSON (one object a line) or, on a terminal, as plain text.

Litestar's ``StructLoggingConfig`` (api/http/request_log.py) installs the processors below;
this module only says what a line holds.  Never a token: the viewer's token id is the
public half (``<id>.<secret>``), the secret is never seen here.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, NamedTuple

import msgspec
import structlog
from structlog.typing import Processor

from telemetry import timestamps

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
        timestamps.stamp,  # TimeStamper(fmt="iso", utc=True)'s text, cheaper
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


class _Chain(NamedTuple):
    processors: list[Processor]
    logger: Any
    info: Any


class _Lines:
    """One line per request through the configured processors, without a bound logger.

    ``log.info(event, **fields)`` on structlog's bound logger copies the fields three
    times (keyword arguments twice, the context once) around the processors: near half
    of what a line cost.  The same processors and logger, taken once when the first line
    is written (as the logger caches itself then, ``cache_logger_on_first_use``), render
    the same line from the fields themselves.  Used only where it gives the same line as
    the bound logger: a filtering bound logger that lets ``info`` through, with nothing
    bound; otherwise every line goes through the bound logger.
    """

    def __init__(self, name: str) -> None:
        self._name = name
        self._log = structlog.get_logger(name)
        self._chain: _Chain | None = None
        self._taken = False

    def write(self, event: str, fields: dict[str, Any]) -> None:
        """``fields`` becomes the event dict: the caller hands it over."""
        if not self._taken:
            self._chain, self._taken = self._take_chain(), True
        chain = self._chain
        if chain is None:
            self._log.info(event, **fields)
            return
        fields["event"] = event
        event_dict: Any = fields
        try:
            for processor in chain.processors:
                event_dict = processor(chain.logger, "info", event_dict)
        except structlog.DropEvent:
            return
        # What the last processor returned, passed on as a bound logger passes it.
        if isinstance(event_dict, (str, bytes, bytearray)):
            chain.info(event_dict)
        elif isinstance(event_dict, tuple):
            args, kwargs = event_dict
            chain.info(*args, **kwargs)
        elif isinstance(event_dict, dict):
            chain.info(**event_dict)
        else:
            raise ValueError(f"the last log processor returned a {type(event_dict)}")

    def _take_chain(self) -> _Chain | None:
        config = structlog.get_config()
        bound = self._log.bind()
        if (
            config["cache_logger_on_first_use"]
            and callable(enabled_for := getattr(bound, "is_enabled_for", None))
            and enabled_for(logging.INFO)
            and not structlog.get_context(bound)
        ):
            logger = config["logger_factory"](self._name)
            return _Chain(list(config["processors"]), logger, logger.info)
        return None


_lines = _Lines("aeon_ledger")


def request_line(fields: dict[str, Any]) -> None:
    """method, path, route, status, duration_ms and the request's facts (``fields`` is
    handed over: it becomes the line's event dict)."""
    _lines.write("request", fields)


def command_line(fields: dict[str, Any]) -> None:
    """A request's fields and the command's: command_type, outcome, version, events."""
    _lines.write("command", fields)
