"""A browser page on another origin calling the API: the preflight a browser sends before
a write with a token, then the write itself, and which answer headers the page may read."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import Client, combatant, create

FRONT_END = "https://table.example"


async def test_a_preflight_allows_a_write_with_a_token_and_its_headers(client: Client) -> None:
    encounter_id = await create(client, "CORS")
    response = await client.options(
        f"/encounters/{encounter_id}/commands",
        headers={
            "Origin": FRONT_END,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, if-match, "
            "idempotency-key",
        },
    )
    assert response.status_code == 204, response.text
    assert response.headers["access-control-allow-origin"] == "*"
    assert "POST" in response.headers["access-control-allow-methods"]
    allowed = {
        h.strip().lower() for h in response.headers["access-control-allow-headers"].split(",")
    }
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert int(response.headers["access-control-max-age"]) > 0
    assert "access-control-allow-credentials" not in response.headers


async def test_a_cross_origin_write_exposes_the_headers_a_client_reads(client: Client) -> None:
    encounter_id = await create(client, "CORS write")
    response = await client.post(
        f"/encounters/{encounter_id}/commands",
        json={"command": combatant("aria", 10)},
        headers={"Origin": FRONT_END, "If-Match": '"2"'},
    )
    assert response.status_code == 200, response.text
    assert response.headers["access-control-allow-origin"] == "*"
    exposed = {
        h.strip().lower() for h in response.headers["access-control-expose-headers"].split(",")
    }
    assert {"etag", "location", "retry-after", "aeon-chain-head"} <= exposed
    assert {"ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"} <= exposed
    assert response.headers["etag"] == '"3"'


async def test_errors_carry_the_cors_headers_too(client: Client) -> None:
    """A page must be able to read a 401's problem document, or it cannot tell the user why."""
    encounter_id = await create(client, "CORS error")
    response = await client.get(
        f"/encounters/{encounter_id}",
        headers={"Origin": FRONT_END, "Authorization": "Bearer wrong"},
    )
    assert response.status_code == 401
    assert response.headers["access-control-allow-origin"] == "*"
    assert response.headers["content-type"].startswith("application/problem+json")


@pytest.fixture(scope="module")
async def listed_origins(database_url: str) -> AsyncIterator[Client]:
    settings = Settings.from_env(
        {"DATABASE_URL": database_url, "AEON_CORS_ORIGINS": f"{FRONT_END}, https://gm.example"}
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


async def test_listed_origins_are_echoed_and_others_refused(listed_origins: Client) -> None:
    asked = {"Access-Control-Request-Method": "GET"}
    allowed = await listed_origins.options("/rulesets", headers={"Origin": FRONT_END, **asked})
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == FRONT_END
    assert "origin" in allowed.headers["vary"].lower()

    refused = await listed_origins.options(
        "/rulesets", headers={"Origin": "https://evil.example", **asked}
    )
    assert refused.status_code == 400
    assert "access-control-allow-origin" not in refused.headers

    read = await listed_origins.get("/rulesets", headers={"Origin": "https://gm.example"})
    assert read.status_code == 200
    assert read.headers["access-control-allow-origin"] == "https://gm.example"
    other = await listed_origins.get("/rulesets", headers={"Origin": "https://evil.example"})
    assert other.headers.get("access-control-allow-origin") != "https://evil.example"


async def test_no_origins_means_no_cross_origin_headers(database_url: str) -> None:
    settings = Settings.from_env({"DATABASE_URL": database_url, "AEON_CORS_ORIGINS": ""})
    async with AsyncTestClient(app=create_app(settings)) as client:
        response = await client.get("/rulesets", headers={"Origin": FRONT_END})
    assert response.status_code == 200
    assert not any(h.startswith("access-control-") for h in response.headers)
