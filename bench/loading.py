"""Benchmark 3: loading an encounter of 10,000 events with and without snapshots, and
rebuilding every read model from 1,000,000 events.

    python -m bench.loading                      # 10,000-event loads, 1,000,000-event rebuild
    python -m bench.loading --rebuild-events 100000   # a quicker rebuild

Everything runs in this process against a fresh database on the benchmark server: the
encounters are played through the real command pipeline (server dice, the bench.mix
cycle); the rebuild corpus clones one played encounter into many streams, each with its
own correctly recomputed hash chain, written with COPY.  The rebuild is timed twice from
the same start (read models emptied beforehand, untimed): in this process
(``rebuild_all``) and shared out to worker processes (``rebuild_all_in_processes``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from uuid import UUID, uuid4

import asyncpg
import msgspec

from api.app import open_pool
from api.settings import Settings
from bench.harness import fresh_database, print_table
from bench.mix import SETUP, step
from events.hashing import event_hash
from events.shards import shard_of
from events.store import read_stream
from projections.inline import read_model_rows
from projections.rebuild import rebuild_all, rebuild_all_in_processes
from service.applied import applied_steps
from service.commands import Actor, CommandEnvelope
from service.loading import load
from service.registry import all_command_types, codec_for
from service.write.pipeline import CommandPipeline

GM = Actor(role="gm")
_TYPES = {str(t.__struct_config__.tag): t for t in all_command_types()}


def _typed(command: dict[str, Any]) -> Any:
    return msgspec.convert(command, _TYPES[command["type"]])


async def play(pipeline: CommandPipeline, events: int) -> UUID:
    """An encounter played through the pipeline to at least ``events`` events."""
    opened = await pipeline.create_encounter(
        ruleset="generic", name="long fight", options={}, client_seed=None, actor=GM
    )
    created = msgspec.json.decode(opened.response)
    eid, version, n = UUID(created["encounter_id"]), 2, 0
    for command in SETUP:
        result = await pipeline.execute(eid, CommandEnvelope(command=_typed(command)), actor=GM)
        version = msgspec.json.decode(result)["version"]
    # Play past ``events`` up to a version just short of a snapshot (…99): the worst case
    # for a loader, which folds 99 events after the newest snapshot.
    while version < events or version % 100 != 99:
        envelope = CommandEnvelope(command=_typed(step(n)))
        version = msgspec.json.decode(await pipeline.execute(eid, envelope, actor=GM))["version"]
        n += 1
    return eid


async def time_loads(pool: asyncpg.Pool, eid: UUID, repeat: int) -> list[float]:
    await load(pool, eid, ruleset="generic")  # warm PostgreSQL's buffers and the codecs
    timings = []
    for _ in range(repeat):
        started = time.perf_counter()
        await load(pool, eid, ruleset="generic")
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)


async def clone_corpus(pool: asyncpg.Pool, template: UUID, streams: int) -> int:
    """``streams`` copies of the template encounter, each a valid hash-chained stream."""
    events = await read_stream(pool, template)
    seed = await pool.fetchrow(
        "SELECT seed, client_seed, commitment FROM dice_seeds WHERE stream_id = $1 AND epoch = 1",
        template,
    )
    assert seed is not None
    total = 0
    async with pool.acquire() as conn:
        for _ in range(streams):
            sid, prev, rows = uuid4(), "0" * 64, []
            for e in events:
                digest = event_hash(
                    prev,
                    stream_id=sid,
                    stream_version=e.stream_version,
                    type=e.type,
                    type_version=e.type_version,
                    data=e.data,
                    metadata=e.metadata,
                    recorded_at=e.recorded_at,
                )
                rows.append(
                    (
                        sid,
                        e.stream_version,
                        e.type,
                        e.type_version,
                        msgspec.json.encode(e.data).decode(),
                        msgspec.json.encode(e.metadata).decode(),
                        e.recorded_at,
                        prev,
                        digest,
                    )
                )
                prev = digest
            async with conn.transaction():
                # Each copy is numbered in its shard as a write would number it (or not
                # at all: the store is read in transaction order).
                shard = shard_of(sid)
                head = await conn.fetchval(
                    """UPDATE shard_heads SET head = head + $2
                       WHERE shard = $1 AND (SELECT by_shard FROM event_order) RETURNING head""",
                    shard,
                    len(rows),
                )
                numbered = [
                    (*row, shard, None if head is None else head - len(rows) + n)
                    for n, row in enumerate(rows, 1)
                ]
                await conn.execute(
                    "INSERT INTO streams (stream_id, version, last_hash) VALUES ($1, $2, $3)",
                    sid,
                    len(events),
                    prev,
                )
                await conn.execute(
                    "INSERT INTO dice_seeds (stream_id, epoch, seed, client_seed, commitment)"
                    " VALUES ($1, 1, $2, $3, $4)",
                    sid,
                    seed["seed"],
                    seed["client_seed"],
                    seed["commitment"],
                )
                await conn.copy_records_to_table(
                    "events",
                    records=numbered,
                    columns=[
                        "stream_id",
                        "stream_version",
                        "type",
                        "type_version",
                        "data",
                        "metadata",
                        "recorded_at",
                        "prev_hash",
                        "hash",
                        "shard",
                        "shard_position",
                    ],
                )
            total += len(rows)
    return total


async def fold_only_rate(pool: asyncpg.Pool, streams: list[UUID]) -> float:
    """Events per second of the general read path (``read_stream`` per stream, decoding
    through dicts, folding), no writes: what a reader of whole streams gets, for
    comparison with the rebuild's own scan and typed decoding."""
    codec = codec_for("generic")
    count, started = 0, time.perf_counter()
    for sid in streams:
        page = await read_stream(pool, sid)
        events = [codec.from_recorded(r) for r in page]
        applied_steps(codec.ruleset, None, page, events)
        count += len(page)
    return count / (time.perf_counter() - started)


