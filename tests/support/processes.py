"""Start `aeon-ledger serve` (and, for the restart test, a private PostgreSQL) as real
processes on spare loopback ports, and always stop them, whatever the test did."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.harness import stop
from tests.support.ready import wait_until_ready

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    def __init__(
        self, database_url: str, port: int, workers: int, env: dict[str, str] | None = None
    ) -> None:
        self.database_url, self.port, self.workers = database_url, port, workers
        self.env = env or {}
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        # Load from one loopback client: the per-client rate limit stays on (its cost is
        # part of every request) but so high that it never refuses.
        env["AEON_RATE_LIMIT_PER_MINUTE"] = "100000000"
        env.update(self.env)
        command = [str(BIN / "aeon-ledger"), "serve", "--port", str(self.port)]
        command += ["--database-url", self.database_url, "--workers", str(self.workers)]
        self.proc = subprocess.Popen(
            [*command, "--log-level", "warning"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_until_ready(self.proc, self.url, time.monotonic() + timeout)

    def kill9(self) -> None:
        """SIGKILL the whole process group: no shutdown hook, no flush, no rollback."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)


@contextmanager
def running_service(
    database_url: str, *, workers: int = 1, env: dict[str, str] | None = None
) -> Iterator[Service]:
    """The service, with ``env`` over the test's environment."""
    service = Service(database_url, free_port(), workers, env)
    try:
        service.start()
        yield service
    finally:
        service.stop()


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own, in a temporary folder, on a spare port.

    Uses the initdb/pg_ctl shipped in the ``pgserver`` package (a dependency), so it runs
    wherever the project installs.  PostgreSQL refuses to run as root; then, like pgserver
    itself, the cluster runs as the unprivileged system user ``pgserver``.
    """

    def __init__(self, folder: Path) -> None:
        from pgserver._commands import POSTGRES_BIN_PATH

        self.bin = Path(POSTGRES_BIN_PATH)
        self.data = folder / "data"
        self.log = folder / "postgres.log"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.user: str | None = None
        if os.geteuid() == 0:
            from pgserver.utils import ensure_prefix_permissions, ensure_user_exists

            self.user = "pgserver"
            entry = ensure_user_exists(self.user)
            assert entry is not None
            ensure_prefix_permissions(folder)
            folder.chmod(0o755)
            os.chown(folder, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str, timeout: float = 60) -> None:
        subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            check=True,
            user=self.user,
            timeout=timeout,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N")

    def start(self) -> None:
        options = f"-p {self.port} -h 127.0.0.1 -k {self.data}"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    with tempfile.TemporaryDirectory(prefix="aeon-pg-restart-") as folder:
        cluster = PrivatePostgres(Path(folder))
        cluster.init()
        cluster.start()
        try:
            yield cluster
        finally:
            if cluster.running():
                cluster.stop("immediate")
