"""Benchmark 1 and 2: command throughput and latency of the service, against the asyncpg
ceiling and the eventsourcing peer, all measured in this run on the same PostgreSQL.

    python -m bench.throughput                  # 1, 8, 32 clients, 10 s each
    python -m bench.throughput --seconds 30     # longer windows
    python -m bench.throughput --soak 300       # memory over a 5-minute run at 32 clients

The service runs as production runs it: ``aeon-ledger serve --workers <cores>`` (uvicorn),
in its own fresh database.  The load generator (bench/client.py) shares the machine.  At
each level the ceiling and the service run in alternating windows (``--rounds``), so the
ratio between them compares the same minutes of a shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time
from collections import Counter
from datetime import UTC, datetime
from typing import NamedTuple
from uuid import uuid4

import asyncpg
import msgspec

from bench import peer
from bench.api import Table, create_encounter, send_command
from bench.client import Connection
from bench.harness import (
    CpuMeter,
    InstructionMeter,
    floor,
    fresh_database,
    postgres_pids,
    print_table,
    service,
    tree_pids,
    tree_rss_bytes,
)
from bench.load import WARMUP, Operation, Result, closed_loop
from bench.mix import SETUP, step

ENCOUNTERS = 100
LEVELS = (1, 8, 32)
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
    url: str, tables: list[Table], positions: dict[str, int], clients: int, seconds: float
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
                r = await send_command(http, table, step(n))
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


class MemorySampler:
    """Resident memory of the service's process tree, sampled every ``every`` seconds."""

    def __init__(self, pid: int, every: float = 1.0) -> None:
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, int]] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        t0 = time.monotonic()
        while True:
            self.samples.append((time.monotonic() - t0, tree_rss_bytes(self.pid)))
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


def _row(r: Result, ceiling: Result | None = None, peer_r: Result | None = None) -> list[object]:
    row: list[object] = [r.label, r.clients, r.rate, r.p(50), r.p(95), r.p(99), r.errors]
    row.append(f"{r.rate / ceiling.rate:.0%}" if ceiling else "")
    row.append(f"{r.rate / peer_r.rate:.2f}x" if peer_r else "")
    return row


async def main(args: argparse.Namespace) -> None:
    workers = args.workers or os.cpu_count() or 1
    levels = tuple(int(c) for c in args.clients.split(","))
    systems = set(args.systems.split(","))
    floors: dict[int, Result] = {}
    floor_cpu: dict[int, dict[str, float]] = {}
    peers: dict[int, Result] = {}
    paired: dict[int, Paired] = {}
    rss: list[int] = []
    async with fresh_database() as db_url:
        if "floor" in systems:
            with floor(workers=workers) as (url, proc):
                for c in levels:
                    meter = CpuMeter(proc.pid)
                    floors[c] = await floor_level(url, c, args.seconds)
                    floor_cpu[c] = meter.cores()
            print("framework floor measured", flush=True)
        with contextlib.ExitStack() as stack:
            ours: Served | None = None
            if "service" in systems:
                url, proc = stack.enter_context(service(db_url, workers=workers))
                tables = await setup_tables(url, ENCOUNTERS)
                ours = Served(url, proc.pid, tables, {t.encounter_id: 0 for t in tables})
            memory = MemorySampler(ours.pid) if ours else None
            if memory:
                memory.start()
            for c in levels:
                paired[c] = await paired_level(
                    db_url, ours, "ceiling" in systems, c, args.seconds, args.rounds
                )
                print(f"{c} clients measured", flush=True)
            if memory:
                await memory.stop()
                rss = [b for _, b in memory.samples]
        if "peer" in systems:
            peers = await asyncio.to_thread(_peer_levels, db_url, levels, args.seconds)
            print("peer measured", flush=True)

    ceilings = {c: p.ceiling for c, p in paired.items() if p.ceiling}
    services = {c: p.service for c, p in paired.items() if p.service}
    cpu = {c: p.cores for c, p in paired.items() if p.cores}
    header = ["system", "clients", "commands/s", "p50 ms", "p95 ms", "p99 ms", "errors"]
    header += ["of ceiling", "vs peer"]
    rows: list[list[object]] = []
    for c in levels:
        ceiling, peer_c = ceilings.get(c), peers.get(c)
        rows += [_row(ceiling)] if ceiling else []
        rows += [_row(floors[c], ceiling)] if c in floors else []
        rows += [_row(peer_c, ceiling)] if peer_c else []
        rows += [_row(services[c], ceiling, peer_c)] if c in services else []
    print_table(
        f"Command throughput, {args.seconds:g} s per level and system ({args.rounds} "
        f"alternating windows of ceiling and service), {ENCOUNTERS} encounters, "
        f"service with {workers} uvicorn workers",
        header,
        rows,
    )
    for c, p in paired.items():
        if len(p.ratios) > 1:
            print(
                f"\nservice / ceiling in each pair of windows at {c} clients: "
                + ", ".join(f"{r:.0%}" for r in p.ratios)
            )
    for c, cores in floor_cpu.items():
        print(f"\nCPU per request of the Litestar floor at {c} clients: {_per(cores, floors[c])}")
    for c, cores in cpu.items():
        print(f"\nCPU per command at {c} clients: {_per(cores, services[c])}")
    _print_instructions(paired, args.seconds + args.rounds * WARMUP)
    if rss:
        print(
            f"\nservice memory (all processes): start {rss[0] / 2**20:.0f} MiB, "
            f"peak {max(rss) / 2**20:.0f} MiB, end {rss[-1] / 2**20:.0f} MiB"
        )
    _targets(services, ceilings, peers, cpu)


