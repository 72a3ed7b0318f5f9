"""Command throughput of the write path with each AEON_WRITE_STATEMENT strategy
(``WAYS``), on the database
``--url`` names: a Citus coordinator whose tables are distributed (docs/scale-out.md#citus);
with ``--citus``, a fresh database distributed on the cluster of that coordinator for this
run (tests/support/citus.py, as the tests make theirs), dropped after it; without either,
a fresh database on the benchmark server (plain PostgreSQL).

    python -m bench.citus --citus postgresql://postgres@127.0.0.1:5440/postgres
    python -m bench.citus --clients 8,32 --seconds 10

The pipeline runs in this process (no HTTP): what differs between the ways is only how
the writes reach the database, so that is all this measures.  Each client plays its own
encounter (an ogre taking 1 damage per command), so groups span encounters, and on Citus
workers, as they do under real load.  The ways run in alternating windows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import AsyncIterator
from uuid import UUID

import asyncpg
import msgspec

from api.app import open_pool
from api.settings import Settings
from bench.harness import fresh_database, print_table
from bench.load import Operation, Result, closed_loop
from projections.inline import read_model_rows
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Damage
from service.write.pipeline import CommandPipeline
from service.write.strategy import WriteStatement, strategy_for
from tests.support.citus import fresh_citus_database

GM = Actor(role="gm")
WAYS: tuple[WriteStatement, ...] = ("single", "split")
"""The AEON_WRITE_STATEMENT strategies measured (service/write/strategy.py)."""


@contextlib.asynccontextmanager
async def _database(url: str | None, citus: str | None) -> AsyncIterator[str]:
    if url is not None:
        yield url
        return
    if citus is not None:
        async with fresh_citus_database(citus) as fresh:
            yield fresh
        return
    async with fresh_database("aeon_bench_citus") as fresh:
        yield fresh


async def _encounter(pipeline: CommandPipeline, n: int) -> UUID:
    opened = await pipeline.create_encounter(
        ruleset="generic",
        name=f"bench {n}",
        options={},
        client_seed=None,
        actor=GM,
    )
    encounter_id = UUID(_decode_id(opened.response))
    await pipeline.execute(
        encounter_id,
        CommandEnvelope(command=AddCombatant(id="ogre", name="Ogre", hp=1_000_000)),
        actor=GM,
    )
    return encounter_id


def _decode_id(response: bytes) -> str:
    return str(msgspec.json.decode(response)["encounter_id"])


def _damage(pipeline: CommandPipeline, encounter_id: UUID) -> Operation:
    command = CommandEnvelope(command=Damage(target="ogre", amount=1))

    async def op() -> bool:
        await pipeline.execute(encounter_id, command, actor=GM)
        return True

    return op


async def _level(
    pool: asyncpg.Pool, way: WriteStatement, ids: list[UUID], seconds: float
) -> Result:
    pipeline = CommandPipeline(pool, read_model_rows, strategy=strategy_for(way))
    for encounter_id in ids:  # cache every encounter: the single-trip path, as in service
        await pipeline.execute(
            encounter_id, CommandEnvelope(command=Damage(target="ogre", amount=1)), actor=GM
        )
    return await closed_loop(way, [_damage(pipeline, e) for e in ids], seconds)


async def main(args: argparse.Namespace) -> None:
    levels = [int(c) for c in args.clients.split(",")]
    async with _database(args.url, args.citus) as url:
        pool = await open_pool(Settings(database_url=url, pool_max=max(levels) + 2))
        try:
            citus = await pool.fetchval("SELECT count(*) FROM pg_extension WHERE extname = 'citus'")
            setup = CommandPipeline(pool, read_model_rows)
            ids = [await _encounter(setup, n) for n in range(max(levels))]
            rows = []
            for clients in levels:
                results: dict[WriteStatement, list[Result]] = {w: [] for w in WAYS}
                for _ in range(args.rounds):
                    for way in WAYS:
                        results[way].append(await _level(pool, way, ids[:clients], args.seconds))
                for way in WAYS:
                    merged = Result.merged(results[way])
                    rows.append([way, clients, round(merged.rate), merged.p(50), merged.p(99)])
        finally:
            await pool.close()
        print_table(  # before the database is dropped, which can fail
            f"write paths on {'Citus' if citus else 'PostgreSQL'}"
            f" ({args.rounds} x {args.seconds:g} s windows per way and level)",
            [
                "AEON_WRITE_STATEMENT",
                "clients",
                "commands/s",
                "p50 ms",
                "p99 ms",
            ],
            rows,
        )


def cli() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default=None, help="the database (default: a fresh one)")
    parser.add_argument(
        "--citus", default=None, help="a Citus coordinator: run on a fresh database there"
    )
    parser.add_argument("--clients", default="8,32", help="concurrency levels")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per window")
    parser.add_argument("--rounds", type=int, default=2, help="windows per mode and level")
    asyncio.run(main(parser.parse_args()))


if __name__ == "__main__":
    cli()
