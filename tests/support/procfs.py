"""Which process holds which TCP socket, read from /proc (Linux): for the tests of how
``aeon-ledger serve`` spreads connections over its workers."""

from __future__ import annotations

import os
from pathlib import Path

LISTEN, ESTABLISHED = "0A", "01"
"""The states of a TCP socket as /proc/net/tcp writes them."""


def sockets_on_port(port: int, state: str) -> set[int]:
    """Inodes of the IPv4 TCP sockets bound locally to ``port`` in ``state``."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
            inodes.add(int(fields[9]))
    return inodes


def holders(pids: list[int], inodes: set[int]) -> dict[int, int]:
    """How many of ``inodes`` each process holds open."""
    held = {}
    for pid in pids:
        count = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            target = os.readlink(fd) if fd.is_symlink() else ""
            if target.startswith("socket:[") and int(target[8:-1]) in inodes:
                count += 1
        held[pid] = count
    return held


def children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