class Served(NamedTuple):
    """The running service and its benchmark encounters."""

    url: str
    pid: int
    tables: list[Table]
    positions: dict[str, int]


class Paired(NamedTuple):
    """One level's ceiling and service, measured in alternating windows."""

    ceiling: Result | None
    service: Result | None
    ratios: list[float]
    """Service over ceiling in each pair of windows: how steady the ratio is."""
    cores: dict[str, float]
    """Cores each part kept busy during the service's windows."""
    instructions: dict[str, dict[str, int]]
    """Instructions per part, summed over the windows of "ceiling" and of "service"."""


async def paired_level(
    db_url: str,
    ours: Served | None,
    with_ceiling: bool,
    clients: int,
    seconds: float,
    rounds: int,
) -> Paired:
    """The ceiling and the service in ``rounds`` alternating windows each (ceiling first,
    then service first, and so on), so that a shared machine's drift over the minutes of a
    run weighs on both alike.  Each window has its own warm-up."""
    window = seconds / rounds
    ceiling_parts: list[Result] = []
    service_parts: list[Result] = []
    cores: list[dict[str, float]] = []
    instructions: dict[str, Counter[str]] = {"ceiling": Counter(), "service": Counter()}
    for r in range(rounds):
        for system in ("ceiling", "service") if r % 2 == 0 else ("service", "ceiling"):
            if system == "ceiling" and with_ceiling:
                counter = InstructionMeter(_counted())
                ceiling_parts.append(await baseline(db_url, clients, window))
                instructions["ceiling"].update(counter.stop())
            elif system == "service" and ours is not None:
                meter = CpuMeter(ours.pid)
                counter = InstructionMeter(_counted(ours.pid))
                service_parts.append(
                    await service_level(ours.url, ours.tables, ours.positions, clients, window)
                )
                instructions["service"].update(counter.stop())
                cores.append(meter.cores())
    ratios = [s.rate / c.rate for s, c in zip(service_parts, ceiling_parts, strict=False)]
    return Paired(
        Result.merged(ceiling_parts) if ceiling_parts else None,
        Result.merged(service_parts) if service_parts else None,
        ratios,
        {name: sum(c[name] for c in cores) / len(cores) for name in cores[0]} if cores else {},
        {system: dict(counts) for system, counts in instructions.items()},
    )


def _per(cores: dict[str, float], result: Result) -> str:
    return ", ".join(
        f"{name} {used / result.rate * 1e6:,.0f} us ({used:.2f} cores)"
        for name, used in cores.items()
    )


def _counted(service_pid: int | None = None) -> dict[str, list[int]]:
    groups = {"PostgreSQL": postgres_pids(), "load generator": [os.getpid()]}
    return {"service": tree_pids(service_pid), **groups} if service_pid else groups


