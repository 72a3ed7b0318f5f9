"""Failover without losing an acknowledged command: with synchronous replication, the
primary is stopped under load and its replica promoted; the service, given both hosts in
one DATABASE_URL, finds the new primary by itself and takes commands again within 10 s.
Clients retry every unanswered command with its Idempotency-Key until it is answered, so
nothing acknowledged is lost and nothing is applied twice."""

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
from tests.replicas.cluster import primary_and_replica
from tests.support.processes import running_service

TABLES, CLIENTS = 4, 8


@pytest.mark.slow
async def test_promoting_the_synchronous_replica_loses_no_acknowledged_command() -> None:
    acknowledged: list[dict[str, Any]] = []
    statuses: Counter[int] = Counter()
    retried = 0
    with (
        primary_and_replica(synchronous=True) as pair,
        running_service(pair.both_url) as service,
    ):
        tables = [await setup_table(service.url, f"failover {i}") for i in range(TABLES)]
        stop, enough = asyncio.Event(), asyncio.Event()

        async def client(i: int) -> None:
            nonlocal retried
            async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
                n = i
                while not stop.is_set():
                    n += 1
                    key = str(uuid.uuid4())
                    while True:  # the same command, with the same key, until answered
                        try:
                            r = await send_command(
                                http, tables[i % TABLES], command_mix(n), idempotency_key=key
                            )
                            statuses[r.status_code] += 1
                        except httpx.TransportError:
                            statuses[0] += 1
                            r = None
                        if r is not None and r.is_success:
                            acknowledged.append(r.json())
                            if len(acknowledged) >= 100:
                                enough.set()
                            break
                        if r is not None:
                            assert r.status_code == 503, r.text
                            assert r.headers["retry-after"] == "2"
                        retried += 1
                        await asyncio.sleep(0.05)

        load = [asyncio.create_task(client(i)) for i in range(CLIENTS)]
        try:
            await asyncio.wait_for(enough.wait(), 60)
            before = len(acknowledged)
            down = time.monotonic()
            await asyncio.to_thread(pair.primary.stop, "immediate")
            await asyncio.to_thread(pair.replica.promote)
            promoted = time.monotonic()
            while len(acknowledged) < before + 20:
                assert time.monotonic() - promoted < 10, "no commands 10 s after the promotion"
                await asyncio.sleep(0.05)
            back = time.monotonic()
            print(
                f"\nfailover: primary stopped, replica promoted in {promoted - down:.2f} s; "
                f"commands acknowledged again {back - promoted:.2f} s after the promotion "
                f"({back - down:.2f} s after the primary stopped); "
                f"{retried} retries, statuses {dict(statuses)}"
            )
        finally:
            stop.set()
            await asyncio.gather(*load)

        assert set(statuses) <= {0, 200, 503}, f"unexpected statuses: {statuses}"
        conn = await asyncpg.connect(pair.replica.url)
        try:
            assert not await conn.fetchval("SELECT pg_is_in_recovery()")
            stored = await assert_acknowledged_are_stored(conn, acknowledged)
            await assert_every_command_whole(conn, [UUID(t.encounter_id) for t in tables])
        finally:
            await conn.close()
        print(f"acknowledged commands {len(acknowledged)} ({stored} events), lost 0")
