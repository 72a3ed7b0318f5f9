"""Liveness (the process answers) and readiness (it can reach its storage)."""

from __future__ import annotations

import asyncio

from litestar import Response, get
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec

from api.schemas import Health
from api.state import Services

_CHECK_TIMEOUT = 2.0


@get("/health/live", operation_id="live", summary="Liveness")
async def live() -> Health:
    return Health(status="ok")


@get(
    "/health/ready",
    operation_id="ready",
    summary="Readiness",
    responses={503: ResponseSpec(Health, description="PostgreSQL does not answer.")},
)
async def ready(services: NamedDependency[Services]) -> Response[Health]:
    """503 when PostgreSQL does not answer; Redis being down only degrades live updates
    (and rate limits), which `checks.redis` then says."""
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(services.pool.fetchval("SELECT 1"), _CHECK_TIMEOUT)
        checks["postgres"] = "ok"
    except Exception as exc:  # any failure means "not ready"; the reason is reported
        checks["postgres"] = f"unavailable: {type(exc).__name__}"
    if services.redis is not None:
        try:
            await asyncio.wait_for(services.redis.ping(), _CHECK_TIMEOUT)
            # Redis answers; "ok" also needs this process's live-update link to it.
            checks["redis"] = services.live.describe() if services.live else "ok"
        except Exception as exc:
            checks["redis"] = f"degraded: {type(exc).__name__}"
            if services.live is not None:
                checks["redis"] += f"; {services.live.fallback}"
    else:
        link = services.live.describe_listener() if services.live else "ok"
        checks["redis"] = f"not configured (live updates through PostgreSQL LISTEN/NOTIFY: {link})"
    ok = checks["postgres"] == "ok"
    return Response(
        Health(status="ok" if ok else "unavailable", checks=checks), status_code=200 if ok else 503
    )
