"""Idempotency keys: a request sent twice with the same key appends once.

The first response is stored by the same statement as the events it describes
(events/append.py), so a stored response always means the events are there, and a crash
between the two cannot make a retry append a second time.
"""

from __future__ import annotations

import hashlib
from uuid import UUID

from events.db import Database
from events.errors import IdempotencyKeyReused


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
