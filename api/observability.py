"""``/metrics``: Litestar's Prometheus plugin, the domain metrics of telemetry/metrics.py,
the pool sampler, and the order of the observing middleware (api/http/request_log.py logs).

HTTP metrics are Litestar's (``aeon_http_*``), with paths grouped by route template, since
paths carry encounter ids.  A live-update stream is counted as a request but kept out of
the duration histogram: an open stream is not a slow request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Any, ClassVar, NamedTuple

import asyncpg
from litestar import Response, get
from litestar.enums import ScopeType
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.plugins.prometheus.middleware import PrometheusMiddleware
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR
from litestar.types import Message, Receive, Scope, Send
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess

from api.background import running_tasks
from api.http.request_log import RequestLog
from telemetry import metrics, multiprocess

METRICS_PATH = "/metrics"
_STREAMING_SUFFIX = "/live"
"""Route templates ending so are event streams: counted, not timed."""
_POOL_SAMPLE_SECONDS = 1.0


class _Untimed:
    """A histogram child that observes nothing (for streams)."""

    def observe(self, *_: Any, **__: Any) -> None:
        return None


_UNTIMED = _Untimed()


class _Children(NamedTuple):
    """One route's labelled children of Litestar's four HTTP metrics."""

    in_progress: Any
    count: Any
    errors: Any
    time: Any


class _Middleware(PrometheusMiddleware):
    """Litestar's, with streams left out of the duration histogram and a leaner request.

    The metrics, their names and labels are Litestar's own (its ``request_count`` and the
    rest define them); what changes is the per-request work, which was most of what
    metrics cost a command: no ``Request`` object, no label dicts, and no
    ``labels(...)`` call (prometheus_client checks the values and takes a lock on each)
    per metric per request: each route's children are looked up once per status and kept.
    The configuration options this path does not read (extra labels, exemplars, excluded
    methods) are not used here; when one is set, Litestar's own path runs.
    """

    _routes: ClassVar[dict[tuple[str, str, int], _Children]] = {}

    def _children(self, method: str, path: str, status: int) -> _Children:
        key = (method, path, status)
        children = self._routes.get(key)
        if children is None:
            labels: dict[str, str | int | float] = {
                "method": method,
                "path": path,
                "status_code": status,
                "app_name": self._config.app_name,
            }
            values = list(labels.values())
            # Litestar counts a request in progress before its status is known: as a 200.
            in_progress = self.requests_in_progress(labels).labels(*values[:2], 200, values[3])
            timed = not path.endswith(_STREAMING_SUFFIX)
            children = self._routes[key] = _Children(
                in_progress=in_progress,
                count=self.request_count(labels).labels(*values),
                errors=self.requests_error_count(labels).labels(*values),
                time=self.request_time(labels).labels(*values) if timed else _UNTIMED,
            )
        return children

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        config = self._config
        if config.labels or config.exemplars or config.excluded_http_methods:
            await super().__call__(scope, receive, send)
            return
        method = scope["method"] if scope["type"] == ScopeType.HTTP else scope["type"]
        path = scope["path_template"]
        started = time.perf_counter()
        status = 200
        duration = 0.0

        async def noting_send(message: Message) -> None:
            nonlocal status, duration
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                duration = time.perf_counter() - started
            await send(message)

        in_progress = self._children(method, path, 200).in_progress
        in_progress.inc()
        try:
            await self.app(scope, receive, noting_send)
        finally:
            in_progress.dec()
            children = self._children(method, path, status)
            if status >= HTTP_500_INTERNAL_SERVER_ERROR:
                children.errors.inc()
            children.count.inc()
            children.time.observe(duration)


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

    async with running_tasks(sample(), name="pool-sampler"):
        yield
