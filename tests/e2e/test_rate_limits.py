"""Rate limits (api/http/limits.py): one budget per token in fixed windows, shared between
processes through Redis, kept per process while Redis is away, and told in RateLimit
headers and a 429 problem response."""

from __future__ import annotations

import asyncio
import socket
from uuid import uuid4

from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from api.app import create_app
from api.http.limits import FallbackCounter, MemoryCounter, RedisCounter
from api.settings import Settings


async def test_memory_counter_counts_in_fixed_windows() -> None:
    counter = MemoryCounter()
    assert [await counter.hit("a", 60) for _ in range(3)] == [(1, 60), (2, 60), (3, 60)]
    assert await counter.hit("b", 60) == (1, 60)
    count, reset_in = await counter.hit("short", 1)
    assert (count, reset_in) == (1, 1)
    await asyncio.sleep(1.05)
    assert (await counter.hit("short", 1))[0] == 1  # a new window starts from zero


async def test_memory_counter_forgets_ended_windows() -> None:
    counter = MemoryCounter()
    for i in range(1024):
        await counter.hit(f"gone {i}", 1)
    await asyncio.sleep(1.05)
    await counter.hit("new", 60)
    assert len(counter._counts) == 1


async def test_redis_counter_is_shared_and_expires(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    try:
        key = f"test {uuid4()}"
        first, second = RedisCounter(redis), RedisCounter(redis)
        assert (await first.hit(key, 60))[0] == 1
        assert (await second.hit(key, 60))[0] == 2
        counts = await asyncio.gather(*(first.hit(key, 60) for _ in range(50)))
        assert sorted(c for c, _ in counts) == list(range(3, 53))  # atomic: none lost
        assert 0 < await redis.ttl(f"aeon-ledger-rate-limit:{key}") <= 60
    finally:
        await redis.aclose()


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_fallback_counter_keeps_limiting_while_redis_is_unreachable() -> None:
    redis = Redis.from_url(f"redis://127.0.0.1:{_dead_port()}/0", socket_connect_timeout=0.2)
    try:
        counter = FallbackCounter(redis)
        assert [(await counter.hit("k", 60))[0] for _ in range(3)] == [1, 2, 3]
    finally:
        await redis.aclose()


async def test_two_processes_share_one_budget_through_redis(
    database_url: str, redis_url: str
) -> None:
    settings = Settings(database_url=database_url, redis_url=redis_url, rate_limit_per_minute=4)
    async with (
        AsyncTestClient(app=create_app(settings)) as one,
        AsyncTestClient(app=create_app(settings)) as two,
    ):
        created = await one.post("/encounters", json={"ruleset": "generic", "name": "Shared"})
        table = created.json()
        url = f"/encounters/{table['encounter_id']}"
        headers = {"Authorization": f"Bearer {table['gm_token']}"}
        first = await one.get(url, headers=headers)
        assert first.status_code == 200
        assert first.headers["ratelimit-limit"] == "4"
        assert first.headers["ratelimit-remaining"] == "3"
        assert first.headers["ratelimit-policy"] == "4; w=60"
        assert 0 < int(first.headers["ratelimit-reset"]) <= 60
        assert (await two.get(url, headers=headers)).status_code == 200
        assert (await one.get(url, headers=headers)).status_code == 200
        last = await two.get(url, headers=headers)
        assert last.status_code == 200 and last.headers["ratelimit-remaining"] == "0"
        refused = await one.get(url, headers=headers)
        assert refused.status_code == 429
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.headers["ratelimit-remaining"] == "0"
        assert (await two.get(url, headers=headers)).status_code == 429


async def test_made_up_bearers_and_failed_logins_count_against_the_address(
    database_url: str,
) -> None:
    """A random bearer per request used to get a fresh budget each time: now any request
    whose token is not a valid one is counted under the client's address."""
    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=5))
    async with AsyncTestClient(app=app) as limited:
        created = await limited.post("/encounters", json={"ruleset": "generic", "name": "G"})
        url = f"/encounters/{created.json()['encounter_id']}"
        statuses = [
            (
                await limited.get(url, headers={"Authorization": f"Bearer {uuid4().hex}.x"})
            ).status_code
            for _ in range(6)
        ]
        # The creation counted against the address too: 4 more guesses, then 429.
        assert statuses == [401] * 4 + [429] * 2
        # The real token has a budget of its own, by its id.
        token = {"Authorization": f"Bearer {created.json()['gm_token']}"}
        assert (await limited.get(url, headers=token)).status_code == 200


async def test_the_console_and_metrics_are_counted_like_any_request(database_url: str) -> None:
    """docs/access.md: only /health and /schema are not limited; a flood of the console's
    files or of /metrics is refused like any other request."""
    for path in ("/console/", "/console/js/fairness.js", "/metrics"):
        app = create_app(Settings(database_url=database_url, rate_limit_per_minute=3))
        async with AsyncTestClient(app=app) as limited:
            statuses = [(await limited.get(path)).status_code for _ in range(4)]
            assert statuses == [200, 200, 200, 429], (path, statuses)
            assert {(await limited.get("/health/live")).status_code for _ in range(3)} == {200}
