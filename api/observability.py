"""What an operator sees: ``/metrics`` (Litestar's Prometheus plugin and the domain metrics
of telemetry/metrics.py), one log line per request and per command, and the pool sampler.

HTTP metrics are Litestar's (``aeon_http_*``), with paths grouped by route template, since
paths carry encounter ids.  A live-update stream is counted as a request but kept out of
the duration histogram: an open stream is not a slow request.  Commands are counted here,
where every outcome is known, including the ones decided before the pipeline runs (a
rate limit, a token refused, a body that does not decode).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import asyncpg
from litestar import Response, get
from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.logging.config import StructLoggingConfig
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.plugins.prometheus.middleware import PrometheusMiddleware
from litestar.plugins.structlog import StructlogConfig, StructlogPlugin
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess

from telemetry import context, logs, metrics, multiprocess

METRICS_PATH = "/metrics"
CORRELATION_HEADER = "x-correlation-id"
_STREAMING_SUFFIX = "/live"
"""Route templates ending so are event streams: counted, not timed."""
_POOL_SAMPLE_SECONDS = 1.0


class _Untimed:
    """A histogram that observes nothing (for streams)."""

    def labels(self, *_: Any) -> _Untimed:
        return self

    def observe(self, *_: Any, **__: Any) -> None:
        return None


class _Remembered:
    """A metric whose labelled children are looked up once per set of label values
    (prometheus_client checks the values and takes a lock on every ``labels`` call)."""

    def __init__(self, metric: Any) -> None:
        self._metric = metric
        self._children: dict[tuple[Any, ...], Any] = {}

    def labels(self, *values: Any) -> Any:
        child = self._children.get(values)
        if child is None:
            child = self._children[values] = self._metric.labels(*values)
        return child


class _Middleware(PrometheusMiddleware):
    """Litestar's, with streams left out of the duration histogram and labelled
    children remembered."""

    _remembered: ClassVar[dict[str, _Remembered]] = {}

    def _remember(self, name: str, metric: Any) -> Any:
        remembered = self._remembered.get(name)
        if remembered is None:
            remembered = self._remembered[name] = _Remembered(metric)
        return remembered

    def request_count(self, labels: dict[str, str | int | float]) -> Any:
        return self._remember("count", super().request_count(labels))

    def request_time(self, labels: dict[str, str | int | float]) -> Any:
        if str(labels["path"]).endswith(_STREAMING_SUFFIX):
            return _Untimed()
        return self._remember("time", super().request_time(labels))

    def requests_in_progress(self, labels: dict[str, str | int | float]) -> Any:
        return self._remember("in_progress", super().requests_in_progress(labels))

    def requests_error_count(self, labels: dict[str, str | int | float]) -> Any:
        return self._remember("errors", super().requests_error_count(labels))


def prometheus_config() -> PrometheusConfig:
    return PrometheusConfig(
        app_name="aeon-ledger",
        prefix="aeon_http",
        group_path=True,
        exclude=[METRICS_PATH],
        middleware_class=_Middleware,
        buckets=[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    )


class MetricsController(PrometheusController):
    """``/metrics``: the Prometheus text format, every worker's figures added up."""

    path = METRICS_PATH
    include_in_schema = False

    @get(sync_to_thread=False, include_in_schema=False)
    def get(self) -> Response[bytes]:
        directory = multiprocess.directory()
        registry = REGISTRY
        if directory is not None:
            multiprocess.forget_dead_workers(directory)
            registry = CollectorRegistry()
            prometheus_multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})


def logging_plugin(*, as_json: bool | None = None) -> StructlogPlugin:
    """Litestar's structlog support with our processors; its own request logging (two
    lines per request, without a duration) is left off for ``RequestLog``'s one line."""
    json_lines = not logs.stdout_is_terminal() if as_json is None else as_json
    config = StructLoggingConfig(
        processors=logs.processors(as_json=json_lines),
        logger_factory=logs.logger_factory(as_json=json_lines),
        pretty_print_tty=not json_lines,
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


class RequestLog:
    """One log line per request (a command's with the command's fields); counts commands.

    A command is any POST but minting a token: writes to an encounter and creating one.
    The correlation id is the client's ``X-Correlation-ID`` (also recorded in the events'
    metadata) or a fresh one, and is echoed on the answer.
    """

    def __init__(self, app: ASGIApp, *, log: bool = True) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        started = time.perf_counter()
        correlation = _header(scope, CORRELATION_HEADER) or uuid.uuid4().hex
        encounter = scope["path_params"].get("encounter_id")
        facts = context.RequestFacts(
            correlation_id=correlation,
            encounter_id=str(encounter) if encounter is not None else None,
        )
        context.begin(facts)
        status = 500

        async def send_noting(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [
                    *message.get("headers", ()),
                    (CORRELATION_HEADER.encode(), correlation.encode()),
                ]
            await send(message)

        try:
            await self.app(scope, receive, send_noting)
        except HTTPException as refused:  # from a middleware (the rate limit): answered outside
            status = refused.status_code
            raise
        finally:
            duration_ms = round((time.perf_counter() - started) * 1000, 3)
            route = scope.get("path_template", scope["path"])
            is_command = method == "POST" and not route.endswith("/tokens")
            outcome = command_outcome(status)
            if is_command:
                metrics.command(outcome)
            if self.log:
                _log_lines(
                    scope,
                    method,
                    route,
                    status,
                    duration_ms,
                    facts,
                    outcome if is_command else None,
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


def _header(scope: Scope, name: str) -> str | None:
    wanted = name.encode()
    for key, value in scope["headers"]:
        if key == wanted:
            text = value.decode("latin-1").strip()[:200]
            # Echoed on the answer and logged: printable ASCII only, else a fresh one.
            return text if text and text.isascii() and text.isprintable() else None
    return None


def middleware(
    *, metrics_on: bool, log_requests: bool, rate_limit: DefineMiddleware | None
) -> list[DefineMiddleware]:
    """Outermost first: the request log (which times everything and counts commands),
    the rate limit, then the HTTP metrics.

    The rate limit raises its 429 for Litestar to answer outside every middleware, so a
    middleware around it sees an exception, not the answer: the request log reads the
    status from the exception; Litestar's Prometheus middleware would count it as a 200,
    so it sits inside, and a refused request is counted by ``aeon_rate_limited_total``
    and ``aeon_commands_total{outcome="rate"}`` instead of ``aeon_http_*``."""
    stack = []
    if metrics_on or log_requests:
        stack.append(DefineMiddleware(RequestLog, log=log_requests))
    if rate_limit is not None:
        stack.append(rate_limit)
    if metrics_on:
        stack.append(prometheus_config().middleware)
    return stack


@contextlib.asynccontextmanager
async def sampling_pool(pool: asyncpg.Pool) -> AsyncIterator[None]:
    """Connections open, in use and waited for, sampled every second into gauges.

    asyncpg has no hook on acquire; the number of waiters is read from its queue's
    waiting getters (an asyncio.Queue detail, read defensively)."""
    if not metrics.enabled():
        yield
        return

    async def sample() -> None:
        while True:
            open_ = pool.get_size()
            idle = pool.get_idle_size()
            queue = getattr(pool, "_queue", None)
            waiting = len(getattr(queue, "_getters", ()) or ())
            metrics.pool_sampled(open_, open_ - idle, pool.get_max_size(), waiting)
            await asyncio.sleep(_POOL_SAMPLE_SECONDS)

    task = asyncio.create_task(sample(), name="pool-sampler")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
