"""How `aeon-ledger serve` serves (api/serving.py): each worker listens on its own socket,
so keep-alive connections spread over the workers instead of piling onto whichever woke
first, and a response's head and body leave in one write."""

from __future__ import annotations

import http.client
import socket
import struct
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import running_service
from tests.support.procfs import ESTABLISHED, LISTEN, children, holders, sockets_on_port

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="SO_REUSEPORT, /proc, TCP_INFO")


def test_two_workers_each_listen_and_share_the_connections(database_url: str) -> None:
    with running_service(database_url, workers=2) as service:
        assert service.proc is not None
        workers = [
            p
            for p in children(service.proc.pid)
            if "resource_tracker" not in Path(f"/proc/{p}/cmdline").read_text()
        ]
        assert len(workers) == 2
        # Ready means one worker answered; the other may still be starting.
        deadline = time.monotonic() + 30
        while sum(holders(workers, sockets_on_port(service.port, LISTEN)).values()) < 2:
            assert time.monotonic() < deadline, "both workers should listen"
            time.sleep(0.1)
        assert sum(holders(workers, sockets_on_port(service.port, LISTEN)).values()) == 2
        assert holders([service.proc.pid], sockets_on_port(service.port, LISTEN)) == {
            service.proc.pid: 0
        }, "the parent must not listen: connections it was given would never be answered"

        connections = [http.client.HTTPConnection("127.0.0.1", service.port) for _ in range(24)]
        try:
            for conn in connections:
                conn.request("GET", "/health/ready")
                response = conn.getresponse()
                response.read()
                assert response.status == 200
            held = holders(workers, sockets_on_port(service.port, ESTABLISHED))
        finally:
            for conn in connections:
                conn.close()
        assert sum(held.values()) == 24
        assert min(held.values()) >= 2, f"connections per worker: {held}"


def _segments_received(sock: socket.socket) -> int:
    """tcpi_segs_in of Linux's struct tcp_info: every segment this socket received."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 144)
    return int(struct.unpack_from("I", info, 140)[0])


def test_a_response_arrives_in_one_segment(database_url: str) -> None:
    requests = 40
    with (
        running_service(database_url) as service,
        socket.create_connection(("127.0.0.1", service.port)) as sock,
    ):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = sock.makefile("rb")
        before = _segments_received(sock)
        for _ in range(requests):
            sock.sendall(b"GET /health/ready HTTP/1.1\r\nHost: test\r\n\r\n")
            assert reader.readline().startswith(b"HTTP/1.1 200")
            length = 0
            while (line := reader.readline()) != b"\r\n":
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
        received = _segments_received(sock) - before
    # Head and body written apart arrive as two segments each (80 here).
    assert received <= requests + 5, f"{received} segments for {requests} responses"
