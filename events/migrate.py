"""Plain SQL migrations, applied in file-name order at start-up and recorded in a table.

Several API processes may start at once against one database: an advisory lock makes
exactly one of them apply what is missing while the others wait and then find nothing to do.
"""

from __future__ import annotations

from importlib import resources

from events.db import Connection

_LOCK_KEY = 0x6165_6F6E  # "aeon"


def migration_files() -> list[tuple[str, str]]:
    folder = resources.files("events") / "migrations"
    files = sorted((p for p in folder.iterdir() if p.name.endswith(".sql")), key=lambda p: p.name)
    return [(p.name, p.read_text(encoding="utf-8")) for p in files]


async def apply_migrations(conn: Connection) -> list[str]:
    """Apply every migration not yet recorded; return the names applied now."""
    applied_now: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
        await conn.execute(
            """CREATE TABLE IF NOT EXISTS schema_migrations (
                   name text PRIMARY KEY,
                   applied_at timestamptz NOT NULL DEFAULT now())"""
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        for name, sql in migration_files():
            if name in done:
                continue
            await conn.execute(sql)
            await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
            applied_now.append(name)
        await conn.execute(_SHARD_ORDER_ON_CITUS)
    return applied_now


_SHARD_ORDER_ON_CITUS = """SELECT aeon_order_events_by_shard() FROM event_order
WHERE NOT by_shard AND EXISTS (SELECT FROM pg_extension WHERE extname = 'citus')"""
"""On Citus only the shard order holds: transaction ids are each node's own
(docs/scale-out.md#the-order-of-every-stream).  A database that gained the extension after
it was first migrated is moved to it at the next start."""
