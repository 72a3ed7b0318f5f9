"""One running service (a real uvicorn process) and its OpenAPI document, for the
clients generated from that document."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.reliability.processes import running_service


@pytest.fixture(scope="session")
def live_url(database_url: str) -> Iterator[str]:
    with running_service(database_url) as service:
        yield service.url


@pytest.fixture(scope="session")
def openapi_file(live_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document as the service serves it."""
    document = httpx.get(f"{live_url}/schema/openapi.json", timeout=30).json()
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
