"""A reader's own check of a stream's hash chain, from the events as they read them (an
encounter's or a campaign's ``/events``): what a player or spectator can verify without
trusting the service."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from events.envelope import GENESIS_HASH
from events.hashing import commitment_fault, event_hash


def line_hash(prev: str, stream_id: UUID | str, event: dict[str, Any]) -> str:
    """The hash of an event as a reader has it (a JSON line of ``/events`` or an archive)
    after ``prev``: what anyone can recompute without trusting the service."""
    return event_hash(
        prev,
        stream_id=UUID(str(stream_id)),
        stream_version=event["stream_version"],
        type=event["type"],
        type_version=event["type_version"],
        data=event["data"],
        metadata=event["metadata"],
        recorded_at=datetime.fromisoformat(event["recorded_at"]),
    )


def relinked(stream_id: str, events: list[dict[str, Any]]) -> list[str]:
    """What a reader finds recomputing the chain from what they read: each link's fault,
    and each commitment the reader holds the salts of that does not match."""
    faults, prev = [], GENESIS_HASH
    for event in events:
        recomputed = line_hash(prev, stream_id, event)
        if event["prev_hash"] != prev or recomputed != event["hash"]:
            faults.append(f"link {event['stream_version']}")
        if (fault := commitment_fault(event["type"], event["data"])) is not None:
            faults.append(f"{fault} at {event['stream_version']}")
        prev = event["hash"]
    return faults
