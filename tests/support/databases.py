"""A database of a test's own on the session's PostgreSQL server: created fresh, dropped
with everything still connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from api.app import open_pool
from api.settings import Settings
from events.migrate import migration_files
from tests.support.servers import fresh_database_name, with_database


async def create_database(postgres_url: str) -> str:
    name = fresh_database_name()
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return with_database(postgres_url, name)


async def drop_database(postgres_url: str, url: str) -> None:
    name = url.rsplit("/", 1)[1].split("?")[0]
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@asynccontextmanager
async def migrated_before(postgres_url: str, migration: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection to a fresh database migrated up to, not including, the migration whose
    name starts with ``migration`` (``"0017"``): where a migration's own test starts."""
    url = await create_database(postgres_url)
    conn = await asyncpg.connect(url)
    await conn.execute(
        "CREATE TABLE schema_migrations (name text PRIMARY KEY,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    for name, sql in migration_files():
        if name >= migration:
            break
        await conn.execute(sql)
        await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
    try:
        yield conn
    finally:
        await conn.close()
        await drop_database(postgres_url, url)


@asynccontextmanager
async def shard_ordered_pool(postgres_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A pool on a fresh database read in shard order, as a Citus cluster is
    (events/migrations/0024_event_order.sql): where the tests of that order run on one
    PostgreSQL, whose own default is the transaction order."""
    url = await create_database(postgres_url)
    pool = await open_pool(Settings(database_url=url, pool_max=30))
    try:
        await pool.execute("SELECT aeon_order_events_by_shard()")
        yield pool
    finally:
        await pool.close()
        await drop_database(postgres_url, url)
