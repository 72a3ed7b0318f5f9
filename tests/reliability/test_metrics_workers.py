"""``/metrics`` of `aeon-ledger serve --workers 2`: whichever worker answers the
scrape, it reports both workers' requests; a worker killed and replaced keeps its counts
but not its live gauges; the metrics directory serve made is gone after it stops."""

from __future__ import annotations

import http.client
import os
import signal
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.metrics import Scrape
from tests.support.processes import running_service
from tests.support.procfs import ESTABLISHED, LISTEN, children, holders, sockets_on_port

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_REUSEPORT, /proc")

_REQUESTS = 24
_ROUTE = "/encounters/{encounter_id}"


def _workers(parent: int) -> list[int]:
    return [
        p
        for p in children(parent)
        if "resource_tracker" not in Path(f"/proc/{p}/cmdline").read_text()
    ]


def _metrics_dir(pid: int) -> Path:
    variables = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    found = [v.split(b"=", 1)[1] for v in variables if v.startswith(b"PROMETHEUS_MULTIPROC_DIR=")]
    assert found, "serve should give its workers a metrics directory"
    return Path(found[0].decode())


def _scrape(url: str) -> Scrape:
    # A new connection per scrape: the kernel picks the worker that answers.
    response = httpx.get(f"{url}/metrics", timeout=10)
    assert response.status_code == 200
    return Scrape(response.text)


def _wait(condition: str, check: object, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, condition
        time.sleep(0.2)


def test_two_workers_requests_are_added_up_whichever_answers(database_url: str) -> None:
    with running_service(database_url, workers=2) as service:
        assert service.proc is not None
        created = httpx.post(
            f"{service.url}/encounters", json={"ruleset": "generic", "name": "Workers"}
        ).json()
        path = f"/encounters/{created['encounter_id']}"
        headers = {"Authorization": f"Bearer {created['gm_token']}"}
        workers = _workers(service.proc.pid)
        assert len(workers) == 2
        directory = _metrics_dir(workers[0])
        assert _metrics_dir(workers[1]) == directory
        # Ready means one worker answered; the other may still be starting.
        _wait(
            "both workers should listen",
            lambda: sum(holders(workers, sockets_on_port(service.port, LISTEN)).values()) == 2,
        )

        # Each request on a connection of its own, all kept open until both workers
        # are seen to hold some: then both served some of these requests.
        connections = [
            http.client.HTTPConnection("127.0.0.1", service.port) for _ in range(_REQUESTS)
        ]
        try:
            for conn in connections:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                assert response.status == 200
            held = holders(workers, sockets_on_port(service.port, ESTABLISHED))
        finally:
            for conn in connections:
                conn.close()
        assert sum(held.values()) == _REQUESTS
        assert min(held.values()) >= 1, f"requests per worker: {held}"

        # Every scrape, whichever worker answers it, has all of them.
        for _ in range(6):
            scraped = _scrape(service.url)
            assert scraped.value("aeon_http_requests_total", path=_ROUTE) == _REQUESTS
            assert scraped.value("aeon_commands_total", outcome="accepted") == 1
        files = {p.name for p in directory.iterdir()}
        for pid in workers:
            assert any(name.endswith(f"_{pid}.db") for name in files), (pid, files)

        # Both workers' pools are in the live gauges (sampled every second).
        _wait(
            "both workers should report their pool",
            lambda: _scrape(service.url).value("aeon_pool_connections", state="max") == 20,
        )
        # A worker killed and replaced: its requests stay counted, its pool does not.
        os.kill(workers[0], signal.SIGKILL)
        _wait(
            "uvicorn should replace the worker",
            lambda: len(set(_workers(service.proc.pid)) - set(workers)) == 1,  # type: ignore[union-attr]
        )
        _wait(
            "the dead worker's pool should leave the gauges",
            lambda: _scrape(service.url).value("aeon_pool_connections", state="max") == 20,
        )
        scraped = _scrape(service.url)
        assert scraped.value("aeon_http_requests_total", path=_ROUTE) == _REQUESTS
        assert not any(
            n.startswith("gauge_live") and n.endswith(f"_{workers[0]}.db")
            for n in os.listdir(directory)
        )
    assert not directory.exists(), "serve should remove the metrics directory it made"
