"""A Citus database for the tests (AEON_TEST_CITUS_URL names the coordinator of a running
cluster, docs/scale-out.md#citus): a fresh database per session, made a Citus cluster of
the same nodes, migrated on the coordinator and its per-encounter tables distributed as
docs/scale-out.md says.

Citus keeps its cluster (the workers, the shards) per database, so a new database needs
the extension on every node and the nodes added again; the workers are those of the
database the URL names, reached with the same user.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from events.migrate import apply_migrations
from tests.support.servers import fresh_database_name, with_database

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
    "campaign_tokens": "campaign_id",
    "shard_heads": "anchor",
}
"""Every per-encounter table and the column Citus distributes it by (docs/scale-out.md;
tests/integration/test_citus_ready.py holds the schema to it)."""


REFERENCE_TABLES = ("event_order",)
"""Tables every node holds whole: the statements routed to one worker read them."""


def citus_url() -> str | None:
    """The coordinator's URL when the tests are to run on Citus, else None."""
    return os.environ.get(CITUS_URL_VARIABLE) or None


def on_node(url: str, host: str, port: int) -> str:
    parts = urlsplit(url)
    user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    return urlunsplit((parts.scheme, f"{user}{host}:{port}", parts.path, parts.query, ""))


@asynccontextmanager
async def fresh_citus_database(url: str) -> AsyncIterator[str]:
    """A new database on the cluster of ``url``, distributed; dropped on exit."""
    name = fresh_database_name()
    admin = await asyncpg.connect(url)
    try:
        nodes = await admin.fetch(
            "SELECT nodename, nodeport, groupid FROM pg_dist_node WHERE noderole = 'primary'"
            " ORDER BY groupid"
        )
        await admin.execute("SET citus.enable_create_database_propagation = on")
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    fresh = with_database(url, name)
    try:
        for node in nodes:
            conn = await asyncpg.connect(
                with_database(on_node(url, node["nodename"], node["nodeport"]), name)
            )
            try:
                await conn.execute("CREATE EXTENSION citus")
            finally:
                await conn.close()
        conn = await asyncpg.connect(fresh)
        try:
            for node in nodes:
                if node["groupid"] == 0:
                    await conn.execute(
                        "SELECT citus_set_coordinator_host($1, $2)",
                        node["nodename"],
                        node["nodeport"],
                    )
                else:
                    await conn.execute(
                        "SELECT citus_add_node($1, $2)", node["nodename"], node["nodeport"]
                    )
        finally:
            await conn.close()
        await distribute(fresh)
        yield fresh
    finally:
        await _drop(url, name)


async def _drop(url: str, name: str) -> None:
    """Drop the database, trying again for a few seconds while it is still in use: Citus's
    maintenance daemon of the database, which ``WITH (FORCE)`` does not end, can still be
    connected to it a moment after the last session left."""
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("SET citus.enable_create_database_propagation = on")
        for attempt in range(10):
            try:
                await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except asyncpg.ObjectInUseError:
                if attempt == 9:
                    raise
                await asyncio.sleep(1)
    finally:
        await admin.close()


async def distribute(url: str) -> None:
    """Apply the migrations on the coordinator and distribute every per-encounter table by
    its encounter column, co-located with ``streams``, as docs/scale-out.md says."""
    conn = await asyncpg.connect(url)
    try:
        await apply_migrations(conn)
        await conn.execute("SET citus.enable_unsafe_triggers = on")  # the events' triggers
        for table, column in DISTRIBUTION_COLUMN.items():  # streams first
            await conn.execute(
                "SELECT create_distributed_table($1, $2, colocate_with => $3)",
                table,
                column,
                "default" if table == "streams" else "streams",
            )
        for table in REFERENCE_TABLES:
            await conn.execute("SELECT create_reference_table($1)", table)
    finally:
        await conn.close()
