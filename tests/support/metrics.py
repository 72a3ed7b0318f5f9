"""Reading ``/metrics`` in tests: one scrape, parsed, and what moved between two scrapes."""

from __future__ import annotations

from collections import Counter

import httpx
from litestar.testing import AsyncTestClient
from prometheus_client.parser import text_string_to_metric_families


class Scrape:
    """One scrape of /metrics: sample values by name and labels."""

    def __init__(self, text: str) -> None:
        self.samples = [
            (sample.name, sample.labels, sample.value)
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        ]

    def value(self, name: str, **labels: str) -> float:
        """The sum of the samples called ``name`` whose labels include ``labels``."""
        return sum(
            value
            for sample, have, value in self.samples
            if sample == name and all(have.get(k) == v for k, v in labels.items())
        )

    def by(self, name: str, label: str) -> Counter[str]:
        counts: Counter[str] = Counter()
        for sample, have, value in self.samples:
            if sample == name:
                counts[have[label]] += value
        return counts


async def scrape(http: httpx.AsyncClient | AsyncTestClient) -> Scrape:  # type: ignore[type-arg]
    response = await http.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=")
    return Scrape(response.text)


def moved(before: Scrape, after: Scrape, name: str, label: str) -> dict[str, float]:
    delta = after.by(name, label)
    delta.subtract(before.by(name, label))
    return {k: v for k, v in delta.items() if v}
