"""A stream's head, the ``streams`` row: open a stream, read its head (signed or not), lock it.

One job: every statement on the ``streams`` table but the append's own conditional UPDATE
(events/append.py).  Apart from the rest of the store because the head is what the
write path, the readers and the verifier all start from, and none of them needs the rest.
"""

from __future__ import annotations

from uuid import UUID

import msgspec

from events.db import Connection, Database
from events.envelope import GENESIS_HASH
from events.errors import StreamNotFound
from events.kinds import ENCOUNTER, StreamKind


class StreamHead(msgspec.Struct, frozen=True):
    version: int
    last_hash: str


class SignedHead(msgspec.Struct, frozen=True):
    """The head as the streams row holds it, with its signature (None: unsigned)."""

    version: int
    last_hash: str
    signature: str | None


async def create_stream(
    conn: Connection, stream_id: UUID, kind: StreamKind = ENCOUNTER
) -> StreamHead:
    """Open an empty stream (version 0) of ``kind`` inside the caller's transaction."""
    await conn.execute(
        "INSERT INTO streams (stream_id, version, last_hash, kind) VALUES ($1, 0, $2, $3)",
        stream_id,
        GENESIS_HASH,
        kind,
    )
    return StreamHead(version=0, last_hash=GENESIS_HASH)


async def signed_head(db: Database, stream_id: UUID, kind: StreamKind = ENCOUNTER) -> SignedHead:
    """The head of a stream of ``kind`` and its stored signature (one primary-key read); an
    id of another kind of stream is not found, so no encounter route reads a campaign's."""
    row = await db.fetchrow(
        "SELECT version, last_hash, head_signature FROM streams WHERE stream_id = $1 AND kind = $2",
        stream_id,
        kind,
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return SignedHead(row["version"], row["last_hash"], row["head_signature"])


async def stream_head(db: Database, stream_id: UUID) -> StreamHead:
    row = await db.fetchrow(
        "SELECT version, last_hash FROM streams WHERE stream_id = $1", stream_id
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return StreamHead(version=row["version"], last_hash=row["last_hash"])


async def lock_stream(conn: Connection, stream_id: UUID) -> StreamHead:
    """The stream's head, its row locked for the caller's transaction."""
    row = await conn.fetchrow(
        "SELECT version, last_hash FROM streams WHERE stream_id = $1 FOR UPDATE", stream_id
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return StreamHead(version=row["version"], last_hash=row["last_hash"])


async def lock_stream_of(conn: Connection, stream_id: UUID, kind: StreamKind) -> StreamHead:
    """The head of a stream of ``kind``, its row locked; StreamNotFound for any other, so
    an id of one kind is never written as the other."""
    row = await conn.fetchrow(
        "SELECT version, last_hash FROM streams WHERE stream_id = $1 AND kind = $2 FOR UPDATE",
        stream_id,
        kind,
    )
    if row is None:
        raise StreamNotFound(stream_id)
    return StreamHead(version=row["version"], last_hash=row["last_hash"])
