"""The optimisations built on uvicorn's and Litestar's private internals run only on the
releases they were tested with (api/uvicorn_internals.py, api/litestar_internals.py).

On those, ``aeon-ledger serve``'s protocol is the coalescing one, a caught-up live stream
is taken over by its feed and the OpenAPI document is completed.  On a release the
service does not know (simulated by the version the library reports), each is turned
off with a warning, and the service still takes commands and delivers live events.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from uuid import UUID

import httpx
import litestar
import pytest
import uvicorn
from litestar.utils.version import Version

from api import litestar_internals, uvicorn_internals
from api.app import create_app
from api.settings import Settings
from api.state import Services
from tests.e2e.helpers import combatant
from tests.scaleout.sse import follow
from tests.support.live import HIT, eventually, open_encounter, post_command, serving


async def _serve_and_follow(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> tuple[dict[str, Any], bool, list[str]]:
    """Start as the service starts, play a command, follow a live stream past a new
    event; the served document, whether the stream was taken over, and the warnings."""
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="aeon_ledger"):
        protocol = uvicorn_internals.http_protocol()
        settings = Settings(database_url=database_url, live_poll_seconds=60)
        app = create_app(settings)
        async with serving(app, http=protocol) as url, httpx.AsyncClient(base_url=url) as http:
            eid, gm = await open_encounter(http, "Guarded")
            head = await post_command(http, eid, gm, combatant("aria", 20))
            services: Services = app.state.services
            assert services.live is not None
            feeds = services.live.hub.feeds
            async with (
                asyncio.timeout(15),
                http.stream("GET", f"/encounters/{eid}/live", headers=gm) as live,
            ):
                assert live.status_code == 200
                messages = follow(live)
                async for message in messages:
                    if message.id == head:
                        break
                await eventually(lambda: UUID(eid) in feeds)
                head = await post_command(http, eid, gm, HIT)
                async for message in messages:
                    if message.id == head:
                        assert message.event == "generic.damaged"
                        break
                owned = any(
                    s.connection is not None and s.connection.owned
                    for s in feeds[UUID(eid)].subscribers
                )
            # built on first use: over httpx's default 5 s on a busy machine
            served = await http.get("/schema/openapi.json", timeout=60)
            document: dict[str, Any] = served.json()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    return document, owned, warnings


def _closed(document: dict[str, Any]) -> bool:
    """Whether the document says that request bodies refuse unknown fields."""
    schemas = document["components"]["schemas"].values()
    return any(schema.get("additionalProperties") is False for schema in schemas)


async def test_on_the_tested_releases_the_optimisations_are_on(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    assert uvicorn_internals.known() and litestar_internals.known()
    assert uvicorn_internals.http_protocol() is uvicorn_internals.CoalescingHttpToolsProtocol
    document, owned, warnings = await _serve_and_follow(database_url, caplog)
    assert owned, "a caught-up stream is written by its feed"
    assert _closed(document)
    assert "409" in document["paths"]["/encounters/{encounter_id}/commands"]["post"]["responses"]
    assert not [w for w in warnings if "not the tested" in w]


async def test_on_unknown_releases_they_are_off_with_a_warning_and_the_service_serves(
    database_url: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uvicorn, "__version__", "0.99.0")
    monkeypatch.setattr(litestar, "__version__", Version(3, 0, 0, "beta", 1))
    assert uvicorn_internals.http_protocol() == "httptools"
    document, owned, warnings = await _serve_and_follow(database_url, caplog)
    assert not owned, "the stream stays with its ASGI call"
    assert not _closed(document), "the document is served as Litestar generates it"
    assert any(w.startswith("uvicorn 0.99.0 is not the tested 0.54") for w in warnings)
    assert any(w.startswith("Litestar 3.0.0 is not the tested 2.25") for w in warnings)
