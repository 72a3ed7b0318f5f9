"""The tamper-evident hash chain: hash = sha256(prev_hash || canonical bytes of the event).

Canonical bytes are compact JSON with sorted keys, so they survive a round trip through
jsonb (which reorders keys and drops whitespace) and anyone can recompute them.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def event_hash(
    prev_hash: str,
    *,
    stream_id: UUID,
    stream_version: int,
    type: str,
    type_version: int,
    data: dict[str, Any],
    metadata: dict[str, Any],
    recorded_at: datetime,
) -> str:
    """The link of one event in its stream's chain; append and verify both use this."""
    canonical = _encoder.encode(
        {
            "stream_id": str(stream_id),
            "stream_version": stream_version,
            "type": type,
            "type_version": type_version,
            "data": data,
            "metadata": metadata,
            "recorded_at": recorded_at.isoformat(),
        }
    )
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()
