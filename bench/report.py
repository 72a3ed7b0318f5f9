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


def _print_serving(
    clients: int,
    cores: dict[str, float],
    served: Result,
    pipeline_cores: dict[str, float],
    pipeline: Result,
    floor_cpu: dict[int, dict[str, float]],
    floors: dict[int, Result],
) -> None:
    """What serving a command over HTTP adds to the command itself: the service's CPU per
    command less the pipeline's, in microseconds and in the floor's requests."""
    extra = (cores["service"] / served.rate - pipeline_cores["service"] / pipeline.rate) * 1e6
    line = f"serving a command over HTTP at {clients} clients: {extra:,.0f} us of service CPU"
    if clients in floor_cpu:
        request = floor_cpu[clients]["service"] / floors[clients].rate * 1e6
        line += f" ({extra / request:.1f}x the floor's request)"
    print(line)


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


SHARE_TARGETS = {1: 0.35, 8: 0.35, 32: 0.50}
"""The least share of the asyncpg ceiling the service should reach, per client count."""
FLOOR_MULTIPLE = 3.0
"""The most CPU a command may cost the service at 32 clients, in the floor's requests."""
MEDIAN_MULTIPLE = 2.0
"""The longest a command's median at 1 client may be, in (ceiling's + floor's median)."""


def _verdict(held: bool) -> str:
    return "holds" if held else "MISSED"


def _targets(
    ours: dict[int, Result],
    ceilings: dict[int, Result],
    peers: dict[int, Result],
    cpu: dict[int, dict[str, float]],
    floors: dict[int, Result],
    floor_cpu: dict[int, dict[str, float]],
) -> None:
    print("\ntargets:")
    for c, least in SHARE_TARGETS.items():
        if c in ours and c in ceilings:
            share = ours[c].rate / ceilings[c].rate
            verdict = _verdict(share >= least)
            print(f"  {c} clients >= {least:.0%} of ceiling: {share:.0%} {verdict}")
            if c == 32 and 32 in cpu:  # what the share leaves each command, on shared cores
                budget = (os.cpu_count() or 1) / (least * ceilings[32].rate) * 1e6
                used = sum(cpu[32].values()) / ours[32].rate * 1e6
                print(
                    f"    ({least:.0%} of it leaves {budget:,.0f} us of CPU per command;"
                    f" used: {used:,.0f})"
                )
    if 32 in cpu and 32 in floor_cpu and "service" in cpu[32]:
        command = cpu[32]["service"] / ours[32].rate * 1e6
        request = floor_cpu[32]["service"] / floors[32].rate * 1e6
        multiple = command / request
        print(
            f"  service CPU per command at 32 clients <= {FLOOR_MULTIPLE:g}x the floor's per"
            f" request: {multiple:.1f}x ({command:,.0f} against {request:,.0f} us)"
            f" {_verdict(multiple <= FLOOR_MULTIPLE)}"
        )
    if 1 in ours and 1 in ceilings and 1 in floors:
        limit = MEDIAN_MULTIPLE * (ceilings[1].p(50) + floors[1].p(50))
        median = ours[1].p(50)
        print(
            f"  median at 1 client <= {MEDIAN_MULTIPLE:g}x (ceiling's + floor's median):"
            f" {median:.2f} ms against {limit:.2f} ms {_verdict(median <= limit)}"
        )
    if 32 in ours and 32 in peers:
        ratio = ours[32].rate / peers[32].rate
        print(f"  32 clients >= 2x peer: {ratio:.2f}x {_verdict(ratio >= 2)}")
    if 8 in ours:
        p99 = ours[8].p(99)
        print(f"  p99 at 8 clients < 25 ms: {p99:.1f} ms {_verdict(p99 < 25)}")
