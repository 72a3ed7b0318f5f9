"""A Citus database for the tests: migrated on the coordinator and its per-encounter tables
distributed as docs/scale-out.md says (AEON_TEST_CITUS_URL, docs/scale-out.md#citus).

Citus keeps its cluster (the workers, the shards) per database, so the tests do not make a
fresh database per session here: they use the one the URL names, whose cluster the
operator set up, and create fresh encounters in it as everywhere else.
"""

from __future__ import annotations

import os

import asyncpg

from events.migrate import apply_migrations

CITUS_URL_VARIABLE = "AEON_TEST_CITUS_URL"

DISTRIBUTION_COLUMN = {
    "streams": "stream_id",
    "events": "stream_id",
    "snapshots": "stream_id",
    "idempotency_keys": "stream_id",
    "dice_seeds": "stream_id",
    "encounter_state": "encounter_id",
    "log_entries": "encounter_id",
    "roll_ledger": "encounter_id",
    "access_tokens": "encounter_id",
}
"""Every per-encounter table and the column Citus distributes it by (docs/scale-out.md;
tests/integration/test_citus_ready.py holds the schema to it)."""


def citus_url() -> str | None:
    """The coordinator's URL when the tests are to run on Citus, else None."""
    return os.environ.get(CITUS_URL_VARIABLE) or None


async def distribute(url: str) -> None:
    """Apply the migrations on the coordinator and distribute every per-encounter table not
    yet distributed, by its encounter column, co-located with ``streams``."""
    conn = await asyncpg.connect(url)
    try:
        await apply_migrations(conn)
        done = {
            r["name"]
            for r in await conn.fetch(
                "SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition"
            )
        }
        for table, column in DISTRIBUTION_COLUMN.items():  # streams first
            if table in done:
                continue
            await conn.execute(
                "SELECT create_distributed_table($1, $2, colocate_with => $3)",
                table,
                column,
                "default" if table == "streams" else "streams",
            )
    finally:
        await conn.close()
