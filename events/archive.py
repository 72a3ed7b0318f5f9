"""An encounter as a portable archive: JSON Lines that carry its events with their hash
links, so another service can take it in and prove it unchanged (docs/exports.md).

One line per record, tagged by ``kind``: the ``encounter`` header first, the events in
stream order, the stored dice seeds (only in a full export, which moves a game in
progress), and an ``end`` line whose count and last hash make a cut-off file detectable.
The commitments and the revealed seeds are events themselves (``core.seed_committed``,
``core.seed_revealed``, ``core.rolls_revealed``), so every archive proves its dice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import RecordedEvent
from events.heads import SignedHead
from events.provenance import (
    archive_message,
    key_id,
    seeds_digest,
    sign,
)
from events.reading import read_stream, stream_ruleset

ARCHIVE_FORMAT = 1
_PAGE = 500


class ArchiveHeader(msgspec.Struct, frozen=True, kw_only=True, tag="encounter", tag_field="kind"):
    format: int = ARCHIVE_FORMAT
    encounter_id: UUID
    ruleset: str
    version: int
    """The stream version the archive ends at (its events are 1..version)."""
    last_hash: str
    exported_at: datetime
    seeds: Literal["revealed", "all"]
    """``revealed``: only what the events publish; ``all``: the stored seeds follow too."""


class ArchivedEvent(msgspec.Struct, frozen=True, kw_only=True, tag="event", tag_field="kind"):
    stream_version: int
    type: str
    type_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str


class ArchivedSeed(msgspec.Struct, frozen=True, kw_only=True, tag="seed", tag_field="kind"):
    """A stored dice seed (a negative epoch holds that epoch's secret seed)."""

    epoch: int
    seed: str
    """Hex."""
    client_seed: str
    commitment: str


class ArchiveEnd(msgspec.Struct, frozen=True, kw_only=True, tag="end", tag_field="kind"):
    events: int
    last_hash: str
    signature: str | None = None
    """HMAC-SHA256 of the head and the seed lines (events/provenance.py) under the
    exporting service's chain key; absent when it has none or cannot vouch for the
    history (an unattested import of its own)."""
    signed_by: str | None = None
    """The signing key's public id (events.provenance.key_id)."""


ArchiveLine = ArchiveHeader | ArchivedEvent | ArchivedSeed | ArchiveEnd

_encoder = msgspec.json.Encoder()


class BrokenArchive(ValueError):
    """An archive that is not whole or whose chain does not hold; says which line."""


def _archived(event: RecordedEvent) -> ArchivedEvent:
    return ArchivedEvent(
        stream_version=event.stream_version,
        type=event.type,
        type_version=event.type_version,
        data=event.data,
        metadata=event.metadata,
        recorded_at=event.recorded_at,
        prev_hash=event.prev_hash,
        hash=event.hash,
    )


async def stored_seeds(db: Database, stream_id: UUID) -> list[ArchivedSeed]:
    rows = await db.fetch(
        "SELECT epoch, seed, client_seed, commitment FROM dice_seeds"
        " WHERE stream_id = $1 ORDER BY abs(epoch), epoch DESC",
        stream_id,
    )
    return [
        ArchivedSeed(
            epoch=r["epoch"],
            seed=bytes(r["seed"]).hex(),
            client_seed=r["client_seed"],
            commitment=r["commitment"],
        )
        for r in rows
    ]


async def archive_lines(
    db: Database,
    stream_id: UUID,
    head: SignedHead,
    *,
    now: datetime,
    with_seeds: bool,
    signer: bytes | None = None,
    ruleset: str | None = None,
) -> AsyncIterator[bytes]:
    """The archive of ``stream_id`` up to ``head``, one encoded line at a time, read a page
    of events at a time so a long campaign never sits in memory whole; signed with
    ``signer`` (the service's chain key, when it vouches for the history).  ``ruleset``
    names it for a stream whose first event does not (a campaign's)."""
    ruleset = ruleset or await stream_ruleset(db, stream_id)
    header = ArchiveHeader(
        encounter_id=stream_id,
        ruleset=ruleset or "",
        version=head.version,
        last_hash=head.last_hash,
        exported_at=now,
        seeds="all" if with_seeds else "revealed",
    )
    yield _encoder.encode(header) + b"\n"
    after = 0
    while after < head.version:
        page = await read_stream(
            db, stream_id, after_version=after, up_to_version=head.version, limit=_PAGE
        )
        if not page:
            break
        yield b"".join(_encoder.encode(_archived(e)) + b"\n" for e in page)
        after = page[-1].stream_version
    seed_lines = (
        [_encoder.encode(s) for s in await stored_seeds(db, stream_id)] if with_seeds else []
    )
    for line in seed_lines:
        yield line + b"\n"
    end = ArchiveEnd(events=head.version, last_hash=head.last_hash)
    if signer is not None:
        message = archive_message(
            stream_id, head.version, head.last_hash, header.seeds, seeds_digest(seed_lines)
        )
        end = ArchiveEnd(
            events=head.version,
            last_hash=head.last_hash,
            signature=sign(signer, message),
            signed_by=key_id(signer),
        )
    yield _encoder.encode(end) + b"\n"
