"""PostgreSQL restarts under load: while it is down the service answers 503 (readiness
and commands alike, with Retry-After), it recovers by itself within 10 s of the database
coming back, and no acknowledged command is lost."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from typing import Any
from uuid import UUID

import asyncpg
import httpx
import pytest

from tests.reliability.http import command_mix, send_command, setup_table
from tests.reliability.integrity import assert_acknowledged_are_stored, assert_every_command_whole
from tests.support.processes import private_postgres, running_service

TABLES, CLIENTS = 4, 8


@pytest.mark.slow
async def test_service_survives_a_database_restart() -> None:
    acknowledged: list[dict[str, Any]] = []
    statuses: Counter[int] = Counter()
    with private_postgres() as cluster, running_service(cluster.url) as service:
        tables = [await setup_table(service.url, f"restart {i}") for i in range(TABLES)]

        stop, enough = asyncio.Event(), asyncio.Event()

        async def client(i: int) -> None:
            async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
                n = i
                while not stop.is_set():
                    n += 1
                    try:
                        r = await send_command(
                            http,
                            tables[i % TABLES],
                            command_mix(n),
                            idempotency_key=str(uuid.uuid4()),
                        )
                    except httpx.TransportError:
                        statuses[0] += 1
                        continue
                    statuses[r.status_code] += 1
                    if r.is_success:
                        acknowledged.append(r.json())
                        if len(acknowledged) >= 100:
                            enough.set()
                    elif r.status_code == 503:
                        assert r.headers["retry-after"] == "2"
                        assert r.headers["content-type"].startswith("application/problem+json")
                        await asyncio.sleep(0.05)

        load = [asyncio.create_task(client(i)) for i in range(CLIENTS)]
        try:
            await asyncio.wait_for(enough.wait(), 30)
            await asyncio.to_thread(cluster.stop, "immediate")
            async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
                # Down: readiness and commands say 503 (the load keeps sending meanwhile).
                await asyncio.sleep(1.0)
                ready = await http.get("/health/ready")
                assert ready.status_code == 503, ready.text
                assert ready.json()["checks"]["postgres"].startswith("unavailable")
                down = await send_command(http, tables[0], command_mix(2))
                assert down.status_code == 503, down.text
                acknowledged_while_down = len(acknowledged)
                await asyncio.sleep(1.0)
                assert len(acknowledged) == acknowledged_while_down

                await asyncio.to_thread(cluster.start)
                back = time.monotonic()
                while (await http.get("/health/ready")).status_code != 200:
                    assert time.monotonic() - back < 10, "not ready 10 s after the restart"
                    await asyncio.sleep(0.1)
                while not (await send_command(http, tables[0], command_mix(2))).is_success:
                    assert time.monotonic() - back < 10, "commands fail 10 s after the restart"
                    await asyncio.sleep(0.1)
                recovered = len(acknowledged)
                await asyncio.sleep(1.0)
                assert len(acknowledged) > recovered + 20, "the load did not resume"
        finally:
            stop.set()
            await asyncio.gather(*load)

        assert statuses[503] > 0
        assert set(statuses) <= {0, 200, 503}, f"unexpected statuses: {statuses}"
        conn = await asyncpg.connect(cluster.url)
        try:
            await assert_acknowledged_are_stored(conn, acknowledged)
            await assert_every_command_whole(conn, [UUID(t.encounter_id) for t in tables])
        finally:
            await conn.close()
