"""A private primary and a streaming replica, made with the PostgreSQL binaries that
pgserver ships (initdb, pg_basebackup, pg_ctl), as any operator would make them."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path

import asyncpg

from tests.support.processes import PrivatePostgres


class Node(PrivatePostgres):
    """One server of the pair, started with extra ``-c`` settings."""

    def __init__(self, folder: Path, settings: dict[str, str]) -> None:
        super().__init__(folder)
        self.settings = settings

    def start(self) -> None:
        options = f"-p {self.port} -h 127.0.0.1 -k {self.data}"
        options += "".join(f" -c {k}={v}" for k, v in self.settings.items())
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def clone_from(self, primary: Node) -> None:
        """A base backup of ``primary`` that starts as its streaming standby (``-R``)."""
        self._run(
            "pg_basebackup",
            *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
            *("-D", str(self.data), "-R", "-X", "stream", "-c", "fast"),
            timeout=120,
        )

    def promote(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "promote")


class Pair:
    def __init__(self, primary: Node, replica: Node) -> None:
        self.primary, self.replica = primary, replica

    @property
    def both_url(self) -> str:
        """One DSN naming both servers: asyncpg connects to whichever accepts writes."""
        return (
            f"postgresql://postgres@127.0.0.1:{self.primary.port},127.0.0.1:{self.replica.port}"
            "/postgres?target_session_attrs=read-write"
        )

    async def wait_replayed(self, within: float = 20) -> None:
        """Until the replica has replayed everything the primary has written so far."""
        primary = await asyncpg.connect(self.primary.url)
        replica = await asyncpg.connect(self.replica.url)
        try:
            lsn = await primary.fetchval("SELECT pg_current_wal_lsn()")
            deadline = time.monotonic() + within
            while not await replica.fetchval("SELECT pg_last_wal_replay_lsn() >= $1", lsn):
                assert time.monotonic() < deadline, "the replica did not catch up"
                await asyncio.sleep(0.02)
        finally:
            await primary.close()
            await replica.close()


@contextmanager
def primary_and_replica(*, synchronous: bool = False) -> Iterator[Pair]:
    """A primary and its streaming replica; ``synchronous``: a commit returns only once
    the replica has it on disk (``synchronous_commit = on``, any standby counts)."""
    with ExitStack() as stack:
        folders = [
            Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"aeon-pg-{n}-")))
            for n in ("primary", "replica")
        ]
        # fsync off: the tests stop servers, never the machine, so what a server wrote
        # survives in the page cache; what they test is what each server acknowledged.
        settings = {"wal_level": "replica", "max_wal_senders": "5", "fsync": "off"}
        if synchronous:
            settings |= {"synchronous_standby_names": "'*'", "synchronous_commit": "on"}
        primary, replica = Node(folders[0], settings), Node(folders[1], {"fsync": "off"})
        primary.init()
        primary.start()
        stack.callback(lambda: primary.running() and primary.stop("immediate"))
        replica.clone_from(primary)
        replica.start()
        stack.callback(lambda: replica.running() and replica.stop("immediate"))
        yield Pair(primary, replica)


@asynccontextmanager
async def replay_paused(pair: Pair) -> AsyncIterator[None]:
    """Replay stopped on the replica for the block (it still answers what it has)."""
    replica = await asyncpg.connect(pair.replica.url)
    try:
        await replica.execute("SELECT pg_wal_replay_pause()")
        yield
    finally:
        await replica.execute("SELECT pg_wal_replay_resume()")
        await replica.close()
