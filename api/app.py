"""The Litestar application: routes, problem details, OpenAPI, and the storage lifespan.

``create_app`` connects nothing itself; the lifespan opens the pool, applies migrations
and closes everything on shutdown, so importing this module has no side effects.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from litestar import Litestar
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.plugins.problem_details import ProblemDetailsPlugin
from redis.asyncio import Redis

from api import litestar_internals, observability
from api.background import running_tasks
from api.campaigns.carrier import Carrier
from api.http import request_log
from api.http.cors import cors_config
from api.http.direct_commands import serve_commands_directly
from api.http.limits import VerifiedTokens, rate_limit
from api.http.problems import problem_details_config
from api.http.read_routing import live_reader
from api.http.strict_input import check_body
from api.live.wire import encode_for
from api.live.wiring import Live
from api.openapi.document import complete_when_built
from api.openapi.ui import render_plugins, swagger_assets
from api.routes import route_handlers
from api.settings import Settings
from api.state import Services
from api.webhooks.targets import AllowList
from api.webhooks.worker import Deliverer
from events.migrate import apply_migrations
from events.replicas import ReadReplicas
from projections.inline import read_model_rows
from service.write.pipeline import CommandPipeline
from service.write.strategy import strategy_for
from telemetry import metrics, tracing

log = logging.getLogger("aeon_ledger")

_CONNECT_ATTEMPTS = 30
_YOUNG_COLLECTION_EVERY = 20_000
"""Allocations between collections of the youngest generation (CPython's default: 700)."""


def _settle_garbage_collector() -> None:
    """Spare requests most of the cyclic collector's work (7% of a worker's CPU under load).

    What exists once the app has started (modules, routes, the pool) lives as long as
    the process: frozen, no full collection walks it again (the OpenAPI document, built
    on its first request, is not among it).  A command allocates a few thousand objects
    that its own reference counts free; with CPython's default threshold the youngest
    generation was collected every 700 of them, several times per command.
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(_YOUNG_COLLECTION_EVERY, older, oldest)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Released connections skip asyncpg's reset query (advisory unlock, CLOSE ALL,
    UNLISTEN, RESET ALL): one round trip per request saved (bench/README.md).

    asyncpg still rolls back any open transaction on release; the service keeps no
    other session state (no session advisory locks, LISTEN, cursors or SET).  Code that
    starts to must use the transaction-scoped forms or drop this.
    """


async def open_pool(settings: Settings) -> asyncpg.Pool:
    """Connect (retrying while the database starts) and bring the schema up to date."""
    assert settings.database_url is not None
    for attempt in range(1, _CONNECT_ATTEMPTS + 1):
        try:
            pool = await asyncpg.create_pool(
                settings.database_url,
                min_size=settings.pool_min,
                max_size=settings.pool_max,
                command_timeout=30,
                reset=_keep_session,
            )
            break
        except (OSError, asyncpg.PostgresError) as exc:
            if attempt == _CONNECT_ATTEMPTS:
                raise
            log.warning("database not reachable yet (%s), retrying", exc)
            await asyncio.sleep(1)
    async with pool.acquire() as conn:
        applied = await apply_migrations(conn)
    if applied:
        log.info("applied migrations: %s", ", ".join(applied))
    return pool


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    if settings.database_url is None:
        raise ValueError(
            "DATABASE_URL is not set: start the service with `aeon-ledger serve`, "
            "which runs the embedded PostgreSQL when no DATABASE_URL is given"
        )

    redis = (
        Redis.from_url(settings.redis_url, socket_connect_timeout=1, socket_timeout=1)
        if settings.redis_url
        else None
    )
    metrics.set_enabled(settings.metrics)
    verified = VerifiedTokens()
    limits = None
    if settings.rate_limit_per_minute > 0:
        limits = rate_limit(settings.rate_limit_per_minute, redis, verified)
    middleware = observability.middleware(
        metrics_on=settings.metrics, log_requests=settings.log_requests, rate_limit=limits
    )
    fan_out = Live.from_settings(settings)
    litestar_internals.check()
    AllowList.parse(settings.webhook_allow)  # a wrong AEON_WEBHOOK_ALLOW stops the start

    @asynccontextmanager
    async def storage(app: Litestar) -> AsyncIterator[None]:
        pool = await open_pool(settings)
        replicas = (
            await ReadReplicas.open(
                settings.read_database_urls,
                max_size=settings.pool_max,
                wait_seconds=settings.read_replica_wait_seconds,
            )
            if settings.read_database_urls
            else None
        )
        pipeline = CommandPipeline(
            pool,
            read_model_rows,
            snapshot_every=settings.snapshot_every,
            publish=fan_out.notifier,
            chain_key=settings.chain_key_bytes,
            strategy=strategy_for(settings.write_statement),
        )
        app.state.services = Services(
            settings=settings,
            pool=pool,
            pipeline=pipeline,
            redis=redis,
            replicas=replicas,
            live=fan_out,
            verified_tokens=verified,
        )
        if replicas is not None:
            fan_out.hub.reader = live_reader(app.state.services)
        _settle_garbage_collector()
        try:
            async with (
                fan_out.running(pool, encode_for),
                Deliverer(settings, pool).running(),
                running_tasks(Carrier(pool, settings.chain_key_bytes).run(), name="carry-over"),
                observability.sampling_pool(pool),
            ):
                yield
        finally:
            if redis is not None:
                await redis.aclose()
            if replicas is not None:
                await replicas.close()
            await pool.close()

    def provide_services() -> Services:
        """The services the lifespan opened, read off the app itself: a dependency
        without parameters is one Litestar does not convert anything for (taking the
        app's ``state`` built a new ``State`` for every request)."""
        services: Services = app.state.services
        return services

    app = Litestar(
        route_handlers=[
            *route_handlers(),
            swagger_assets(),
            *([observability.MetricsController] if settings.metrics else []),
        ],
        dependencies={
            "services": Provide(provide_services, sync_to_thread=False),
        },
        lifespan=[storage],
        before_request=check_body,
        middleware=middleware,
        cors_config=cors_config(settings.cors_origins),
        plugins=[
            ProblemDetailsPlugin(problem_details_config()),
            *([fan_out.plugin] if fan_out.plugin is not None else []),
            *litestar_internals.schema_plugins(),
            request_log.logging_plugin(),
            *tracing.plugins(),
        ],
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="Aeon Ledger",
            version="0.1.0",
            description="Event-sourced game state for tabletop combat encounters: every "
            "declaration, roll and resolution is an immutable, hash-chained event.",
            path="/schema",
            render_plugins=render_plugins(),
        ),
    )
    complete_when_built(app)
    litestar_internals.guards_see_the_handler(app)
    litestar_internals.dependencies_one_at_a_time(app)
    serve_commands_directly(app)
    return app
