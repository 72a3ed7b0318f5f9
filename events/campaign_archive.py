"""A campaign as one portable archive: the campaign's own stream and the stream of every
encounter started from it, so a campaign moves to another service whole (docs/exports.md).

The archive is JSON Lines.  A ``campaign`` header names the campaign and, in order, the
encounters whose sections follow; then one section per stream, each exactly an encounter
archive (events/archive.py: its header, its events, its seed lines, its end line), the
campaign's own first; then a ``campaign_end`` line.  A reader streams it: a section begins
at a header line and ends at its end line, so no section needs to fit in memory.  Each
section is signed as an encounter export is; the ``campaign_end`` signature binds the set
(which streams, at which heads), so sections of different exports cannot be mixed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from events.archive import ARCHIVE_FORMAT, archive_lines
from events.db import Database
from events.heads import SignedHead
from events.provenance import key_id, sign


class CampaignArchiveHeader(
    msgspec.Struct, frozen=True, kw_only=True, tag="campaign", tag_field="kind"
):
    format: int = ARCHIVE_FORMAT
    campaign_id: UUID
    ruleset: str
    exported_at: datetime
    seeds: Literal["revealed", "all"]
    encounters: tuple[UUID, ...]
    """The encounters started from the campaign, in the order their sections follow the
    campaign's own."""


class SectionHead(msgspec.Struct, frozen=True, kw_only=True):
    """One stream of the archive at the head its section ends at."""

    stream_id: UUID
    version: int
    last_hash: str


class CampaignArchiveEnd(
    msgspec.Struct, frozen=True, kw_only=True, tag="campaign_end", tag_field="kind"
):
    streams: int
    """The sections the archive holds (the campaign's and its encounters')."""
    signature: str | None = None
    """HMAC-SHA256 of ``campaign_message`` under the exporting service's chain key; absent
    when it cannot vouch for every stream."""
    signed_by: str | None = None


CampaignArchiveLine = CampaignArchiveHeader | CampaignArchiveEnd

_encoder = msgspec.json.Encoder()


def campaign_message(campaign_id: UUID, seeds: str, heads: Sequence[SectionHead]) -> bytes:
    """What the ``campaign_end`` signature covers: the campaign, which seeds the sections
    claim, and every section's stream and head in order."""
    listed = ",".join(f"{h.stream_id}@{h.version}:{h.last_hash}" for h in heads)
    return f"aeon-ledger campaign archive:{campaign_id}:{seeds}:{listed}".encode()


class ExportedStream(msgspec.Struct, frozen=True, kw_only=True):
    """A stream to write as a section: its head, and the key that signs its section (None
    when this service does not vouch for it)."""

    stream_id: UUID
    head: SignedHead
    signer: bytes | None


async def campaign_archive_lines(
    db: Database,
    header: CampaignArchiveHeader,
    streams: Sequence[ExportedStream],
    signer: bytes | None,
) -> AsyncIterator[bytes]:
    """The archive, a line (or a page of event lines) at a time: ``streams`` are the
    campaign's then its encounters', each at its head; ``signer`` signs the set."""
    yield _encoder.encode(header) + b"\n"
    with_seeds = header.seeds == "all"
    for stream in streams:
        async for line in archive_lines(
            db,
            stream.stream_id,
            stream.head,
            now=header.exported_at,
            with_seeds=with_seeds,
            signer=stream.signer,
            ruleset=header.ruleset,
        ):
            yield line
    end = CampaignArchiveEnd(streams=len(streams))
    if signer is not None:
        heads = [
            SectionHead(stream_id=s.stream_id, version=s.head.version, last_hash=s.head.last_hash)
            for s in streams
        ]
        message = campaign_message(header.campaign_id, header.seeds, heads)
        end = CampaignArchiveEnd(
            streams=len(streams), signature=sign(signer, message), signed_by=key_id(signer)
        )
    yield _encoder.encode(end) + b"\n"
