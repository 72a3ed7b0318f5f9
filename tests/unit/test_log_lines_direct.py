"""Request lines written straight through the configured processors (telemetry/logs.py)
are the lines structlog's bound logger writes, and the bound logger still writes them
when the configuration is one the direct path does not cover."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import structlog

from telemetry import logs

_FIELDS: dict[str, Any] = {
    "method": "POST",
    "path": "/encounters/e1/commands",
    "route": "/encounters/{encounter_id}/commands",
    "status": 200,
    "duration_ms": 1.25,
    "correlation_id": "c" * 32,
    "encounter_id": "e1",
    "token_id": None,
    "command_type": "generic.damage",
    "outcome": "accepted",
    "version": 3,
    "events": 1,
}


@pytest.fixture
def restored_structlog() -> Iterator[None]:
    saved = structlog.get_config()
    try:
        yield
    finally:
        structlog.configure(**saved)


def _configure(sink: Any, *, as_json: bool, **extra: Any) -> None:
    structlog.configure(
        processors=logs.processors(as_json=as_json),
        logger_factory=(
            structlog.BytesLoggerFactory(sink) if as_json else structlog.WriteLoggerFactory(sink)
        ),
        cache_logger_on_first_use=True,
        **extra,
    )


def _without_time(line: str, *, as_json: bool) -> Any:
    if as_json:
        parsed = json.loads(line)
        assert parsed.pop("timestamp").endswith("Z")
        return list(parsed.items())  # the order of the fields too
    return line.split(" ", 1)[1]  # the console renderer starts with the timestamp


@pytest.mark.parametrize("as_json", [True, False])
def test_the_direct_line_is_the_bound_loggers_line(restored_structlog: None, as_json: bool) -> None:
    sink: Any = io.BytesIO() if as_json else io.StringIO()
    _configure(sink, as_json=as_json)
    structlog.get_logger("reference").info("command", **_FIELDS)
    direct = logs._Lines("direct")
    direct.write("command", dict(_FIELDS))
    direct.write("request", {"method": "GET", "status": 200})
    assert direct._chain is not None  # the direct path was taken
    text = sink.getvalue().decode() if as_json else sink.getvalue()
    reference, written, request = text.splitlines()
    assert _without_time(written, as_json=as_json) == _without_time(reference, as_json=as_json)
    assert "request" in request


def test_a_configuration_filtering_out_info_still_writes_nothing(restored_structlog: None) -> None:
    sink = io.BytesIO()
    _configure(
        sink, as_json=True, wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING)
    )
    lines = logs._Lines("filtered")
    lines.write("command", dict(_FIELDS))
    assert lines._chain is None
    assert sink.getvalue() == b""
