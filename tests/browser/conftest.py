"""A real service process and Debian's Chromium, driven by Playwright (docs/console.md).

Browsers are never downloaded: Playwright launches the system's executable
(``AEON_CHROMIUM``, else /usr/bin/chromium; `.ci/run` installs it with apt).  Without it the
suite fails, it does not skip: the console is only tested when a browser runs it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright, expect

from tests.support.processes import ROOT, Service

CHROMIUM = os.environ.get("AEON_CHROMIUM", "/usr/bin/chromium")
EXPECT_SECONDS = 15
"""How long an ``expect`` waits for the page (Playwright's default: 5 s).  The suite runs
its browser tests beside the rest on two cores, where a live update can take longer than
5 s to reach the page without anything being wrong."""
expect.set_options(timeout=EXPECT_SECONDS * 1000)


@pytest.fixture(scope="session")
def service(shared_service: Service) -> Service:
    """`aeon-ledger serve` on a spare port, as a user starts it (tests/conftest.py)."""
    return shared_service


@pytest.fixture(scope="session")
def chromium() -> str:
    assert Path(CHROMIUM).exists(), (
        f"no Chromium at {CHROMIUM}: install it (apt-get install chromium, as .ci/run does) "
        "or point AEON_CHROMIUM at one"
    )
    return CHROMIUM


@pytest.fixture(scope="session")
async def browser(chromium: str) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots: docs/images with AEON_UPDATE_SCREENSHOTS=1
    (how the documentation's pictures are made), else a temporary folder, so an ordinary
    run leaves the working tree as it was."""
    if os.environ.get("AEON_UPDATE_SCREENSHOTS") == "1":
        return ROOT / "docs" / "images"
    return tmp_path_factory.mktemp("screenshots")
