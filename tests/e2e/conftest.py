from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.conftest import create_database, drop_database
from tests.e2e.helpers import GmTokens


@pytest.fixture(scope="session")
async def client(database_url: str) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    """A client acting as the GM of every encounter it creates (see GmTokens); a test
    that sends its own Authorization header speaks for whoever that token is."""
    app = create_app(Settings(database_url=database_url, snapshot_every=5))
    async with AsyncTestClient(app=app) as client:
        client.auth = GmTokens()
        yield client


SERVICE_KEY = "service-key-for-tests"


@pytest.fixture(scope="session")
async def service_client(database_url: str) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    """A client of an app with a service key, sending that key on every request."""
    app = create_app(Settings(database_url=database_url, snapshot_every=5, service_key=SERVICE_KEY))
    async with AsyncTestClient(app=app) as client:
        client.headers["Authorization"] = f"Bearer {SERVICE_KEY}"
        yield client


@pytest.fixture(scope="module")
async def module_database(postgres_url: str) -> AsyncIterator[str]:
    """A database of the test module's own: no other app sees its rows (its webhook
    delivery lanes, say), and it is dropped with the module."""
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)


@pytest.fixture(scope="module")
def other_database(module_database: str) -> str:
    """The database of another service, where archives are imported."""
    return module_database
