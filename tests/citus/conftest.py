"""tests/citus/ runs on a Citus cluster only: AEON_TEST_CITUS_URL names its coordinator
(docs/scale-out.md#citus says how to start one).  Without it these tests are skipped, and
say so; the rest of the suite runs on plain PostgreSQL as always."""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import pytest

from api.app import open_pool
from api.settings import Settings
from tests.support.citus import CITUS_URL_VARIABLE, citus_url


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if citus_url() is not None:
        return
    skip = pytest.mark.skip(reason=f"no Citus cluster: set {CITUS_URL_VARIABLE}")
    for item in items:
        if "tests/citus/" in item.nodeid:
            item.add_marker(skip)


@pytest.fixture(scope="session")
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await open_pool(Settings(database_url=database_url, pool_max=20))
    yield pool
    await pool.close()
