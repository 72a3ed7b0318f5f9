"""Session-wide servers and a fresh database per session (see tests/support/servers.py),
and how pytest-xdist's workers share the tests out."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from tests.support.citus import citus_url, fresh_citus_database
from tests.support.databases import create_database, drop_database
from tests.support.processes import Service, running_service
from tests.support.servers import postgres_server, redis_server

SHARED_SERVICE_TESTS = ("tests/browser/", "tests/clients/", "tests/fuzz/")
"""The folders whose tests drive ``shared_service``: under pytest-xdist one worker runs
them all, so the service is started once."""


def _work_unit(nodeid: str) -> str:
    """What one pytest-xdist worker takes as a whole: a test module, so its module
    fixtures are set up once, or all of SHARED_SERVICE_TESTS."""
    if nodeid.startswith(SHARED_SERVICE_TESTS):
        return "shared-service"
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown where it is not loaded
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadscope`` (pyproject.toml), the scopes are ``_work_unit``'s.

    Each worker is a session of its own, with its own database and Redis database, so no
    test sees another's data; the services and PostgreSQL clusters that the
    reliability, scale-out and replica tests kill or restart are their own.  (xdist's
    ``loadgroup`` would name the groups by a mark, but on pytest 9 it cannot rename the
    tests as it needs to, and runs them one by one.)"""
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]

    # Handed out in the order collected, not largest first by number of tests: the
    # longest unit (the shared service's, tests/browser on) is then the first one taken.
    config.option.loadscopereorder = False

    class ByWorkUnit(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _work_unit(nodeid)

    return ByWorkUnit(config, log)


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
