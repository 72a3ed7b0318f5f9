"""X-Forwarded-For is believed only from the proxies the operator lists
(AEON_TRUSTED_PROXIES): uvicorn alone trusts it from loopback, which let anyone on the
machine choose the rate-limit bucket of each request."""

from __future__ import annotations

import httpx

from tests.support.processes import running_service

LIMIT = {"AEON_RATE_LIMIT_PER_MINUTE": "3"}


def _statuses(url: str) -> list[int]:
    """Four requests without a token, each claiming another client address."""
    return [
        httpx.get(f"{url}/rulesets", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
        for i in range(1, 5)
    ]


def test_forwarded_addresses_from_an_unlisted_peer_are_ignored(database_url: str) -> None:
    with running_service(database_url, env={**LIMIT, "AEON_TRUSTED_PROXIES": ""}) as service:
        # The readiness probe is not counted; the four claims share loopback's budget.
        assert _statuses(service.url) == [200, 200, 200, 429]


def test_a_listed_proxy_names_the_client_it_forwards(database_url: str) -> None:
    env = {**LIMIT, "AEON_TRUSTED_PROXIES": "127.0.0.1"}
    with running_service(database_url, env=env) as service:
        assert _statuses(service.url) == [200, 200, 200, 200]  # a budget per client
