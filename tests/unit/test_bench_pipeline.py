"""The pipeline benchmark's side of a worker: an answer is read, a silent worker is
given up on instead of holding the benchmark (and the lock other runs wait on)."""

from __future__ import annotations

import subprocess
import sys
import time

import msgspec
import pytest

from bench.load import Result
from bench.pipeline import Done, Window, _run_window


def _worker(code: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )


def _stopped(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait()


def test_the_answer_of_a_worker_is_read() -> None:
    done = Done(Result("pipeline", 1, 5, 0, 1.0, [1.5]), {"e": 3}, 0.25)
    answer = msgspec.json.encode(done).decode() + "\n"
    proc = _worker(f"import sys; sys.stdin.readline(); print({answer!r}, end='', flush=True)")
    try:
        assert _run_window(proc, Window([], 0), grace=30) == done
    finally:
        _stopped(proc)


def test_a_worker_that_never_answers_is_given_up_on() -> None:
    proc = _worker("import sys, time; sys.stdin.readline(); time.sleep(60)")
    started = time.monotonic()
    try:
        with pytest.raises(TimeoutError, match="did not answer"):
            _run_window(proc, Window([], 0.1), grace=0.3)
    finally:
        _stopped(proc)
    assert time.monotonic() - started < 10
