"""The cached pid multiprocess metrics identify their worker by (telemetry/multiprocess.py):
right in the process that cached it and in a child forked from it, so every worker writes
its own files."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from prometheus_client import Counter, values

from telemetry import multiprocess


def _count_in_child(directory: str, results: multiprocessing.Queue[tuple[int, int]]) -> None:
    counter = Counter("aeon_test_forked_total", "A counter incremented in a forked child.")
    counter.inc()
    results.put((os.getpid(), multiprocess._cached_pid()))


def test_a_forked_child_writes_files_under_its_own_pid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(multiprocess.ENV, str(tmp_path))
    monkeypatch.setattr(values, "ValueClass", values.ValueClass)
    multiprocess.use_cached_pid()
    assert values.ValueClass is not values.MutexValue
    context = multiprocessing.get_context("fork")
    results: multiprocessing.Queue[tuple[int, int]] = context.Queue()
    child = context.Process(target=_count_in_child, args=(str(tmp_path), results))
    child.start()
    child_pid, cached = results.get(timeout=30)
    child.join(30)
    assert child.exitcode == 0
    assert cached == child_pid != os.getpid()
    assert (tmp_path / f"counter_{child_pid}.db").exists()
    assert not (tmp_path / f"counter_{os.getpid()}.db").exists()


def test_without_a_directory_values_stay_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(multiprocess.ENV, raising=False)
    monkeypatch.setattr(values, "ValueClass", values.MutexValue)
    multiprocess.use_cached_pid()
    assert values.ValueClass is values.MutexValue
