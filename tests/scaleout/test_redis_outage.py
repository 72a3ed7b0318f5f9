"""Redis going away: commands and reads keep working from PostgreSQL, live
updates degrade to polling and recover once Redis is back, and readiness says so.

Two processes on a redis-server of the test's own: A polls PostgreSQL only every 60 s, so
what reaches A's subscriber in time came through Redis; B polls every 0.3 s, so its
subscriber keeps receiving while Redis is down.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from tests.reliability.http import fighter
from tests.scaleout.cluster import Api, RedisServer, api_processes, redis_server
from tests.scaleout.live_client import Subscriber


async def _redis_check(http: httpx.AsyncClient) -> str:
    response = await http.get("/health/ready")
    assert response.status_code == 200, response.text  # Redis never makes us unready
    check: str = response.json()["checks"]["redis"]
    return check


async def _until_redis(clients: list[httpx.AsyncClient], ok: bool, within: float) -> None:
    deadline = time.monotonic() + within
    while True:
        checks = [await _redis_check(c) for c in clients]
        if all((c == "ok") == ok for c in checks):
            if not ok:
                assert all(c.startswith("degraded") and "polling" in c for c in checks), checks
            return
        assert time.monotonic() < deadline, f"readiness still says {checks}"
        await asyncio.sleep(0.1)


async def test_live_updates_degrade_and_recover_with_redis(fresh_database: str) -> None:
    with (
        redis_server() as redis,
        api_processes(
            fresh_database,
            redis.url,
            [{"AEON_LIVE_POLL_SECONDS": "60"}, {"AEON_LIVE_POLL_SECONDS": "0.3"}],
        ) as apis,
    ):
        clients = [httpx.AsyncClient(base_url=api.url, timeout=20) for api in apis]
        subscribers: list[Subscriber] = []
        try:
            await _outage(redis, apis, clients, subscribers)
        finally:
            for subscriber in subscribers:
                await subscriber.close()
            for client in clients:
                await client.aclose()


async def _outage(
    redis: RedisServer,
    apis: list[Api],
    clients: list[httpx.AsyncClient],
    subscribers: list[Subscriber],
) -> None:
    created = await clients[0].post("/encounters", json={"ruleset": "generic", "name": "Outage"})
    body = created.json()
    eid, headers = body["encounter_id"], {"Authorization": f"Bearer {body['gm_token']}"}

    async def send(n: int, cmd: dict[str, Any]) -> int:
        response = await clients[n % 2].post(
            f"/encounters/{eid}/commands", json={"command": cmd}, headers=headers
        )
        assert response.status_code == 200, response.text
        version: int = response.json()["version"]
        return version

    await _until_redis(clients, ok=True, within=10)
    slow, fast = Subscriber(apis[0].url, eid, headers), Subscriber(apis[1].url, eid, headers)
    for subscriber in (slow, fast):
        subscriber.start()
        subscribers.append(subscriber)
    head = 0
    for n in range(4):
        head = await send(1, fighter(f"f{n}"))
    await slow.wait_for(head, within=5)  # from B to A through Redis

    redis.kill()
    for n in range(6):  # commands keep working on both processes
        head = await send(n, {"type": "generic.damage", "target": "f0", "amount": 1})
    for client in clients:
        page = (await client.get(f"/encounters/{eid}/events", headers=headers)).json()
        assert page["events"][-1]["stream_version"] == head
    await _until_redis(clients, ok=False, within=10)
    await fast.wait_for(head, within=5)  # degraded: polling still delivers
    assert slow.last < head  # and nothing else did

    redis.start()  # the same port, empty: every subscription has to be made again
    await _until_redis(clients, ok=True, within=10)
    head = await send(1, {"type": "generic.damage", "target": "f1", "amount": 1})
    await slow.wait_for(head, within=5)  # through Redis again
    await fast.wait_for(head, within=5)
    await asyncio.sleep(0.3)
    assert slow.versions == fast.versions == list(range(1, head + 1))
