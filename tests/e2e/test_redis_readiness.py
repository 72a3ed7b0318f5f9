"""With REDIS_URL set, readiness reports Redis (against the real server the tests found)."""

from __future__ import annotations

from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings


async def test_ready_reports_redis(database_url: str, redis_url: str) -> None:
    app = create_app(Settings(database_url=database_url, redis_url=redis_url))
    async with AsyncTestClient(app=app) as client:
        ready = (await client.get("/health/ready")).json()
    assert ready["checks"] == {"postgres": "ok", "redis": "ok"}


async def test_redis_down_degrades_but_stays_ready(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, redis_url="redis://127.0.0.1:1/0"))
    async with AsyncTestClient(app=app) as client:
        response = await client.get("/health/ready")
    assert response.status_code == 200
    assert response.json()["checks"]["redis"].startswith("degraded")
