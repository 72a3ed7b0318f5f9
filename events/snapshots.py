"""Snapshots of a stream's folded state: save one, find the newest of a state schema, drop
those a rewritten history no longer describes.

One job: the ``snapshots`` table.  Apart from the rest of the store because snapshots
are a cache of folds with their own lifetime: appending and reading events never need them.
"""

from __future__ import annotations

from uuid import UUID

import msgspec

from events.db import Connection, Database


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    schema_version: int
    state: bytes


async def save_snapshot(
    conn: Connection, stream_id: UUID, version: int, schema_version: int, state: bytes
) -> None:
    await conn.execute(
        """INSERT INTO snapshots (stream_id, version, schema_version, state)
           VALUES ($1, $2, $3, $4::json)
           ON CONFLICT (stream_id, version) DO UPDATE
           SET schema_version = EXCLUDED.schema_version, state = EXCLUDED.state""",
        stream_id,
        version,
        schema_version,
        state.decode(),
    )


async def latest_snapshot(
    db: Database,
    stream_id: UUID,
    schema_version: int,
    *,
    at_most_version: int | None = None,
) -> Snapshot | None:
    """The newest snapshot of the current state schema, optionally not past a version."""
    row = await db.fetchrow(
        """SELECT version, schema_version, state FROM snapshots
           WHERE stream_id = $1 AND schema_version = $2
             AND ($3::int IS NULL OR version <= $3)
           ORDER BY version DESC LIMIT 1""",
        stream_id,
        schema_version,
        at_most_version,
    )
    if row is None:
        return None
    return Snapshot(row["version"], row["schema_version"], row["state"].encode())


async def delete_snapshots_from(conn: Connection, stream_id: UUID, version: int) -> None:
    """Drop the stream's snapshots at or after ``version`` (a history they no longer
    describe), inside the caller's transaction."""
    await conn.execute(
        "DELETE FROM snapshots WHERE stream_id = $1 AND version >= $2", stream_id, version
    )
