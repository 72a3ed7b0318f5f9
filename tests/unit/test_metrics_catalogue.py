"""The metrics an operator reads about (docs/metrics.md) and charts (the Grafana dashboard)
are the ones the service defines, and the multiprocess directory's bookkeeping."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import REGISTRY
from prometheus_client.metrics import MetricWrapperBase

from api.observability import prometheus_config
from telemetry import metrics, multiprocess

ROOT = Path(__file__).resolve().parents[2]
HTTP = {
    "aeon_http_requests_total",
    "aeon_http_request_duration_seconds",
    "aeon_http_requests_in_progress",
    "aeon_http_requests_error_total",
}


def _defined() -> dict[str, MetricWrapperBase]:
    found = {}
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            name = value._name + ("_total" if value._type == "counter" else "")
            found[name] = value
    return found


def test_every_metric_is_documented_with_its_type() -> None:
    text = (ROOT / "docs" / "metrics.md").read_text()
    rows = dict(re.findall(r"^\| `(aeon_\w+)` \| (\w+) \|", text, flags=re.MULTILINE))
    defined = _defined()
    assert len(defined) == 19
    assert set(rows) == set(defined) | HTTP
    for name, metric in defined.items():
        assert rows[name] == metric._type, name
    assert prometheus_config().prefix == "aeon_http"


def test_the_dashboard_charts_only_metrics_that_exist() -> None:
    dashboard = json.loads((ROOT / "deploy" / "grafana" / "aeon-ledger.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {
        re.sub(r"_(bucket|sum|count)$", "", m) for e in exprs for m in re.findall(r"aeon_\w+", e)
    }
    assert used <= set(_defined()) | HTTP, used - set(_defined()) - HTTP
    titles = " ".join(panel["title"].lower() for panel in dashboard["panels"])
    for first_look in (
        "commands/s",
        "p99",
        "errors",
        "refused by reason",
        "live subscribers",
        "pool saturation",
    ):
        assert first_look in titles


def test_the_domain_metrics_are_registered_once() -> None:
    names = set(REGISTRY._names_to_collectors)
    assert "aeon_events_appended_total" in names
    assert "aeon_group_commit_size" in names


def test_a_fresh_directory_for_several_workers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(multiprocess.ENV, raising=False)
    with multiprocess.prepare_directory(1) as none:
        assert none is None and multiprocess.ENV not in os.environ
    with multiprocess.prepare_directory(2) as made:
        assert made is not None and Path(made).is_dir()
        assert os.environ[multiprocess.ENV] == made
        (Path(made) / "counter_1.db").write_bytes(b"")
    assert not Path(made).exists() and multiprocess.ENV not in os.environ


def test_the_operator_s_directory_is_left_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(multiprocess.ENV, str(tmp_path))
    (tmp_path / "counter_7.db").write_bytes(b"")
    with multiprocess.prepare_directory(4) as given:
        assert given == str(tmp_path)
    assert (tmp_path / "counter_7.db").exists()


def test_dead_workers_lose_their_live_gauges_and_keep_their_counts(tmp_path: Path) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        check=True,
        text=True,
    )
    dead, alive = int(ended.stdout), os.getpid()
    for name in (f"gauge_livesum_{dead}.db", f"counter_{dead}.db", f"gauge_livesum_{alive}.db"):
        (tmp_path / name).write_bytes(b"")
    assert multiprocess.forget_dead_workers(str(tmp_path)) == [dead]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"counter_{dead}.db",
        f"gauge_livesum_{alive}.db",
    ]
