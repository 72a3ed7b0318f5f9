"""Waiting for a service process to answer, without taking the CPU it needs to start.

Every poll through ``httpx.get`` builds a client, and with it an SSL context: about 50 ms
of CPU, so a poll every 0.1 s took a third of a core from the process starting beside it
on a two-core machine.  One client for the whole wait costs that once.
"""

from __future__ import annotations

import subprocess
import time

import httpx


def wait_until_ready(
    proc: subprocess.Popen[bytes] | subprocess.Popen[str],
    url: str,
    deadline: float,
    *,
    path: str = "/health/ready",
    every: float = 0.1,
) -> None:
    """Poll ``url`` + ``path`` until it answers 200; fail if ``proc`` exits first or
    ``deadline`` (``time.monotonic()``) passes."""
    with httpx.Client(timeout=2) as http:
        while True:
            if proc.poll() is not None:
                said = proc.stdout.read() if proc.stdout is not None else ""
                raise AssertionError(f"the service exited with {proc.returncode}: {said!s}")
            try:
                if http.get(f"{url}{path}").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() >= deadline:
                raise AssertionError(f"the service did not answer {path} in time")
            time.sleep(every)
