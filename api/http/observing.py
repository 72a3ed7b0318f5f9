"""The one middleware that observes every request: its log line and correlation id, its
rate limit, and its HTTP metrics, in one ASGI layer.

Why one layer: as three (the request log, and Litestar's rate-limit and Prometheus
middleware, subclassed) each had its own ``send`` wrapper, its own reading of the scope
and a ``Request`` or label dicts built from it, and Litestar's exclusion checks around
it, all paid on every request before any route ran.  Here the scope is read once, the
headers in one pass, each exclusion is one search of the path, and one ``send`` wrapper
adds the answer's headers and notes its status and its last byte's time.

What each job records is unchanged, and so is what the old order meant (the request
log outermost, then the rate limit, then the metrics):

- the log line's duration spans everything, the rate limit included; the duration
  histogram starts after the limit has admitted the request;
- a request refused by the limit raises Litestar's 429 exception, which Litestar answers
  outside every middleware: it is logged and counted as a command (``rate``) with that
  status, and it is in none of the HTTP metrics;
- the answer's headers end with the RateLimit headers, then ``x-correlation-id``.

Only HTTP requests are observed; the service has no websocket routes.
"""

from __future__ import annotations

import time

from litestar.enums import ScopeType
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp, HTTPScope, Message, Receive, Scope, Send

from api.http import request_log
from api.http.http_metrics import HttpMetrics, RouteMetrics
from api.http.limits import RateLimit
from telemetry import context

_CORRELATION = request_log.CORRELATION_HEADER.encode()
_AUTHORIZATION = b"authorization"


class ObservingMiddleware:
    """Logs (``log``), counts commands and echoes the correlation id (``facts``), holds
    requests to ``limit`` and records ``http_metrics``: each job only when given."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        facts: bool,
        log: bool,
        limit: RateLimit | None,
        http_metrics: HttpMetrics | None,
    ) -> None:
        self.app = app
        self._facts, self._log = facts, log
        self._limit, self._metrics = limit, http_metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        limit, http_metrics = self._limit, self._metrics
        correlation: bytes | None = None
        authorization: bytes | None = None
        for key, value in scope["headers"]:
            if key == _CORRELATION:
                if correlation is None:
                    correlation = value
            elif authorization is None and len(key) == 13 and key.lower() == _AUTHORIZATION:
                authorization = value

        facts: context.RequestFacts | None = None
        added: list[tuple[bytes, bytes]] = []
        if self._facts:
            facts = request_log.begin(scope, correlation)
        status: int | None = None
        refused: int | None = None
        try:
            if limit is not None or http_metrics is not None:
                path = _exclusion_path(scope)
                if limit is not None and limit.applies_to(path):
                    added = await limit.admit(
                        authorization.decode("latin-1") if authorization is not None else None,
                        _address(scope),
                        scope["litestar_app"],
                    )
                if http_metrics is not None and not http_metrics.applies_to(path):
                    http_metrics = None
            if facts is not None:
                added = [*added, (_CORRELATION, facts.correlation_id.encode())]
            timed_from = time.perf_counter()
            duration = 0.0

            async def observed_send(message: Message) -> None:
                nonlocal status, duration
                if message["type"] == "http.response.start":
                    status = message["status"]
                    if added:
                        message["headers"] = [*message.get("headers", ()), *added]
                elif message["type"] == "http.response.body":
                    duration = time.perf_counter() - timed_from
                await send(message)

            if http_metrics is None:
                await self.app(scope, receive, observed_send)
            else:
                method: str = scope["method"]
                route: str = scope["path_template"]
                as_ok = http_metrics.of(method, route, 200)
                as_ok.in_progress.inc()
                try:
                    await self.app(scope, receive, observed_send)
                finally:
                    as_ok.in_progress.dec()
                    # Litestar's plugin counted an answer it never saw start as a 200.
                    counted = 200 if status is None else status
                    children = as_ok if counted == 200 else http_metrics.of(method, route, counted)
                    _record(children, counted, duration)
        except HTTPException as exc:  # the rate limit's 429, answered outside
            refused = exc.status_code
            raise
        finally:
            if facts is not None:
                answered = refused or (500 if status is None else status)
                request_log.finish(scope, facts, answered, started, log=self._log)


def _record(children: RouteMetrics, status: int, seconds: float) -> None:
    if status >= 500:
        children.errors.inc()
    children.requests.inc()
    children.time.observe(seconds)


def _exclusion_path(scope: HTTPScope) -> str:
    """The path exclusions are matched against: the raw path for a mounted app, as
    Litestar's middleware exclusions have it."""
    if getattr(scope.get("route_handler"), "is_mount", False):
        raw: bytes = scope["raw_path"]
        return raw.decode()
    return scope["path"]


def _address(scope: HTTPScope) -> str:
    """The client's host, as Litestar's ``get_remote_address`` gives it."""
    client = scope.get("client")
    return client[0] if client else "127.0.0.1"
