"""``/metrics``: Litestar's Prometheus plugin, the domain metrics of telemetry/metrics.py,
the pool sampler, and the order of the observing middleware (api/request_log.py logs).

HTTP metrics are Litestar's (``aeon_http_*``), with paths grouped by route template, since
paths carry encounter ids.  A live-update stream is counted as a request but kept out of
the duration histogram: an open stream is not a slow request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import asyncpg
from litestar import Request, Response, get
from litestar.enums import ScopeType
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.plugins.prometheus.middleware import PrometheusMiddleware
from litestar.types import Message, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess

from api.request_log import RequestLog
from telemetry import metrics, multiprocess

METRICS_PATH = "/metrics"
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
    """Litestar's, with streams left out of the duration histogram, labelled children
    remembered, and two of its per-request steps made cheaper (measured in-process: they
    were most of the middleware's cost): the labels no longer parse the request's URL,
    which ``group_path`` then discards, and the send wrapper is a plain closure rather
    than one ``functools.wraps`` copies attributes onto."""

    _remembered: ClassVar[dict[str, _Remembered]] = {}

    def _remember(self, name: str, metric: Any) -> Any:
        remembered = self._remembered.get(name)
        if remembered is None:
            remembered = self._remembered[name] = _Remembered(metric)
        return remembered

    def _get_default_labels(self, request: Request[Any, Any, Any]) -> dict[str, str | int | float]:
        scope = request.scope
        return {
            "method": scope["method"] if scope["type"] == ScopeType.HTTP else scope["type"],
            "path": scope["path_template"],
            "status_code": 200,
            "app_name": self._config.app_name,
        }

    def _get_wrapped_send(self, send: Send, request_span: dict[str, float]) -> Send:
        async def wrapped_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                request_span["status_code"] = message["status"]
            elif message["type"] == "http.response.body":
                request_span["duration"] = time.perf_counter() - request_span["start_time"]
            await send(message)

        return wrapped_send

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
