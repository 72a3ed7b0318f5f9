"""The tamper-evident hash chain: hash = sha256(prev_hash || canonical bytes of the event).

Canonical bytes are compact JSON with sorted keys, so they survive a round trip through
jsonb (which reorders keys and drops whitespace) and anyone can recompute them.

A sealed event (a secret command's one envelope, ``encounter.sealed``) is chained by its
public form: its data without the salt and the inner events, but with the commitment to
them (``seal_commitment``).  So a player can check the whole chain while the secret is
sealed, cannot test guesses of the secret against a hash (the salt has 256 bits), and
after the reveal checks the commitment against the published salt and inner events.

Health numbers are chained the same way, field by field (events/committed_health.py): an
event that tells health is hashed with salted commitments in place of those values, so a
player who may not see them still recomputes the link, and cannot test guesses against it.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

import msgspec

from events import committed_health

_encoder = msgspec.json.Encoder(order="sorted")

SEALED = "encounter.sealed"
"""The type of a secret command's envelope (service/core_events.py, ``Sealed``)."""
SEALED_CONTENTS = ("salt", "events")
"""The data fields of an envelope the chain does not cover: what the GM alone reads
until the reveal; the ``commitment`` stands for them."""


def public_form(type: str, data: dict[str, Any]) -> dict[str, Any]:
    """The data the chain covers: all of it, except a sealed event's contents and an
    event's committed health values and their salts."""
    if type != SEALED:
        return committed_health.hashed_form(data)
    return {k: v for k, v in data.items() if k not in SEALED_CONTENTS}


def seal_commitment(salt: str, events: Any) -> str:
    """sha256(salt || canonical bytes of the inner events): binds the envelope to its
    contents without showing them (``salt`` is hex, at least 128 bits).  Each inner event
    counts by its public form, so a player who may not see its health numbers checks the
    commitment from what they read (unchanged for inner events without committed health)."""
    hashed = [{**e, "data": public_form(e["type"], e["data"])} for e in events]
    return hashlib.sha256(bytes.fromhex(salt) + _encoder.encode(hashed)).hexdigest()


def commitment_fault(type: str, data: dict[str, Any]) -> str | None:
    """Why an event's commitments do not match what the reader holds, or None: an opened
    envelope's salt and contents, and health values whose salts the reader has (the GM's
    and the service's verify; a player's view has none, and no check to make)."""
    if type != SEALED:
        return committed_health.fault(data)
    if "salt" not in data or "events" not in data:
        return None
    if seal_commitment(data["salt"], data["events"]) != data.get("commitment"):
        return "sealed contents do not match their commitment (altered)"
    return next(
        (f for e in data["events"] if (f := committed_health.fault(e["data"])) is not None), None
    )


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
            "data": public_form(type, data),
            "metadata": metadata,
            "recorded_at": recorded_at.isoformat(),
        }
    )
    return hashlib.sha256(prev_hash.encode("ascii") + canonical).hexdigest()


class Link(Protocol):
    """An event as the chain sees it (a stored event, or one line of an archive)."""

    @property
    def stream_version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def type_version(self) -> int: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def metadata(self) -> dict[str, Any]: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def prev_hash(self) -> str: ...
    @property
    def hash(self) -> str: ...


def link_fault(event: Link, *, stream_id: UUID, prev: str, expected_version: int) -> str | None:
    """Why ``event`` is not the link that belongs after ``prev`` at ``expected_version``,
    or None when it is: the one check of a chain, for verify and for imports alike."""
    if event.stream_version != expected_version:
        return f"version {expected_version} is missing"
    if event.prev_hash != prev:
        return "prev_hash does not match the previous event"
    recomputed = event_hash(
        prev,
        stream_id=stream_id,
        stream_version=event.stream_version,
        type=event.type,
        type_version=event.type_version,
        data=event.data,
        metadata=event.metadata,
        recorded_at=event.recorded_at,
    )
    if recomputed != event.hash:
        return "content does not match its hash (altered)"
    return commitment_fault(event.type, event.data)
