"""What operating the service costs: command throughput with metrics on against
``AEON_METRICS=off`` (request logs on in both), or with ``--logs-too`` with metrics and
request logs on against both off, in alternating windows.

    python -m bench.overhead                         # 32 clients, 8 pairs of 10 s windows
    python -m bench.overhead --logs-too --clients 8,32 --windows 8 --seconds 15

Two pairs of services run side by side on one fresh database, each service with its own
encounters, started in the order on, off, off, on: an A/A run showed the first-started of
two identical services measuring several percent behind, and the balanced order cancels
that bias.  The services take turns under load, a pair per window and the pairs in turn,
on first or off first so that each pair has as many of each, and a shared machine's
drift over the minutes of a run weighs on both alike.  With several workers the "on"
service is in prometheus_client's multiprocess mode, as production is.  Each line of the
report is one pair of windows; the overhead is 1 - on/off over all of them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics

from bench.harness import CpuMeter, fresh_database, service
from bench.load import Result
from bench.systems import Served, service_level, setup_tables

ENCOUNTERS = 100
_WARM_UP_SECONDS = 3.0
_METRICS_OFF = {"AEON_METRICS": "off"}
_ALL_OFF = {**_METRICS_OFF, "AEON_LOG_REQUESTS": "off"}


async def main(args: argparse.Namespace) -> None:
    workers = args.workers or os.cpu_count() or 1
    levels = [int(c) for c in args.clients.split(",")]
    async with fresh_database("aeon_overhead") as db_url:
        with contextlib.ExitStack() as stack:
            off = _ALL_OFF if args.logs_too else _METRICS_OFF
            print(f"off: {' '.join(f'{k}={v}' for k, v in off.items())}", flush=True)
            on = off if args.same else {}
            pairs: list[dict[str, Served]] = [{}, {}]
            for pair, name in ((0, "on"), (0, "off"), (1, "off"), (1, "on")):
                env = on if name == "on" else off
                url, proc = stack.enter_context(service(db_url, workers=workers, extra_env=env))
                tables = await setup_tables(url, ENCOUNTERS)
                positions = {t.encounter_id: 0 for t in tables}
                pairs[pair][name] = Served(url, proc.pid, tables, positions)
            # Unmeasured: every service's pools, caches and code paths warm before the
            # first window, so no side pays for starting cold.
            for s in (s for pair in pairs for s in pair.values()):
                await service_level(s.url, s.tables, s.positions, max(levels), _WARM_UP_SECONDS)
            for clients in levels:
                await _level(pairs, clients, args.seconds, args.windows)


def _turn(window: int) -> tuple[int, tuple[str, str]]:
    """Which pair runs a window, and in which order: the pairs alternate, and each pair
    goes on first and off first equally often."""
    on_first = (window // 2 + window) % 2 == 0
    return window % 2, ("on", "off") if on_first else ("off", "on")


async def _level(
    pairs: list[dict[str, Served]], clients: int, seconds: float, windows: int
) -> None:
    results: dict[str, list[Result]] = {"on": [], "off": []}
    cpu_us: dict[str, list[float]] = {"on": [], "off": []}
    for w in range(windows):
        pair, order = _turn(w)
        for name in order:
            s = pairs[pair][name]
            meter = CpuMeter(s.pid)
            result = await service_level(s.url, s.tables, s.positions, clients, seconds)
            # Cores the service kept busy (warm-up included) over commands per second.
            results[name].append(result)
            cpu_us[name].append(meter.cores()["service"] / max(result.rate, 1e-9) * 1e6)
    print(f"\n{clients} clients, {windows} pairs of {seconds:g} s windows")
    print("  pair  on cmd/s  off cmd/s  on/off  on p99 ms  off p99 ms  on CPU us  off CPU us")
    ratios = []
    windows_run = zip(results["on"], results["off"], cpu_us["on"], cpu_us["off"], strict=True)
    for i, (on, off, on_cpu, off_cpu) in enumerate(windows_run, 1):
        ratios.append(on.rate / off.rate)
        print(
            f"  {i:>4}  {on.rate:>8.0f}  {off.rate:>9.0f}  {ratios[-1]:>6.1%}"
            f"  {on.p(99):>9.1f}  {off.p(99):>10.1f}  {on_cpu:>9.0f}  {off_cpu:>10.0f}"
        )
    all_on, all_off = Result.merged(results["on"]), Result.merged(results["off"])
    cpu_on, cpu_off = statistics.median(cpu_us["on"]), statistics.median(cpu_us["off"])
    print(
        f"  all   {all_on.rate:>8.0f}  {all_off.rate:>9.0f}  {all_on.rate / all_off.rate:>6.1%}"
        f"  {all_on.p(99):>9.1f}  {all_off.p(99):>10.1f}  {cpu_on:>9.0f}  {cpu_off:>10.0f}"
        f"   errors: {all_on.errors + all_off.errors}"
    )
    print(
        f"  overhead: {1 - all_on.rate / all_off.rate:.1%} of throughput "
        f"(median pair {1 - statistics.median(ratios):.1%}); "
        f"service CPU per command {cpu_on / cpu_off - 1:+.1%} (medians)"
    )


def cli() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per window")
    parser.add_argument("--windows", type=int, default=8, help="pairs of windows per level")
    parser.add_argument("--workers", type=int, default=0, help="uvicorn workers (default: cores)")
    parser.add_argument("--clients", default="32", help="concurrency levels, e.g. 8,32")
    parser.add_argument(
        "--logs-too", action="store_true", help="the off service also logs no request lines"
    )
    parser.add_argument(
        "--same",
        action="store_true",
        help="both services off (an A/A run: how far apart two equal services measure)",
    )
    asyncio.run(main(parser.parse_args()))


if __name__ == "__main__":
    cli()
