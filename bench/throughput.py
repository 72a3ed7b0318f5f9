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

# This module is the command line and the runs it starts (main, soak); the systems under
# load are in bench/systems.py, the alternating windows in bench/paired.py and the printed
# report in bench/report.py.  Their public names are re-exported here.

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time

from bench import peer
from bench.harness import CpuMeter, floor, fresh_database, print_table, service, tree_rss_bytes
from bench.load import WARMUP, Result
from bench.paired import Paired, paired_level
from bench.pipeline import pipeline_level, pipeline_workers
from bench.report import _per, _print_instructions, _print_serving, _row, _targets
from bench.systems import Served, baseline, floor_level, service_level, setup_tables

__all__ = [
    "ENCOUNTERS",
    "LEVELS",
    "MemorySampler",
    "Paired",
    "Served",
    "baseline",
    "cli",
    "floor_level",
    "main",
    "paired_level",
    "service_level",
    "setup_tables",
    "soak",
]

ENCOUNTERS = 100
LEVELS = (1, 8, 32)


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


async def main(args: argparse.Namespace) -> None:
    workers = args.workers or os.cpu_count() or 1
    levels = tuple(int(c) for c in args.clients.split(","))
    systems = set(args.systems.split(","))
    floors: dict[int, Result] = {}
    floor_cpu: dict[int, dict[str, float]] = {}
    peers: dict[int, Result] = {}
    paired: dict[int, Paired] = {}
    pipelines: dict[int, Result] = {}
    pipeline_cpu: dict[int, dict[str, float]] = {}
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
                ours = Served(
                    url, proc.pid, tables, {t.encounter_id: 0 for t in tables}, args.hidden
                )
            if "pipeline" in systems:
                if ours is None:
                    raise SystemExit("the pipeline system needs the service (it sets up tables)")
                own_tables = await setup_tables(ours.url, ENCOUNTERS)
                own_positions = {t.encounter_id: 0 for t in own_tables}
                procs = stack.enter_context(pipeline_workers(db_url, workers))
            memory = MemorySampler(ours.pid) if ours else None
            if memory:
                memory.start()
            for c in levels:
                paired[c] = await paired_level(
                    db_url, ours, "ceiling" in systems, c, args.seconds, args.rounds
                )
                if "pipeline" in systems:
                    pipelines[c], pipeline_cpu[c] = await pipeline_level(
                        procs, own_tables, own_positions, c, args.seconds
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
        rows += [_row(pipelines[c], ceiling)] if c in pipelines else []
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
    for c, cores in pipeline_cpu.items():
        alone = _per(cores, pipelines[c])
        print(f"\nCPU per command of the pipeline alone at {c} clients: {alone}")
        if c in cpu and c in services:
            _print_serving(c, cpu[c], services[c], cores, pipelines[c], floor_cpu, floors)
    _print_instructions(paired, args.seconds + args.rounds * WARMUP)
    if rss:
        print(
            f"\nservice memory (all processes): start {rss[0] / 2**20:.0f} MiB, "
            f"peak {max(rss) / 2**20:.0f} MiB, end {rss[-1] / 2**20:.0f} MiB"
        )
    _targets(services, ceilings, peers, cpu, floors, floor_cpu)


def _peer_levels(db_url: str, levels: tuple[int, ...], seconds: float) -> dict[int, Result]:
    app = peer.make_app(db_url, max(levels))
    try:
        ids = peer.setup(app, ENCOUNTERS)
        positions = dict.fromkeys(ids, 0)
        return {c: peer.run(app, ids, positions, c, seconds) for c in levels}
    finally:
        app.close()


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
        help="subset of ceiling,floor,peer,service,pipeline (pipeline: the command's own "
        "work in process, no HTTP; needs service)",
    )
    parser.add_argument("--soak", type=float, default=0.0, help="run the memory soak instead")
    parser.add_argument(
        "--hidden",
        action="store_true",
        help="send every command as the GM's secret: the cost of sealed commands",
    )
    args = parser.parse_args()
    asyncio.run(soak(args) if args.soak else main(args))


if __name__ == "__main__":
    cli()
