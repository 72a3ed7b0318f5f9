"""The event envelope: what is appended and what is read back.

``data`` is kept as plain JSON-ready builtins here; turning it into a ruleset's typed
Struct (after upcasting) is the job of the layer that knows the ruleset.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

GENESIS_HASH = "0" * 64
"""prev_hash of the first event of every stream."""


class NewEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be appended: its stable type tag, schema version and data."""

    type: str
    data: dict[str, Any]
    type_version: int = 1


class RecordedEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as stored: immutable, positioned in its stream and globally, hash-chained."""

    global_position: int
    stream_id: UUID
    stream_version: int
    type: str
    type_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str
