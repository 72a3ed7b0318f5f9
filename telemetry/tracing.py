"""Traces, off unless the standard ``OTEL_*`` variables ask for them and the ``otel`` extra
is installed (``pip install 'aeon-ledger[otel]'``).

On: Litestar's OpenTelemetry plugin traces each request, the asyncpg instrumentation each
statement, and ``span`` adds the service's own steps (decide, the write statement, the
fan-out) under them.  The OpenTelemetry SDK reads the rest of its configuration
(``OTEL_SERVICE_NAME``, ``OTEL_RESOURCE_ATTRIBUTES``, the exporter's endpoint and headers,
sampling) from the environment itself.  Off: ``span`` is a shared empty context manager,
a few tens of nanoseconds per call.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator, Mapping
from typing import Any

log = logging.getLogger("aeon_ledger.tracing")

_tracer: Any = None
_NOTHING = contextlib.nullcontext()


def requested(env: Mapping[str, str] | None = None) -> bool:
    """Whether the environment asks for traces: an exporter other than ``none``, or an
    OTLP endpoint, and the SDK not disabled."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter:
        return exporter != "none"
    return bool(
        env.get("OTEL_EXPORTER_OTLP_ENDPOINT") or env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    )


def plugins() -> list[Any]:
    """Set tracing up when asked (once per process); the Litestar plugins it needs."""
    if not requested():
        return []
    try:
        from litestar.plugins.opentelemetry import OpenTelemetryConfig, OpenTelemetryPlugin
        from opentelemetry import trace
    except ImportError as exc:
        log.warning("OTEL_* asks for traces but the otel extra is not installed (%s)", exc)
        return []
    if _tracer is None:
        start(_exporter())
    return [OpenTelemetryPlugin(OpenTelemetryConfig(tracer_provider=trace.get_tracer_provider()))]


def start(exporter: Any, *, batch: bool = True) -> None:
    """Export this process's spans to ``exporter`` (batched, unless a test needs each
    span at once) and trace asyncpg's statements."""
    global _tracer
    from opentelemetry import trace
    from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor

    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    processor = BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter)
    provider.add_span_processor(processor)
    AsyncPGInstrumentor().instrument()  # type: ignore[no-untyped-call]
    _tracer = trace.get_tracer("aeon_ledger")


def stop() -> None:
    """No more spans of our own or of asyncpg (the provider, set once, stays)."""
    global _tracer
    if _tracer is None:
        return
    from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor

    AsyncPGInstrumentor().uninstrument()  # type: ignore[no-untyped-call]
    _tracer = None


def _exporter() -> Any:
    kind = os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower()
    if kind == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    return OTLPSpanExporter()


def span(name: str, **attributes: Any) -> contextlib.AbstractContextManager[Any]:
    """A span named ``name`` around a step of the service, when tracing is on."""
    if _tracer is None:
        return _NOTHING
    return _started(name, attributes)


@contextlib.contextmanager
def _started(name: str, attributes: dict[str, Any]) -> Iterator[Any]:
    with _tracer.start_as_current_span(name, attributes=attributes) as current:
        yield current
