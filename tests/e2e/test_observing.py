"""The observing middleware (api/http/observing.py): one layer doing the request log's,
the rate limit's and the HTTP metrics' jobs keeps what the three layers did, in their
order: the answer's headers, what a refused request is counted as, and which paths each
job leaves out."""

from __future__ import annotations

from litestar.testing import AsyncTestClient
from prometheus_client import REGISTRY

from api.app import create_app
from api.settings import Settings

_LIMIT_HEADERS = ["ratelimit-policy", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]


async def test_answers_end_with_the_rate_limit_headers_then_the_correlation_id(
    database_url: str,
) -> None:
    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=2))
    async with AsyncTestClient(app=app) as http:
        created = await http.post(
            "/encounters",
            json={"ruleset": "generic", "name": "Headers"},
            headers={"X-Correlation-ID": "turn-1"},
        )
        names = [name for name, _ in created.headers.multi_items()]
        assert names[-5:] == [*_LIMIT_HEADERS, "x-correlation-id"]
        assert created.headers["x-correlation-id"] == "turn-1"
        assert created.headers["ratelimit-remaining"] == "1"
        # A correlation id that is not printable ASCII is replaced by a fresh one.
        fresh = await http.get("/health/live", headers={"X-Correlation-ID": "bad\x01id"})
        assert len(fresh.headers["x-correlation-id"]) == 32
        assert "ratelimit-limit" not in fresh.headers  # /health is not limited
        await http.get("/metrics")
        # Answered by Litestar outside the middleware: the limit's headers, no
        # correlation id.
        refused = await http.get("/metrics")
        assert refused.status_code == 429
        assert [n for n, _ in refused.headers.multi_items() if n.startswith("ratelimit")] == (
            _LIMIT_HEADERS
        )
        assert "x-correlation-id" not in refused.headers


def _answered(**labels: str) -> float:
    """``aeon_http_requests_total`` of this process whose labels include ``labels``
    (read in process: a scrape would spend the budget under test)."""
    return sum(
        sample.value
        for family in REGISTRY.collect()
        for sample in family.samples
        if sample.name == "aeon_http_requests_total"
        and all(sample.labels.get(k) == v for k, v in labels.items())
    )


async def test_refused_requests_and_metrics_scrapes_are_not_in_the_http_metrics(
    database_url: str,
) -> None:
    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=3))
    async with AsyncTestClient(app=app) as http:
        await http.get("/metrics")
        before = (_answered(status_code="429"), _answered(path="/metrics"), _answered())
        statuses = [(await http.get("/console/")).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]  # the scrape took one of the address's three
        assert (await http.get("/metrics")).status_code == 429
        assert (await http.get("/health/live")).status_code == 200
        after = (_answered(status_code="429"), _answered(path="/metrics"), _answered())
    assert after[:2] == before[:2]
    assert after[2] - before[2] == 3  # the console's two answers and the probe's


async def test_with_logs_and_metrics_off_only_the_rate_limit_is_left(database_url: str) -> None:
    settings = Settings(
        database_url=database_url, rate_limit_per_minute=5, metrics=False, log_requests=False
    )
    async with AsyncTestClient(app=create_app(settings)) as http:
        answer = await http.get("/health/live")
        assert "x-correlation-id" not in answer.headers
        assert "ratelimit-limit" not in answer.headers
        console = await http.get("/console/")
        assert console.headers["ratelimit-remaining"] == "4"
        assert "x-correlation-id" not in console.headers
