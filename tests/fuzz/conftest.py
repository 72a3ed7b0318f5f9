"""The session's running service (a real uvicorn process) for fuzzing, and a table in it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.reliability.http import Table, open_table
from tests.support.processes import Service


@pytest.fixture(scope="session")
def live_url(shared_service: Service) -> str:
    """The session's service (tests/conftest.py), which sends webhooks nowhere."""
    return shared_service.url


@pytest.fixture(scope="session")
def table(live_url: str) -> Table:
    return open_table(live_url, "fuzz")


@pytest.fixture(scope="session")
def http(live_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_url, timeout=10) as client:
        yield client
