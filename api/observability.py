"""``/metrics``: Litestar's Prometheus plugin, the domain metrics of telemetry/metrics.py,
the pool sampler, and which jobs the observing middleware does (api/http/observing.py).

HTTP metrics are Litestar's (``aeon_http_*``, api/http/http_metrics.py), with paths
grouped by route template, since paths carry encounter ids.  A live-update stream is
counted as a request but kept out of the duration histogram: an open stream is not a
slow request.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import asyncpg
from litestar import Response, get
from litestar.middleware.base import DefineMiddleware
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client import multiprocess as prometheus_multiprocess

from api.background import running_tasks
from api.http.http_metrics import HttpMetrics
from api.http.limits import RateLimit
from api.http.observing import ObservingMiddleware
from telemetry import metrics, multiprocess

METRICS_PATH = "/metrics"
_POOL_SAMPLE_SECONDS = 1.0


def prometheus_config() -> PrometheusConfig:
    return PrometheusConfig(
        app_name="aeon-ledger",
        prefix="aeon_http",
        group_path=True,
        exclude=[METRICS_PATH],
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
    *, metrics_on: bool, log_requests: bool, rate_limit: RateLimit | None
) -> list[DefineMiddleware]:
    """The observing middleware with the jobs the settings ask for; none when none is.

    The request log's facts (correlation id, command counter) are kept whenever logs or
    metrics are on.  The rate limit's 429 is answered by Litestar outside the middleware:
    the request log reads its status from the exception, and it is counted by
    ``aeon_rate_limited_total`` and ``aeon_commands_total{outcome="rate"}``, not by
    ``aeon_http_*`` (api/http/observing.py)."""
    facts = metrics_on or log_requests
    if not facts and rate_limit is None:
        return []
    return [
        DefineMiddleware(
            ObservingMiddleware,
            facts=facts,
            log=log_requests,
            limit=rate_limit,
            http_metrics=HttpMetrics(prometheus_config()) if metrics_on else None,
        )
    ]


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
