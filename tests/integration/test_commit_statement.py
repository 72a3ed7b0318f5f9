"""Every variant of a command's one write statement (events/append.py) and every statement
of the split write (events/append_split.py) is valid SQL whose parameters PostgreSQL can
type, numbered without gaps: a part that only rare commands need (a snapshot, a new seed,
an Idempotency-Key) must not break when it is first used."""

from __future__ import annotations

import re
from itertools import product

import asyncpg

from events.append import Parts, Statement, log, rolls, seed, snapshots, state, statement
from events.append_split import events_values, first, routed


def _numbered_without_gaps(found: Statement) -> bool:
    numbers = {int(n) for n in re.findall(r"\$(\d+)", found.sql)}
    return numbers == set(range(1, len(found.names) + 1))


async def test_every_statement_variant_prepares(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn:
        bools = (False, True)
        for flags in product(bools, bools, bools, bools, bools, bools):
            found = statement(Parts(*flags))
            assert _numbered_without_gaps(found), flags
            prepared = await conn.prepare(found.sql)
            assert len(prepared.get_parameters()) == len(found.names)


async def test_every_split_statement_prepares(pool: asyncpg.Pool) -> None:
    bools = (False, True)
    split = [first(token=t, key=k) for t, k in product(bools, bools)]
    split += [events_values(n) for n in (1, 3)]
    split += [routed(part) for part in (state, log, rolls, snapshots, seed)]
    async with pool.acquire() as conn:
        for found in split:
            assert _numbered_without_gaps(found), found.sql
            prepared = await conn.prepare(found.sql)
            assert len(prepared.get_parameters()) == len(found.names)
