"""The session's running service (a real uvicorn process) and its OpenAPI document, for the
clients generated from that document."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from tests.support.processes import Service


@pytest.fixture(scope="session")
def live_url(shared_service: Service) -> str:
    """The session's service (tests/conftest.py)."""
    return shared_service.url


@pytest.fixture(scope="session")
def openapi_file(live_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The document as the service serves it."""
    document = httpx.get(f"{live_url}/schema/openapi.json", timeout=30).json()
    path = tmp_path_factory.mktemp("openapi") / "openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path
