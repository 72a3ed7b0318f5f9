"""Scale-out: three `aeon-ledger serve` processes share one PostgreSQL and one
Redis.  Commands sent round-robin through all three to one encounter leave its versions
gapless, If-Match holds across processes, and a subscriber on each process receives every
event in order exactly once, one of them after dropping its connection and resuming."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.reliability.http import command_mix, fighter
from tests.scaleout.cluster import api_processes
from tests.scaleout.live_client import Subscriber

COMMANDS = 300
IN_FLIGHT = 6


async def test_round_robin_commands_reach_every_subscriber_once_in_order(
    fresh_database: str, redis_url: str
) -> None:
    # A poll slower than the test: events reach other processes through Redis or not at all.
    slow_poll = {"AEON_LIVE_POLL_SECONDS": "60"}
    with api_processes(fresh_database, redis_url, [slow_poll] * 3) as apis:
        clients = [httpx.AsyncClient(base_url=api.url, timeout=20) for api in apis]
        subscribers: list[Subscriber] = []
        try:
            await _play(clients, apis, subscribers)
        finally:
            for subscriber in subscribers:
                await subscriber.close()
            for client in clients:
                await client.aclose()


async def _play(
    clients: list[httpx.AsyncClient], apis: list[Any], subscribers: list[Subscriber]
) -> None:
    created = await clients[0].post("/encounters", json={"ruleset": "generic", "name": "Scale"})
    assert created.status_code == 201, created.text
    eid, headers = (
        created.json()["encounter_id"],
        {"Authorization": f"Bearer {created.json()['gm_token']}"},
    )

    async def send(n: int, cmd: dict[str, Any], **extra: str) -> httpx.Response:
        return await clients[n % 3].post(
            f"/encounters/{eid}/commands", json={"command": cmd}, headers={**headers, **extra}
        )

    for n, cmd in enumerate([fighter("a"), fighter("b"), {"type": "generic.roll_initiative"}]):
        assert (await send(n, cmd)).status_code == 200
    for n, api in enumerate(apis):
        subscriber = Subscriber(api.url, eid, headers)
        subscriber.start(reconnect_after=100 if n == 2 else None)
        subscribers.append(subscriber)

    slots = asyncio.Semaphore(IN_FLIGHT)

    async def one(n: int) -> list[int]:
        async with slots:
            response = await send(n, command_mix(n))
        assert response.status_code == 200, response.text
        return [e["stream_version"] for e in response.json()["events"]]

    per_command = await asyncio.gather(*(one(n) for n in range(COMMANDS)))
    appended = sorted(v for versions in per_command for v in versions)
    head = appended[-1]
    assert appended == list(range(appended[0], head + 1)), "versions skipped or repeated"
    for versions in per_command:  # each command's events are contiguous
        assert versions == list(range(versions[0], versions[-1] + 1))

    # Optimistic concurrency across processes: one If-Match, three processes, one winner.
    raced = await asyncio.gather(
        *(send(n, {"type": "generic.next_turn"}, **{"If-Match": f'"{head}"'}) for n in range(3))
    )
    assert sorted(r.status_code for r in raced) == [200, 409, 409], [r.text for r in raced]
    head = max(r.json()["version"] for r in raced if r.status_code == 200)
    assert all(r.json()["current_version"] == head for r in raced if r.status_code == 409)

    for client in clients:
        page = await client.get(f"/encounters/{eid}/events?limit=1000", headers=headers)
        assert [e["stream_version"] for e in page.json()["events"]] == list(range(1, head + 1))
    verified = await clients[1].get(f"/encounters/{eid}/verify", headers=headers)
    assert verified.json()["ok"] is True, verified.text

    for subscriber in subscribers:
        await subscriber.wait_for(head, within=15)
    await asyncio.sleep(0.3)  # time for a stray duplicate to show up
    for subscriber in subscribers:
        assert subscriber.versions == list(range(1, head + 1))
    assert [s.connections for s in subscribers] == [1, 1, 2]
    events = (await clients[0].get(f"/encounters/{eid}/events?limit=1000", headers=headers)).json()
    assert [m.data for m in subscribers[2].received] == events["events"]
