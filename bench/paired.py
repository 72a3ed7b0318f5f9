"""The ceiling and the service at one level, in alternating windows (``paired_level``), with
the CPU and instructions each part spent.

One job: pairing the windows.  Apart from bench/throughput.py because the
alternation is what makes the service-over-ceiling ratio fair on a shared machine, and it
reads best on its own, apart from the systems it alternates and the report it feeds.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import NamedTuple

from bench.harness import CpuMeter, InstructionMeter, postgres_pids, tree_pids
from bench.load import Result
from bench.systems import Served, baseline, service_level


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
                    await service_level(
                        ours.url, ours.tables, ours.positions, clients, window, ours.hidden
                    )
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


def _counted(service_pid: int | None = None) -> dict[str, list[int]]:
    groups = {"PostgreSQL": postgres_pids(), "load generator": [os.getpid()]}
    return {"service": tree_pids(service_pid), **groups} if service_pid else groups
