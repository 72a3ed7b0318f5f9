from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from api.app import open_pool
from api.settings import Settings
from projections.inline import read_model_rows
from service.write.pipeline import CommandPipeline


@pytest.fixture(scope="session")
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await open_pool(Settings(database_url=database_url, pool_max=30))
    yield pool
    await pool.close()


@pytest.fixture
def pipeline(pool: asyncpg.Pool) -> CommandPipeline:
    return CommandPipeline(pool, read_model_rows, snapshot_every=10)
