"""The systems bench.throughput measures, each as one timed window of closed-loop load: the
asyncpg ceiling, the service (and its benchmark encounters), the framework floor.

One job: driving a system.  Apart from bench/throughput.py because what each
system does per operation is independent of how windows are paired, reported or run.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import NamedTuple
from uuid import uuid4

import asyncpg
import msgspec

from bench.api import Table, create_encounter, send_command
from bench.client import Connection
from bench.load import Operation, Result, closed_loop
from bench.mix import SETUP, step

_EVENT = msgspec.json.encode(
    {
        "attacker": "alda",
        "target": "brom",
        "outcome": "hit",
        "rolls": [
            {
                "roll_id": "r12",
                "roller": "alda",
                "purpose": "attack on brom",
                "notation": "1d20+5",
                "dice": [{"sides": 20, "face": 14, "kept": True}],
                "modifiers": [{"label": "notation", "value": 5}],
                "total": 19,
                "target": 12,
                "outcome": "hit",
                "source": "server",
                "epoch": 1,
                "index": 40,
            }
        ],
    }
).decode()


# -- the asyncpg ceiling -----------------------------------------------------------------

_BASELINE_DDL = """
CREATE TABLE IF NOT EXISTS bench_events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id uuid NOT NULL, stream_version integer NOT NULL, type text NOT NULL,
    data jsonb NOT NULL, metadata jsonb NOT NULL, recorded_at timestamptz NOT NULL,
    UNIQUE (stream_id, stream_version))"""


_INSERT = (
    "INSERT INTO bench_events (stream_id, stream_version, type, data, metadata, recorded_at)"
    " VALUES ($1, $2, 'generic.attack_rolled', $3::jsonb, '{}'::jsonb, $4)"
)


async def baseline(database_url: str, clients: int, seconds: float) -> Result:
    """asyncpg inserting one event row per transaction (a single autocommitted INSERT:
    one round trip, one WAL flush), one connection per client."""
    pool = await asyncpg.create_pool(database_url, min_size=clients, max_size=clients)
    try:
        await pool.execute(_BASELINE_DDL)

        def op_for() -> Operation:
            stream, version = uuid4(), 0

            async def op() -> bool:
                nonlocal version
                version += 1
                await pool.execute(_INSERT, stream, version, _EVENT, datetime.now(UTC))
                return True

            return op

        return await closed_loop("asyncpg ceiling", [op_for() for _ in range(clients)], seconds)
    finally:
        await pool.close()


# -- the service -------------------------------------------------------------------------


class Served(NamedTuple):
    """The running service and its benchmark encounters."""

    url: str
    pid: int
    tables: list[Table]
    positions: dict[str, int]
    hidden: bool = False
    """Every command of the cycle sent as the GM's secret (``--hidden``): sealed commands."""


async def setup_tables(url: str, count: int) -> list[Table]:
    async def one(i: int) -> Table:
        http = Connection(url)
        try:
            table = await create_encounter(http, f"bench table {i}")
            for command in SETUP:
                r = await send_command(http, table, command)
                if r.status != 200:
                    raise RuntimeError(f"setup command failed: {r.status} {r.body!r}")
            return table
        finally:
            await http.close()

    tables: list[Table] = []
    for start in range(0, count, 8):
        tables += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 8))))
    return tables


async def service_level(
    url: str,
    tables: list[Table],
    positions: dict[str, int],
    clients: int,
    seconds: float,
    hidden: bool = False,
) -> Result:
    connections = [Connection(url) for _ in range(clients)]
    failures: list[str] = []

    def op_for(i: int) -> Operation:
        mine, http, j = tables[i::clients], connections[i], 0

        async def op() -> bool:
            nonlocal j
            table = mine[j % len(mine)]
            j += 1
            n = positions[table.encounter_id]
            positions[table.encounter_id] = n + 1
            try:
                r = await send_command(http, table, step(n), hidden=hidden)
            except ConnectionError as exc:
                failures.append(str(exc))
                return False
            if r.status != 200 and len(failures) < 5:
                failures.append(f"{r.status} {r.body[:200]!r}")
            return r.status == 200

        return op

    try:
        result = await closed_loop(
            "aeon-ledger service", [op_for(i) for i in range(clients)], seconds
        )
    finally:
        for c in connections:
            await c.close()
    for f in failures:
        print(f"  failure: {f}")
    result.label = "aeon-ledger service"
    return result


# -- the framework floor -----------------------------------------------------------------


async def floor_level(url: str, clients: int, seconds: float) -> Result:
    """bench.floor's bare route under the service's load: the same client, the same
    attack command body and authorization header, one encounter id per client."""
    body = msgspec.json.encode({"command": step(2)})
    headers = {"authorization": "Bearer 1.floor"}
    connections = [Connection(url) for _ in range(clients)]

    def op_for(http: Connection) -> Operation:
        path = f"/encounters/{uuid4()}/commands"

        async def op() -> bool:
            return (await http.request("POST", path, body, headers)).status == 200

        return op

    try:
        return await closed_loop("Litestar floor", [op_for(c) for c in connections], seconds)
    finally:
        for c in connections:
            await c.close()
