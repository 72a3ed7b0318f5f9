"""The HTTP metrics the observing middleware records (api/http/http_metrics.py): the
paths they leave out, each route's children kept, streams counted but not timed, and a
Prometheus configuration they would not honour refused at start-up."""

from __future__ import annotations

import dataclasses

import pytest

from api.http.http_metrics import HttpMetrics
from api.observability import prometheus_config


def test_metrics_paths_are_left_out_and_routes_grouped() -> None:
    http = HttpMetrics(prometheus_config())
    assert not http.applies_to("/metrics")
    assert http.applies_to("/encounters/7f1c/commands")
    route = "/encounters/{encounter_id}/commands"
    assert http.of("POST", route, 200) is http.of("POST", route, 200)
    assert http.of("POST", route, 422) is not http.of("POST", route, 200)
    # The request in progress is counted under 200, whatever the answer.
    assert http.of("POST", route, 422).in_progress is http.of("POST", route, 200).in_progress


def test_a_stream_is_counted_not_timed() -> None:
    http = HttpMetrics(prometheus_config())
    live = http.of("GET", "/encounters/{encounter_id}/live", 200)
    live.time.observe(30.0)  # an open stream is not a slow request: nothing recorded
    assert type(live.time).__name__ == "_Untimed"
    assert type(http.of("GET", "/encounters/{encounter_id}", 200).time).__name__ == "Histogram"


@pytest.mark.parametrize(
    "change",
    [
        {"labels": {"region": "eu"}},
        {"group_path": False},
        {"excluded_http_methods": ["OPTIONS"]},
        {"exclude_opt_key": "no_metrics"},
    ],
)
def test_a_configuration_it_would_not_honour_is_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="route template"):
        HttpMetrics(dataclasses.replace(prometheus_config(), **change))  # type: ignore[arg-type]
