"""One running service (a real uvicorn process) for the fuzzing session, and a table in it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from tests.reliability.http import Table, open_table
from tests.reliability.processes import running_service


@pytest.fixture(scope="session")
def live_url(database_url: str) -> Iterator[str]:
    # Generated requests may register webhooks: the fuzzed service may send none anywhere.
    with ExitStack() as stack:
        with pytest.MonkeyPatch.context() as env:
            env.setenv("AEON_WEBHOOK_ALLOW", "")
            service = stack.enter_context(running_service(database_url))
        yield service.url


@pytest.fixture(scope="session")
def table(live_url: str) -> Table:
    return open_table(live_url, "fuzz")


@pytest.fixture(scope="session")
def http(live_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_url, timeout=10) as client:
        yield client
