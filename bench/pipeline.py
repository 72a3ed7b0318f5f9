"""The command's own work without HTTP: ``CommandPipeline.execute`` driven in process.

The throughput benchmark's service figure is everything a command costs: HTTP, Litestar,
the middleware, the answer's send, and the command itself.  This system runs the same
cycle of commands through the same pipeline the service builds (the same settings, pool,
group commit and write statement), in as many processes as the service has workers, each
with its share of the clients as closed-loop tasks and no socket between them.  So in
one run ``service - pipeline`` is what serving a command over HTTP costs, and the
pipeline's own CPU is what a command would cost with no HTTP at all.

Left out, because they are the request's and not the command's: the token check (each
task acts with the GM token's viewer, checked once) and the live fan-out (no notifier).
The body is decoded into the command as the service decodes it.

``python -m bench.pipeline`` is one worker: it reads one window per line on stdin and
answers each with one line of JSON on stdout; ``pipeline_workers`` and ``pipeline_level``
are the benchmark's side.
"""

from __future__ import annotations

import asyncio
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

import msgspec

from bench.api import Table
from bench.harness import CpuMeter
from bench.load import Operation, Result, closed_loop
from bench.mix import step

LABEL = "command pipeline, no HTTP"


class Client(msgspec.Struct):
    """One closed-loop client: the encounters it owns, with their GM tokens and the
    cycle's next step for each."""

    encounters: list[tuple[str, str, int]]


class Window(msgspec.Struct):
    clients: list[Client]
    seconds: float


class Done(msgspec.Struct):
    result: Result
    positions: dict[str, int]
    cpu_seconds: float


@contextmanager
def pipeline_workers(database_url: str, workers: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``workers`` worker processes on ``database_url``, stopped on exit."""
    env = {**os.environ, "DATABASE_URL": database_url}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bench.pipeline"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        for _ in range(workers)
    ]
    try:
        yield procs
    finally:
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.close()
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def pipeline_level(
    procs: list[subprocess.Popen[bytes]],
    tables: list[Table],
    positions: dict[str, int],
    clients: int,
    seconds: float,
) -> tuple[Result, dict[str, float]]:
    """One window at ``clients`` clients, owned as the service's clients own their tables
    (client i the tables i, i + clients, ...), the clients dealt out to the workers in
    turn.  Returns the merged result and the cores each part kept busy."""
    owned = [
        Client([(t.encounter_id, _token(t), positions[t.encounter_id]) for t in tables[i::clients]])
        for i in range(clients)
    ]
    meter = CpuMeter(os.getpid())
    started = time.monotonic()
    answers = await asyncio.gather(
        *(
            asyncio.to_thread(_run_window, proc, Window(owned[w :: len(procs)], seconds))
            for w, proc in enumerate(procs)
        )
    )
    wall = time.monotonic() - started
    cores = meter.cores()
    done = [a for a in answers if a.result.clients]
    for answer in done:
        positions.update(answer.positions)
    result = Result(
        LABEL,
        clients,
        sum(a.result.ops for a in done),
        sum(a.result.errors for a in done),
        seconds,
        sorted(ms for a in done for ms in a.result.latencies_ms),
    )
    used = {"service": sum(a.cpu_seconds for a in answers) / wall}
    # The meter's own tree is this process and its children: the workers (counted above
    # from their own clocks) and the idle service.
    return result, {**used, "PostgreSQL": cores["PostgreSQL"]}


def _token(table: Table) -> str:
    return table.headers.get("authorization", "").removeprefix("Bearer ")


_ANSWER_GRACE = 120.0
"""Seconds past its window a worker has to answer: a worker that never answers would
otherwise hold the benchmark, and the lock other runs wait on, for good."""


def _run_window(
    proc: subprocess.Popen[bytes], window: Window, grace: float = _ANSWER_GRACE
) -> Done:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(msgspec.json.encode(window) + b"\n")
    proc.stdin.flush()
    answered, _, _ = select.select([proc.stdout], [], [], window.seconds + grace)
    if not answered:
        raise TimeoutError(f"pipeline worker {proc.pid} did not answer its window")
    return msgspec.json.decode(proc.stdout.readline(), type=Done)


# -- the worker ---------------------------------------------------------------------------


async def _worker() -> None:
    from api.app import open_pool
    from api.http.auth import actor_of
    from api.http.writes import request_limits
    from api.schemas import CommandBody
    from api.settings import Settings
    from projections.inline import read_model_rows
    from service.commands import Actor, CommandEnvelope
    from service.tokens import authenticate
    from service.write.pipeline import CommandPipeline
    from service.write.strategy import strategy_for

    settings = Settings.from_env()
    pool = await open_pool(settings)
    pipeline = CommandPipeline(
        pool,
        read_model_rows,
        snapshot_every=settings.snapshot_every,
        chain_key=settings.chain_key_bytes,
        strategy=strategy_for(settings.write_statement),
    )
    limits = request_limits(settings)
    decode = msgspec.json.Decoder(CommandBody).decode
    actors: dict[str, Actor] = {}
    loop = asyncio.get_running_loop()

    async def actor_for(encounter_id: str, token: str) -> Actor:
        if encounter_id not in actors:
            viewer = await authenticate(pool, UUID(encounter_id), token)
            assert viewer is not None, "the table's GM token"
            actors[encounter_id] = actor_of(viewer)
        return actors[encounter_id]

    positions: dict[str, int] = {}

    def op_for(client: Client) -> Operation:
        mine, j = [UUID(e) for e, _, _ in client.encounters], 0

        async def op() -> bool:
            nonlocal j
            encounter_id = mine[j % len(mine)]
            j += 1
            key = str(encounter_id)
            n = positions[key]
            positions[key] = n + 1
            body = decode(msgspec.json.encode({"command": step(n)}))
            envelope = CommandEnvelope(command=body.command, manual_dice=None, hidden=False)
            await pipeline.execute(
                encounter_id,
                envelope,
                None,
                limits,
                actor=actors[key],
                expected_version=None,
                idempotency_key=None,
                request_hash="",
            )
            return True

        return op

    while line := await loop.run_in_executor(None, sys.stdin.buffer.readline):
        window = msgspec.json.decode(line, type=Window)
        for client in window.clients:
            for encounter_id, token, n in client.encounters:
                positions[encounter_id] = n
                await actor_for(encounter_id, token)
        cpu = time.process_time()
        result = await closed_loop(LABEL, [op_for(c) for c in window.clients], window.seconds)
        cpu = time.process_time() - cpu
        mine = {e: positions[e] for c in window.clients for e, _, _ in c.encounters}
        sys.stdout.buffer.write(msgspec.json.encode(Done(result, mine, cpu)) + b"\n")
        sys.stdout.buffer.flush()
    await pool.close()


if __name__ == "__main__":
    import uvloop

    uvloop.run(_worker())