class Rebuilt(NamedTuple):
    how: str
    streams: int
    events: int
    seconds: float


async def time_rebuilds(pool: asyncpg.Pool, db_url: str, processes: int) -> list[Rebuilt]:
    """``rebuild_all`` in this process, then in ``processes`` worker processes, each
    starting with no read-model rows (as the cloned streams have none after cloning)."""
    runs: list[tuple[str, Callable[[], Awaitable[tuple[int, int]]]]] = [
        ("in this process", lambda: rebuild_all(pool)),
        (f"{processes} processes", lambda: rebuild_all_in_processes(db_url, processes)),
    ]
    timed = []
    for how, rebuild in runs:
        await pool.execute("TRUNCATE encounter_state, log_entries, roll_ledger")
        await pool.execute("CHECKPOINT")  # the earlier rebuild's pages are not this one's
        started = time.perf_counter()
        streams, events = await rebuild()
        timed.append(Rebuilt(how, streams, events, time.perf_counter() - started))
        print(f"rebuilt ({how}) in {timed[-1].seconds:.0f} s", flush=True)
    return timed


async def main(args: argparse.Namespace) -> None:
    async with fresh_database() as db_url:
        pool = await open_pool(Settings(database_url=db_url))
        try:
            started = time.perf_counter()
            with_snapshots = await play(
                CommandPipeline(pool, read_model_rows, snapshot_every=100), args.load_events
            )
            without = await play(
                CommandPipeline(pool, read_model_rows, snapshot_every=10**9), args.load_events
            )
            print(
                f"played two {args.load_events:,}-event encounters"
                f" in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            snap = await time_loads(pool, with_snapshots, args.repeat)
            full = await time_loads(pool, without, max(5, args.repeat // 10))
            template_events = await pool.fetchval(
                "SELECT version FROM streams WHERE stream_id = $1", with_snapshots
            )
            template = await play(CommandPipeline(pool, read_model_rows, snapshot_every=100), 1000)
            per_stream = await pool.fetchval(
                "SELECT version FROM streams WHERE stream_id = $1", template
            )
            streams = max(1, args.rebuild_events // per_stream)
            started = time.perf_counter()
            cloned = await clone_corpus(pool, template, streams)
            print(
                f"cloned {cloned:,} events into {streams} streams"
                f" in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            # Untimed: the first reader of a million rows just copied in sets their hint
            # bits and writes the pages back, and the copy leaves a checkpoint's worth of
            # dirty pages; both fell on whichever rebuild ran first (the one in this
            # process), not on a store that has been live for a while, as one rebuilt is.
            await pool.execute("VACUUM (ANALYZE) events")
            await pool.execute("CHECKPOINT")
            total = await pool.fetchval("SELECT count(*) FROM events")
            sample = [
                r["stream_id"]
                for r in await pool.fetch(
                    "SELECT stream_id FROM streams ORDER BY random() LIMIT 20"
                )
            ]
            fold_rate = await fold_only_rate(pool, sample)
            rebuilds = await time_rebuilds(pool, db_url, args.processes)
        finally:
            await pool.close()

    print_table(
        f"Loading an encounter ({template_events:,} events), {args.repeat} loads",
        ["snapshots", "median ms", "p95 ms", "max ms"],
        [
            [
                "every 100 events",
                statistics.median(snap),
                snap[int(len(snap) * 0.95) - 1],
                snap[-1],
            ],
            ["none", statistics.median(full), full[int(len(full) * 0.95) - 1], full[-1]],
        ],
    )
    print_table(
        "Rebuilding every read model",
        ["rebuild", "events", "streams", "seconds", "events/s"],
        [[r.how, r.events, r.streams, r.seconds, r.events / r.seconds] for r in rebuilds],
    )
    print(
        f"  ({total:,} events in the store; read_stream, decode and fold per stream,"
        f" without writes: {fold_rate:,.0f} events/s)"
    )
    print("\ntargets:")
    median = statistics.median(snap)
    verdict = "holds" if median < 10 else "MISSED"
    print(f"  load of a 10,000-event encounter with snapshots < 10 ms: {median:.2f} ms {verdict}")
    for r in rebuilds:
        rate = r.events / r.seconds
        verdict = "holds" if rate >= 100_000 else "MISSED"
        print(f"  rebuild ({r.how}) >= 100,000 events/s: {rate:,.0f} {verdict}")


def cli() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--load-events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rebuild-events", type=int, default=1_000_000)
    parser.add_argument(
        "--processes",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes of the second rebuild (default: one per core)",
    )
    asyncio.run(main(parser.parse_args()))


if __name__ == "__main__":
    cli()
