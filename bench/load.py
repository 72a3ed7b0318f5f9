"""Closed-loop load: N clients, each sending its next operation as soon as the last one
answered, for a fixed time; latencies of every operation are kept for percentiles."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import msgspec

from bench.harness import percentile

WARMUP = 1.0
"""Seconds each closed loop runs before its measured window."""

Operation = Callable[[], Awaitable[bool]]
"""One operation of one client; returns whether it succeeded."""


class Result(msgspec.Struct):
    label: str
    clients: int
    ops: int
    errors: int
    seconds: float
    latencies_ms: list[float]

    @property
    def rate(self) -> float:
        return self.ops / self.seconds

    def p(self, q: float) -> float:
        return percentile(self.latencies_ms, q)

    @classmethod
    def merged(cls, parts: list[Result]) -> Result:
        """Several windows of one system at one level, as if they were one window."""
        first = parts[0]
        return cls(
            first.label,
            first.clients,
            sum(r.ops for r in parts),
            sum(r.errors for r in parts),
            sum(r.seconds for r in parts),
            sorted(ms for r in parts for ms in r.latencies_ms),
        )


async def closed_loop(
    label: str, operations: list[Operation], seconds: float, warmup: float = WARMUP
) -> Result:
    """Run one operation loop per client; count only what completes in the measured window."""
    latencies: list[float] = []
    errors = 0
    start = time.perf_counter() + warmup
    end = start + seconds

    async def client(op: Operation) -> None:
        nonlocal errors
        while True:
            t0 = time.perf_counter()
            if t0 >= end:
                return
            ok = await op()
            t1 = time.perf_counter()
            if t0 >= start and t1 <= end:
                latencies.append((t1 - t0) * 1000)
                errors += not ok

    await asyncio.gather(*(client(op) for op in operations))
    latencies.sort()
    return Result(label, len(operations), len(latencies), errors, seconds, latencies)
