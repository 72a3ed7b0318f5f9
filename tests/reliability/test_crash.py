"""Crash safety: SIGKILL the service in the middle of a load of commands.  Every command
that got a 2xx is in the store, no command is half-applied, and after a restart the
commands whose answer was lost can be retried with their Idempotency-Key exactly once."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any
from uuid import UUID

import asyncpg
import httpx

from tests.reliability.http import Table, command_mix, send_command, setup_table
from tests.reliability.integrity import assert_acknowledged_are_stored, assert_every_command_whole
from tests.support.processes import running_service

TABLES, CLIENTS = 6, 12


async def test_kill_9_under_load_loses_no_acknowledged_command(database_url: str) -> None:
    acknowledged: list[dict[str, Any]] = []
    unanswered: list[tuple[Table, dict[str, Any], str]] = []
    statuses: list[int] = []
    with running_service(database_url) as service:
        tables = [await setup_table(service.url, f"crash {i}") for i in range(TABLES)]

        async def client(i: int, stop: asyncio.Event) -> None:
            table = tables[i % TABLES]
            async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
                n = i
                while not stop.is_set():
                    command, key = command_mix(n), str(uuid.uuid4())
                    n += 1
                    try:
                        r = await send_command(http, table, command, idempotency_key=key)
                    except httpx.TransportError:
                        unanswered.append((table, command, key))
                        return
                    statuses.append(r.status_code)
                    if r.is_success:
                        acknowledged.append(r.json())
                        if len(acknowledged) >= 150:
                            enough.set()

        stop, enough = asyncio.Event(), asyncio.Event()
        load = [asyncio.create_task(client(i, stop)) for i in range(CLIENTS)]
        await asyncio.wait_for(enough.wait(), 30)
        await asyncio.to_thread(service.kill9)
        stop.set()
        await asyncio.gather(*load)

    assert set(statuses) == {200}, f"unexpected statuses under load: {set(statuses)}"
    assert unanswered, "the kill must interrupt commands in flight"
    stream_ids = [UUID(t.encounter_id) for t in tables]
    conn = await asyncpg.connect(database_url)
    try:
        assert await assert_acknowledged_are_stored(conn, acknowledged) >= 150
        await assert_every_command_whole(conn, stream_ids)
    finally:
        await conn.close()

    # Restarted on the same store, the service goes on: the lost answers are retried with
    # their keys (each applied once, whether or not it had committed before the kill), and
    # every table takes new commands.
    with running_service(database_url) as service:
        async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
            for table, command, key in unanswered:
                r = await send_command(http, table, command, idempotency_key=key)
                assert r.status_code == 200, r.text
            for table in tables:
                r = await send_command(http, table, command_mix(0))
                assert r.status_code == 200, r.text
    conn = await asyncpg.connect(database_url)
    try:
        await assert_every_command_whole(conn, stream_ids)
    finally:
        await conn.close()
