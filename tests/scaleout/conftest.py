from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.databases import create_database, drop_database


@pytest.fixture
async def fresh_database(postgres_url: str) -> AsyncIterator[str]:
    """A database of the test's own: its processes migrate it as they start."""
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)
