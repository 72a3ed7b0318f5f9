"""Every variant of a command's one write statement (service/commit.py) is valid SQL whose
parameters PostgreSQL can type, numbered without gaps: a part that only rare commands need
(a snapshot, a new seed, an Idempotency-Key) must not break when it is first used."""

from __future__ import annotations

import re
from itertools import product

import asyncpg

from projections.statement import WITH_ROLLS, WITHOUT_ROLLS
from service.commit import _APPEND_PARAMETERS, _statement


async def test_every_statement_variant_prepares(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn:
        bools = (False, True)
        for parts in product(bools, bools, (WITHOUT_ROLLS, WITH_ROLLS), bools, bools):
            sql, names = _statement(*parts)
            numbers = {int(n) for n in re.findall(r"\$(\d+)", sql)}
            assert numbers == set(range(1, _APPEND_PARAMETERS + 1 + len(names))), parts
            prepared = await conn.prepare(sql)
            assert len(prepared.get_parameters()) == _APPEND_PARAMETERS + len(names)
