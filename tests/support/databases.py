"""A database of a test's own on the session's PostgreSQL server: created fresh, dropped
with everything still connected to it."""

from __future__ import annotations

import asyncpg

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