def _print_instructions(paired: dict[int, Paired], timed: float) -> None:
    """Instructions per command (per row for the ceiling), where ``perf`` can count them:
    the figure to compare between runs on a busy machine.  ``timed`` is a level's
    seconds per system, warm-ups included (each runs at about the measured rate)."""
    for c, p in paired.items():
        for system, result in (("ceiling", p.ceiling), ("service", p.service)):
            done = result.rate * timed if result else 0
            if p.instructions[system] and done:
                per = ", ".join(
                    f"{name} {n / done / 1e3:,.0f}k" for name, n in p.instructions[system].items()
                )
                unit = "row" if system == "ceiling" else "command"
                print(f"instructions per {unit}, {system} at {c} clients: {per}")


def _peer_levels(db_url: str, levels: tuple[int, ...], seconds: float) -> dict[int, Result]:
    app = peer.make_app(db_url, max(levels))
    try:
        ids = peer.setup(app, ENCOUNTERS)
        positions = dict.fromkeys(ids, 0)
        return {c: peer.run(app, ids, positions, c, seconds) for c in levels}
    finally:
        app.close()


def _targets(
    ours: dict[int, Result],
    ceilings: dict[int, Result],
    peers: dict[int, Result],
    cpu: dict[int, dict[str, float]],
) -> None:
    print("\ntargets:")
    if 32 in ours and 32 in ceilings:
        share = ours[32].rate / ceilings[32].rate
        print(
            f"  32 clients >= 35% of ceiling: {share:.0%} {'holds' if share >= 0.35 else 'MISSED'}"
        )
        if 32 in cpu:  # what 35% leaves each command, with every process on the same cores
            budget = (os.cpu_count() or 1) / (0.35 * ceilings[32].rate) * 1e6
            used = sum(cpu[32].values()) / ours[32].rate * 1e6
            print(f"    (35% of it leaves {budget:,.0f} us of CPU per command; used: {used:,.0f})")
    if 32 in ours and 32 in peers:
        ratio = ours[32].rate / peers[32].rate
        print(f"  32 clients >= 2x peer: {ratio:.2f}x {'holds' if ratio >= 2 else 'MISSED'}")
    if 8 in ours:
        p99 = ours[8].p(99)
        print(f"  p99 at 8 clients < 25 ms: {p99:.1f} ms {'holds' if p99 < 25 else 'MISSED'}")


async def soak(args: argparse.Namespace) -> None:
    """32 clients for ``args.soak`` seconds; memory and throughput per interval."""
    workers = args.workers or os.cpu_count() or 1
    interval = 30.0
    async with fresh_database() as db_url:
        with service(db_url, workers=workers) as (url, proc):
            tables = await setup_tables(url, ENCOUNTERS)
            positions = {t.encounter_id: 0 for t in tables}
            rows: list[list[object]] = []
            rss: list[float] = []
            elapsed = 0.0
            while elapsed < args.soak:
                r = await service_level(url, tables, positions, 32, interval)
                elapsed += interval + 1.0
                rss.append(tree_rss_bytes(proc.pid) / 2**20)
                rows.append([f"{elapsed:.0f} s", r.rate, r.p(99), rss[-1]])
                print(f"  {rows[-1]}", flush=True)
    print_table(
        f"Soak: 32 clients for {args.soak:g} s", ["at", "commands/s", "p99 ms", "RSS MiB"], rows
    )
    # The whole run, and its second half: a leak grows in both, while a process that
    # warms up (caches filling, the allocator's arenas reaching their working size)
    # grows only in the first.
    for label, start in (("the whole run", rss[0]), ("its second half", rss[len(rss) // 2])):
        growth = rss[-1] - start
        verdict = "flat" if abs(growth) < 0.1 * start else "NOT flat"
        print(f"memory over {label}: {start:.0f} -> {rss[-1]:.0f} MiB ({growth:+.0f}); {verdict}")


def cli() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="measured seconds per level and system"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="alternating windows of ceiling and service per level (default 3)",
    )
    parser.add_argument("--workers", type=int, default=0, help="uvicorn workers (default: cores)")
    parser.add_argument("--clients", default="1,8,32", help="concurrency levels, e.g. 8,32")
    parser.add_argument(
        "--systems",
        default="ceiling,floor,peer,service",
        help="subset of ceiling,floor,peer,service",
    )
    parser.add_argument("--soak", type=float, default=0.0, help="run the memory soak instead")
    args = parser.parse_args()
    asyncio.run(soak(args) if args.soak else main(args))


if __name__ == "__main__":
    cli()
