from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.replicas.cluster import Pair, primary_and_replica


@pytest.fixture(scope="module")
def pair() -> Iterator[Pair]:
    """A private primary with one streaming replica (asynchronous replication)."""
    with primary_and_replica() as pair:
        yield pair
