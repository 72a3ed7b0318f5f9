from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings


@pytest.fixture(scope="session")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    app = create_app(Settings(database_url=database_url, snapshot_every=5))
    async with AsyncTestClient(app=app) as client:
        yield client
