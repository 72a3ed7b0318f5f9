"""The four HTTP metrics of Litestar's Prometheus plugin (``aeon_http_*``), recorded by
the observing middleware (api/http/observing.py) without Litestar's middleware.

Names, help texts, labels and buckets are the plugin's, from the service's
``PrometheusConfig`` (api/observability.py), so dashboards and docs/metrics.md read the
same series.  What differs is the work per request: each route's labelled children are
looked up once per status and kept, since prometheus_client checks the label values and
takes a lock on every ``labels(...)`` call; and a live-update stream is counted but kept
out of the duration histogram (an open stream is not a slow request).

The metrics are defined on first use, once per process, as the plugin did: every app a
process creates (the tests create many) records into the same series.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from litestar.plugins.prometheus import PrometheusConfig
from prometheus_client import Counter, Gauge, Histogram

STREAMING_SUFFIX = "/live"
"""Route templates ending so are event streams: counted, not timed."""

_LABELS = ("method", "path", "status_code", "app_name")


class _Untimed:
    """A histogram child that observes nothing (for streams)."""

    def observe(self, *_: Any, **__: Any) -> None:
        return None


_UNTIMED = _Untimed()


class RouteMetrics(NamedTuple):
    """One route's labelled children of the four HTTP metrics, for one status; the
    request in progress is counted under status 200, as Litestar's plugin counts it
    before the status is known."""

    in_progress: Any
    requests: Any
    errors: Any
    time: Any


class _Defined(NamedTuple):
    in_progress: Gauge
    requests: Counter
    errors: Counter
    time: Histogram


_defined: dict[str, _Defined] = {}
"""By prefix: prometheus_client refuses a second metric of the same name in a process."""
_children: dict[tuple[str, str, str, int], RouteMetrics] = {}


def _define(config: PrometheusConfig) -> _Defined:
    defined = _defined.get(config.prefix)
    if defined is None:
        defined = _defined[config.prefix] = _Defined(
            in_progress=Gauge(
                f"{config.prefix}_requests_in_progress",
                "Total requests currently in progress",
                _LABELS,
                multiprocess_mode="livesum",
            ),
            requests=Counter(f"{config.prefix}_requests_total", "Total requests", _LABELS),
            errors=Counter(
                f"{config.prefix}_requests_error_total", "Total errors in requests", _LABELS
            ),
            time=Histogram(
                f"{config.prefix}_request_duration_seconds",
                "Request duration, in seconds",
                _LABELS,
                buckets=config.buckets or Histogram.DEFAULT_BUCKETS,
            ),
        )
    return defined


class HttpMetrics:
    """The HTTP metrics of one configuration: which paths they leave out, and each
    route's children."""

    def __init__(self, config: PrometheusConfig) -> None:
        if (
            not config.group_path
            or config.labels
            or config.exemplars
            or config.excluded_http_methods
            or config.exclude_opt_key
            or config.exclude_unhandled_paths
        ):
            raise ValueError(
                "the HTTP metrics group paths by route template and read no extra labels, "
                "exemplars or other exclusions than paths"
            )
        self._config = config
        exclude = config.exclude
        patterns = [exclude] if isinstance(exclude, str) else list(exclude or ())
        self._excluded = re.compile("|".join(patterns)) if patterns else None

    def applies_to(self, path: str) -> bool:
        """False for a path the configuration excludes (its patterns searched anywhere in
        the path, as Litestar's middleware exclusions do)."""
        return self._excluded is None or self._excluded.search(path) is None

    def of(self, method: str, path: str, status: int) -> RouteMetrics:
        """The children of the route template ``path`` answered with ``status``."""
        key = (self._config.prefix, method, path, status)
        children = _children.get(key)
        if children is None:
            defined = _define(self._config)
            app = self._config.app_name
            timed = not path.endswith(STREAMING_SUFFIX)
            children = _children[key] = RouteMetrics(
                in_progress=defined.in_progress.labels(method, path, 200, app),
                requests=defined.requests.labels(method, path, status, app),
                errors=defined.errors.labels(method, path, status, app),
                time=defined.time.labels(method, path, status, app) if timed else _UNTIMED,
            )
        return children
