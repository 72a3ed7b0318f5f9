from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from api.app import open_pool
from api.settings import Settings
from projections.inline import read_model_rows
from service.write.pipeline import CommandPipeline
from tests.support.databases import shard_ordered_pool


@pytest.fixture(scope="session")
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await open_pool(Settings(database_url=database_url, pool_max=30))
    yield pool
    await pool.close()


@pytest.fixture(scope="module")
async def shard_pool(postgres_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A store of the module's own read in shard order, as on Citus (the session's is read
    in transaction order on one PostgreSQL)."""
    async with shard_ordered_pool(postgres_url) as pool:
        yield pool


@pytest.fixture
def pipeline(pool: asyncpg.Pool) -> CommandPipeline:
    return CommandPipeline(pool, read_model_rows, snapshot_every=10)
