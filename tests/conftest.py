"""Session-wide servers and a fresh database per session (see tests/support/servers.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack

import pytest

from tests.reliability.processes import Service, running_service
from tests.support.citus import citus_url, fresh_citus_database
from tests.support.databases import create_database, drop_database
from tests.support.servers import postgres_server, redis_server


@pytest.fixture(scope="session")
def server_stack() -> Iterator[ExitStack]:
    with ExitStack() as stack:
        yield stack


@pytest.fixture(scope="session")
def postgres_url(server_stack: ExitStack) -> str:
    return server_stack.enter_context(postgres_server(server_stack))


@pytest.fixture(scope="session")
def redis_url(server_stack: ExitStack) -> str:
    return server_stack.enter_context(redis_server(server_stack))


@pytest.fixture(scope="session")
async def database_url(postgres_url: str) -> AsyncIterator[str]:
    """A database of this session's own, migrated by whoever connects first; with
    AEON_TEST_CITUS_URL, on that Citus cluster and distributed by the encounter
    (tests/support/citus.py)."""
    citus = citus_url()
    if citus is not None:
        async with fresh_citus_database(citus) as url:
            yield url
        return
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)


@pytest.fixture(scope="session")
def shared_service(database_url: str) -> Iterator[Service]:
    """One `aeon-ledger serve` process, as a user starts it, for the tests that drive a
    real one without changing how it runs (the console in a browser, the generated
    clients, schemathesis): a start costs seconds, so they share it.  Generated requests
    may register webhooks, so it delivers to nowhere (an empty AEON_WEBHOOK_ALLOW)."""
    with running_service(database_url, env={"AEON_WEBHOOK_ALLOW": ""}) as service:
        yield service
