"""Live fan-out and cheap reads, measured from outside.

Live: ``aeon-ledger serve --workers 2`` with and without Redis; 1,000, 5,000 and 10,000
subscribers spread over 10 encounters; one command per second on each encounter for the
window.  For each size: commit-to-delivery p50/p99 (from the moment the command was sent,
so it includes the command's own latency), events lost, the service's CPU while commands
flow and while idle, and its memory per idle subscriber (RSS growth from before the
streams opened, over their number).

Reads: ``GET /encounters/{id}`` at 32 clients, a 200 with the GM's token and a 304 with a
current If-None-Match, each against asyncpg selecting the same row on 32 connections in
the same run, the three in turns of half a second.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import resource
import time
from collections.abc import Sequence
from typing import Any

import asyncpg
import uvloop

from bench.api import Table, create_encounter, send_command
from bench.client import Connection
from bench.harness import (
    CpuMeter,
    fresh_database,
    percentile,
    print_table,
    service,
    tree_rss_bytes,
)
from bench.sse_load import Subscriber, close_all, subscribe_many

ENCOUNTERS = 10
HIT = {"type": "generic.damage", "target": "ogre", "amount": 1}


async def _tables(url: str) -> list[tuple[Table, int]]:
    http = Connection(url)
    tables = []
    for n in range(ENCOUNTERS):
        table = await create_encounter(http, f"Fan-out {n}")
        ogre = {"type": "generic.add_combatant", "id": "ogre", "name": "Ogre", "hp": 10**6}
        response = await send_command(http, table, ogre)
        assert response.status == 200, response.body
        version: Any = response.json()
        tables.append((table, int(version["version"])))
    await http.close()
    return tables


async def _commands(
    url: str, tables: list[tuple[Table, int]], seconds: float, answered: list[float]
) -> list[list[tuple[int, float]]]:
    """One command per second on each encounter, staggered over the second; per
    encounter, the (version, sent at) of each command; ``answered`` gets each command's
    own latency in ms."""
    sent: list[list[tuple[int, float]]] = [[] for _ in tables]

    async def drive(index: int) -> None:
        http, (table, _) = Connection(url), tables[index]
        await asyncio.sleep(index / len(tables))
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < seconds:
            at = time.monotonic()
            response = await send_command(http, table, HIT)
            assert response.status == 200, response.body
            version: Any = response.json()
            sent[index].append((int(version["version"]), at))
            answered.append((time.monotonic() - at) * 1000)
            n += 1
            await asyncio.sleep(max(0.0, start + n - time.monotonic()))
        await http.close()

    await asyncio.gather(*(drive(i) for i in range(len(tables))))
    return sent


async def _live_size(url: str, pid: int, size: int, seconds: float) -> list[object]:
    tables = await _tables(url)
    await asyncio.sleep(1)
    before = tree_rss_bytes(pid)
    specs = [(t.encounter_id, t.headers, v) for t, v in tables]
    subscribers = await subscribe_many(url, specs, size)
    # The ten thousand subscribers are this process's to keep: left to the collector, a
    # full collection walks them all (tens of milliseconds, measured with gc.callbacks),
    # and every delivery arriving meanwhile would be timed late for it.
    gc.collect()
    gc.freeze()
    try:
        await asyncio.sleep(3)  # every stream caught up and waiting
        per_subscriber = (tree_rss_bytes(pid) - before) / size / 1024
        idle = CpuMeter(pid)
        await asyncio.sleep(min(10.0, seconds))
        idle_cores = idle.cores()["service"]
        busy = CpuMeter(pid)
        answered: list[float] = []
        sent = await _commands(url, tables, seconds, answered)
        cores = busy.cores()
        answered.sort()
        await _settle(subscribers, sent, within=5)
        latencies, lost = _delivery(subscribers, sent)
    finally:
        gc.unfreeze()
        close_all(subscribers)
        await asyncio.sleep(1)  # the service sees them go before it is stopped
    return [
        f"{size:,}",
        percentile(latencies, 50),
        percentile(latencies, 99),
        lost,
        cores["service"],
        idle_cores,
        per_subscriber,
        percentile(answered, 50),
        cores["load generator"],
    ]


async def _settle(
    subscribers: Sequence[tuple[int, Subscriber]],
    sent: list[list[tuple[int, float]]],
    within: float,
) -> None:
    deadline = time.monotonic() + within
    last = [s[-1][0] for s in sent]
    while time.monotonic() < deadline:
        if all(last[i] in sub.arrived for i, sub in subscribers):
            return
        await asyncio.sleep(0.1)


def _delivery(
    subscribers: Sequence[tuple[int, Subscriber]], sent: list[list[tuple[int, float]]]
) -> tuple[list[float], int]:
    latencies: list[float] = []
    lost = 0
    for index, subscriber in subscribers:
        for version, at in sent[index]:
            arrived = subscriber.arrived.get(version)
            if arrived is None:
                lost += 1
            else:
                latencies.append((arrived - at) * 1000)
    latencies.sort()
    return latencies, lost


async def live(sizes: Sequence[int], seconds: float, redis_url: str | None) -> None:
    rows = []
    for size in sizes:
        async with fresh_database("aeon_fanout") as database_url:
            with service(database_url, workers=2, redis_url=redis_url) as (url, proc):
                rows.append(await _live_size(url, proc.pid, size, seconds))
        gc.collect()
    how = f"with Redis ({redis_url})" if redis_url else "without Redis (LISTEN/NOTIFY)"
    print_table(
        f"Live fan-out, serve --workers 2 {how}, {ENCOUNTERS} encounters, "
        f"1 command/s each, {seconds:g} s",
        [
            "subscribers",
            "p50 ms",
            "p99 ms",
            "lost",
            "service cores",
            "idle cores",
            "KiB per subscriber",
            "command p50 ms",
            "generator cores",
        ],
        rows,
    )


async def _closed_loop(one: Any, clients: int, seconds: float) -> float:
    """Requests per second of ``clients`` closed loops of ``one(n)`` over ``seconds``."""
    done = [0] * clients
    stop = time.monotonic() + seconds

    async def loop(n: int) -> None:
        while time.monotonic() < stop:
            await one(n)
            done[n] += 1

    await asyncio.gather(*(loop(n) for n in range(clients)))
    return sum(done) / seconds


async def _interleaved(
    loops: Sequence[Any], clients: int, seconds: float, slices: int = 10
) -> list[float]:
    """Requests per second of each closed loop over ``seconds``, run in turns of
    ``seconds / slices``: on a shared machine, a burst of someone else's load then
    weighs on every measure of a round alike rather than on whichever ran during it."""
    totals = [0.0] * len(loops)
    for _ in range(slices):
        for n, one in enumerate(loops):
            totals[n] += await _closed_loop(one, clients, seconds / slices)
    return [total / slices for total in totals]


async def reads(clients: int, seconds: float, rounds: int) -> None:
    async with fresh_database("aeon_reads") as database_url:
        with service(database_url, workers=2) as (url, _proc):
            (table, version), *_ = await _tables(url)
            path = f"/encounters/{table.encounter_id}"
            https = [Connection(url) for _ in range(clients)]
            pool = await asyncpg.create_pool(database_url, min_size=clients, max_size=clients)
            tag = {**table.headers, "if-none-match": f'"{version}"'}
            eid = table.encounter_id
            try:

                async def select(_n: int) -> None:
                    await pool.fetchrow(
                        "SELECT state FROM encounter_state WHERE encounter_id = $1", eid
                    )

                async def fetch(n: int, headers: dict[str, str]) -> int:
                    try:
                        return (await https[n].request("GET", path, headers=headers)).status
                    except ConnectionError:  # closed by the server while the baseline ran
                        return (await https[n].request("GET", path, headers=headers)).status

                async def get(n: int) -> None:
                    assert await fetch(n, table.headers) == 200

                async def not_modified(n: int) -> None:
                    assert await fetch(n, tag) == 304

                rows = []
                for _ in range(rounds):
                    await _closed_loop(get, clients, 1)  # warm-up
                    rates = await _interleaved([select, get, not_modified], clients, seconds)
                    baseline, full, cached = rates
                    rows.append([baseline, full, full / baseline, cached, cached / baseline])
            finally:
                await pool.close()
                for http in https:
                    await http.close()
    print_table(
        f"GET /encounters/{{id}} at {clients} clients (GM token), {seconds:g} s windows",
        ["asyncpg SELECT /s", "200 /s", "200 ratio", "304 /s", "304 ratio"],
        rows,
    )
    print("targets: 200 ratio >= 0.30, 304 ratio >= 0.50")


def _raise_open_files(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted)) if hard != resource.RLIM_INFINITY else wanted
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < wanted:
        print(f"note: open files limited to {target} (wanted {wanted}); raise `ulimit -Hn`")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,10000")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/7")
    )
    parser.add_argument("--modes", default="redis,postgres", help="redis,postgres; '' for none")
    parser.add_argument("--read-seconds", type=float, default=5)
    parser.add_argument("--read-rounds", type=int, default=3)
    parser.add_argument("--read-clients", type=int, default=32)
    parser.add_argument("--skip-reads", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    _raise_open_files(max(sizes) + 1000)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        for mode in filter(None, args.modes.split(",")):
            runner.run(live(sizes, args.seconds, args.redis if mode == "redis" else None))
        if not args.skip_reads:
            runner.run(reads(args.read_clients, args.read_seconds, args.read_rounds))
    print(
        "targets: p99 < 50 ms and 0 lost; service < 0.5 cores at 10,000; idle < 0.1 cores;"
        " < 20 KiB per idle subscriber; without Redis at 1,000: p99 < 50 ms"
    )


if __name__ == "__main__":
    main()
