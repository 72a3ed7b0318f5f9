"""What bench.throughput prints after measuring: table rows, CPU per command, instructions
per command and the targets (held or missed).

One job: the report.  Apart from bench/throughput.py because formatting the
figures has nothing to do with producing them.
"""

from __future__ import annotations

import os

from bench.load import Result
from bench.paired import Paired


def _row(r: Result, ceiling: Result | None = None, peer_r: Result | None = None) -> list[object]:
    row: list[object] = [r.label, r.clients, r.rate, r.p(50), r.p(95), r.p(99), r.errors]
    row.append(f"{r.rate / ceiling.rate:.0%}" if ceiling else "")
    row.append(f"{r.rate / peer_r.rate:.2f}x" if peer_r else "")
    return row


def _per(cores: dict[str, float], result: Result) -> str:
    return ", ".join(
        f"{name} {used / result.rate * 1e6:,.0f} us ({used:.2f} cores)"
        for name, used in cores.items()
    )


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
