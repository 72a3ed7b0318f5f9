"""Log lines' timestamps (telemetry/timestamps.py) are the text structlog's
``TimeStamper(fmt="iso", utc=True)`` writes for the same instant."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
import structlog

from telemetry import timestamps


def _structlogs(ns: int) -> str:
    """What ``datetime.now(tz=UTC).isoformat()`` gives at ``ns`` (the clock truncated to
    microseconds), as TimeStamper writes it."""
    second, rest = divmod(ns, 1_000_000_000)
    moment = datetime.fromtimestamp(second, UTC).replace(microsecond=rest // 1000)
    return moment.isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    "ns",
    [
        1_795_000_000_000_000_000,  # microseconds zero: left out
        1_795_000_000_000_000_999,  # under a microsecond: still zero
        1_795_000_000_000_001_000,
        1_795_000_000_999_999_999,
        1_795_000_001_000_000_000,  # the next second
        951_782_400_123_456_789,  # 2000-02-29
        1_798_761_599_999_999_000,  # the last microsecond of 2026
    ],
)
def test_the_text_is_the_time_stampers(ns: int) -> None:
    assert timestamps.iso_utc(ns) == _structlogs(ns)


def test_seconds_going_back_and_forth_are_formatted_afresh() -> None:
    for ns in (1_795_000_005_000_000_001, 1_795_000_004_500_000_000, 1_795_000_005_250_000_000):
        assert timestamps.iso_utc(ns) == _structlogs(ns)


def test_the_processor_stamps_now_as_the_time_stamper_does() -> None:
    reference = structlog.processors.TimeStamper(fmt="iso", utc=True)
    before = reference(None, "info", {})["timestamp"]
    ours = timestamps.stamp(None, "info", {})["timestamp"]
    after = reference(None, "info", {})["timestamp"]
    assert len(ours) in (20, 27) and ours.endswith("Z")
    assert before[:19] <= ours[:19] <= after[:19]
    assert abs(time.time() - datetime.fromisoformat(ours).timestamp()) < 5
