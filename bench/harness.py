"""What every benchmark needs: a fresh database, the service on a spare loopback port,
latency statistics and a table printer.

Each benchmark makes its own database on the server named by ``BENCH_DATABASE_URL``
(default: the machine's PostgreSQL on 127.0.0.1:5432) and drops it afterwards, so runs
never see each other's rows and the baseline shares the server with what it is compared to.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx

SERVER_URL = os.environ.get("BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


@asynccontextmanager
async def fresh_database(prefix: str = "aeon_bench") -> AsyncIterator[str]:
    """A new, empty database on the benchmark server; dropped on exit."""
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(SERVER_URL)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield with_database(SERVER_URL, name)
    finally:
        admin = await asyncpg.connect(SERVER_URL)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@contextmanager
def service(
    database_url: str,
    *,
    workers: int,
    extra_env: dict[str, str] | None = None,
    redis_url: str | None = None,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``aeon-ledger serve`` as production runs it (uvicorn, ``workers`` processes) on a
    spare loopback port, with Redis only when ``redis_url`` is given; yields (base url,
    process) once it is ready, stops it on exit."""
    # All load comes from one loopback address: the per-client rate limit stays on (its
    # cost is part of every request) but so high that it never refuses.
    env = {**os.environ, "DATABASE_URL": database_url, "AEON_RATE_LIMIT_PER_MINUTE": "100000000"}
    env.update(extra_env or {})
    env.pop("REDIS_URL", None)
    if redis_url:
        env["REDIS_URL"] = redis_url
    command = [str(BIN / "aeon-ledger"), "serve", "--workers", str(workers)]
    with _serving([*command, "--log-level", "warning"], env) as served:
        yield served


@contextmanager
def floor(*, workers: int) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``bench.floor``'s bare Litestar app, served as the service is, like ``service``."""
    command = [sys.executable, "-m", "bench.floor", "--workers", str(workers)]
    with _serving(command, dict(os.environ)) as served:
        yield served


@contextmanager
def _serving(
    command: list[str], env: dict[str, str]
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen(  # noqa: S603 (our own executables, arguments built here)
        [*command, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc)
        yield url, proc
    finally:
        stop(proc)


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"the service exited with {proc.returncode} before it was ready")
        try:
            if httpx.get(f"{url}/health/ready", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"the service at {url} was not ready within {timeout} s")
        time.sleep(0.2)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM a process started in a session of its own, and its group, then SIGKILL
    what is left after 20 s; nothing when it has already ended (the tests stop theirs
    with this too)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of a process and all its descendants (uvicorn's workers), from /proc."""
    total = 0
    for p in tree_pids(pid):
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


_TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process, from /proc (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS


def tree_pids(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
    return pids


def postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
    return pids


class CpuMeter:
    """CPU used by the service's process tree, PostgreSQL (every local ``postgres``
    process: run on a quiet server) and this load generator over a window, so a run
    shows where a command's CPU goes on a machine whose cores they all share."""

    def __init__(self, service_pid: int) -> None:
        self._service_pid = service_pid
        self._start = self._sample()

    def _sample(self) -> tuple[float, dict[str, float], dict[int, float]]:
        backends = {p: _cpu_seconds(p) for p in postgres_pids()}
        groups = {
            "service": sum(_cpu_seconds(p) for p in tree_pids(self._service_pid)),
            "load generator": _cpu_seconds(os.getpid()),
        }
        return time.monotonic(), groups, backends

    def cores(self) -> dict[str, float]:
        """Cores each part kept busy on average since the meter started."""
        t0, groups0, backends0 = self._start
        t1, groups1, backends1 = self._sample()
        wall = t1 - t0
        used = {name: (groups1[name] - groups0[name]) / wall for name in groups1}
        # Backends that ended in between took their CPU time with them (a pool's
        # connections do not end); one that started in between used all of its CPU time
        # within the window.
        used["PostgreSQL"] = sum(cpu - backends0.get(p, 0.0) for p, cpu in backends1.items()) / wall
        return used


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted sequence."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    cells = [[str(h) for h in header], *[[_fmt(c) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n{title}")
    for n, row in enumerate(cells):
        padded = (
            c.rjust(w) if i else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        print("  ".join(padded))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


class InstructionMeter:
    """Instructions retired by groups of processes over a window, counted by ``perf stat``
    (Debian's linux-perf).

    Unlike CPU time, an instruction count barely moves with what else the machine runs, so
    two runs, or a change and its parent, compare even on a busy machine.  Empty where perf
    is missing or the kernel does not expose the counter (some virtual machines).
    """

    def __init__(self, groups: dict[str, list[int]]) -> None:
        self._runs: dict[str, tuple[subprocess.Popen[bytes], Path]] = {}
        if shutil.which("perf") is None:
            return
        for name, pids in groups.items():
            out = Path(tempfile.mkstemp(prefix="aeon-bench-perf-")[1])
            command = ["perf", "stat", "-x,", "-e", "instructions", "-o", str(out)]
            proc = subprocess.Popen(  # noqa: S603 (perf with pids of our own processes)
                [*command, "-p", ",".join(map(str, pids))],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self._runs[name] = (proc, out)
        time.sleep(0.2)  # perf attaches before the window starts

    def stop(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for name, (proc, out) in self._runs.items():
            proc.send_signal(signal.SIGINT)
            proc.wait()
            for line in out.read_text().splitlines():
                field = line.split(",")[0]
                if "instructions" in line and field.isdigit():
                    counts[name] = int(field)
            out.unlink()
        return counts
