"""Idempotency keys: a request sent twice with the same key appends once.

The first response is stored in the same transaction as the events it describes, so a
stored response always means the events are there, and a crash between the two cannot
make a retry append a second time.
"""

from __future__ import annotations

import hashlib
from uuid import UUID

import msgspec

from events.db import Connection, Database
from events.errors import IdempotencyKeyReused


class StoredResponse(msgspec.Struct, frozen=True):
    request_hash: str
    response: bytes


def request_fingerprint(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


async def find_response(db: Database, stream_id: UUID, key: str, request_hash: str) -> bytes | None:
    """The stored response for ``key``, or None; IdempotencyKeyReused if the body differs."""
    row = await db.fetchrow(
        "SELECT request_hash, response FROM idempotency_keys WHERE stream_id = $1 AND key = $2",
        stream_id,
        key,
    )
    if row is None:
        return None
    if row["request_hash"] != request_hash:
        raise IdempotencyKeyReused(key)
    return bytes(row["response"])


async def save_response(
    conn: Connection, stream_id: UUID, key: str, request_hash: str, response: bytes
) -> None:
    """Record the response inside the append's transaction.

    A concurrent request with the same key that got here first makes this raise
    asyncpg.UniqueViolationError; the caller rolls back and serves the stored response.
    """
    await conn.execute(
        """INSERT INTO idempotency_keys (stream_id, key, request_hash, response)
           VALUES ($1, $2, $3, $4)""",
        stream_id,
        key,
        request_hash,
        response,
    )
