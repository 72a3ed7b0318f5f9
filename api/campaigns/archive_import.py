"""Importing a campaign archive (events/campaign_archive.py): a new campaign and new
encounters, every link between them rewritten, in one transaction that writes nothing
unless every check passes (docs/exports.md, "A whole campaign").

Each stream is checked under its original id as an encounter import checks it (chain,
end line, signature, seed lines), then rehomed under a new id (events/archive_rehoming.py)
and stored a batch at a time; its provenance records the original id and head and who
attested them, exactly as an encounter import's, and its new head is signed so a later
rewrite here is caught.  Lives in api/ for the reason the encounter import does (api/cli/
archive_import.py, whose attestation and seed rules this reuses): it joins the store, the
read-model rebuild and the tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID, uuid4

import asyncpg
import msgspec

from api.cli.archive_import import BATCH, attestation_of, open_epoch_seeded, record_import
from events.archive import ArchivedEvent, ArchiveHeader, BrokenArchive
from events.archive_reading import insert_events, open_imported_stream
from events.archive_rehoming import ENCOUNTER_CREATED, Rehoming
from events.campaign_access import copy_campaign_gm_tokens
from events.campaign_archive import CampaignArchiveHeader
from events.campaign_archive_reading import (
    CampaignArchiveReader,
    FinishedSection,
    set_attestation,
    weaker,
)
from events.db import Connection
from events.kinds import CAMPAIGN, CAMPAIGN_FIRST, ENCOUNTER, of_campaign
from events.provenance import Attestation, ChainKeys
from projections.stream_fold import DamagedStream
from projections.stream_rebuild import rebuild_stream
from service.campaign_store.stream import load
from service.campaign_store.tokens import mint_campaign_token
from service.registry import get_ruleset
from service.ruleset import RuleViolation
from service.tokens import mint


class ImportedStream(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    original_id: UUID
    """The stream's id in the archive (and at the exporting service)."""
    gm_token: str
    events: int
    attestation: Attestation
    server_dice: bool = False
    """For an encounter: whether the seeds of its open dice epoch came with the archive
    (without them it plays on with manual dice only)."""


class ImportedCampaign(msgspec.Struct, frozen=True, kw_only=True):
    campaign: ImportedStream
    encounters: list[ImportedStream]


@dataclass
class _Section:
    """One stream being stored: its original header, its rehoming, its pending batch."""

    header: ArchiveHeader
    rehoming: Rehoming
    first_place: int | None
    campaign: UUID
    created_at: datetime | None = None
    batch: list[ArchivedEvent] = field(default_factory=list)

    @property
    def is_campaign(self) -> bool:
        return self.header.encounter_id == self.campaign

    def rehomed_header(self) -> ArchiveHeader:
        return msgspec.structs.replace(
            self.header, encounter_id=self.rehoming.stream_id, last_hash=self.rehoming.last_hash
        )

    async def add(self, conn: Connection, event: ArchivedEvent) -> None:
        if event.stream_version == 1:
            self._check_first(event)
        if of_campaign(event.type) != self.is_campaign:
            raise BrokenArchive(
                f"{self.header.encounter_id}: event {event.stream_version} ({event.type})"
                " belongs to another kind of stream"
            )
        self.created_at = self.created_at or event.recorded_at
        self.batch.append(self.rehoming.event(event))
        if len(self.batch) >= BATCH:
            await self.flush(conn)

    async def flush(self, conn: Connection) -> None:
        if self.batch:
            await insert_events(conn, self.rehomed_header(), self.batch, self.first_place)
        self.batch.clear()

    def _check_first(self, event: ArchivedEvent) -> None:
        """The campaign's stream opens with its creation; an encounter's with its own,
        naming this campaign and its ruleset."""
        expected = CAMPAIGN_FIRST if self.is_campaign else ENCOUNTER_CREATED
        linked = self.is_campaign or event.data.get("campaign") == str(self.campaign)
        if event.type != expected or not linked or event.data.get("ruleset") != self.header.ruleset:
            what = "the campaign" if self.is_campaign else f"encounter {self.header.encounter_id}"
            raise BrokenArchive(
                f"the stream of {what} does not open with its {expected} of this campaign"
                f" and its ruleset {self.header.ruleset}"
            )


@dataclass(frozen=True)
class _Stored:
    section: FinishedSection
    rehomed: ArchiveHeader
    created_at: datetime
    attestation: Attestation
    is_campaign: bool


async def import_campaign(
    pool: asyncpg.Pool, lines: Iterable[bytes], keys: ChainKeys
) -> ImportedCampaign:
    """Check the archive while storing it under new ids, in one transaction; raises
    BrokenArchive (or service.registry.UnknownRuleset) and writes nothing."""
    reader = CampaignArchiveReader()
    stored: list[_Stored] = []
    ids: dict[UUID, UUID] = {}
    section: _Section | None = None
    async with pool.acquire() as conn, conn.transaction():
        for raw in lines:
            line = reader.feed(raw)
            if isinstance(line, CampaignArchiveHeader):
                get_ruleset(line.ruleset)
                ids = {old: uuid4() for old in (line.campaign_id, *line.encounters)}
            elif isinstance(line, ArchiveHeader):
                section = await _open(conn, line, ids, reader)
            elif isinstance(line, ArchivedEvent) and section is not None:
                await section.add(conn, line)
            elif isinstance(line, FinishedSection) and section is not None:
                await section.flush(conn)
                stored.append(_finished(section, line, keys))
        header, end = reader.finish()
        trusted = set_attestation(header, end, reader.heads, keys)
        imported = [await _finish(conn, s, weaker(s.attestation, trusted), keys) for s in stored]
        campaign_id = imported[0].id
        await _check_folds(conn, campaign_id)
        token = await mint_campaign_token(conn, campaign_id, role="gm", label="imported")
        for encounter in imported[1:]:  # as for an encounter the campaign starts
            await copy_campaign_gm_tokens(conn, campaign_id, encounter.id)
    return ImportedCampaign(
        campaign=msgspec.structs.replace(imported[0], gm_token=token), encounters=imported[1:]
    )


async def _open(
    conn: Connection, header: ArchiveHeader, ids: Mapping[UUID, UUID], reader: CampaignArchiveReader
) -> _Section:
    assert reader.header is not None
    if header.ruleset != reader.header.ruleset:
        raise BrokenArchive(
            f"{header.encounter_id} runs {header.ruleset}, the campaign {reader.header.ruleset}"
        )
    rehoming = Rehoming(header.encounter_id, ids)
    is_campaign = header.encounter_id == reader.header.campaign_id
    first_place = await open_imported_stream(
        conn,
        msgspec.structs.replace(header, encounter_id=rehoming.stream_id),
        CAMPAIGN if is_campaign else ENCOUNTER,
    )
    return _Section(header, rehoming, first_place, reader.header.campaign_id)


def _finished(section: _Section, finished: FinishedSection, keys: ChainKeys) -> _Stored:
    if finished.header.version < 1:
        raise BrokenArchive(f"the stream of {finished.header.encounter_id} has no events")
    seeds = finished.reader.seeds_digest()
    return _Stored(
        section=finished,
        rehomed=section.rehomed_header(),
        created_at=section.created_at or finished.header.exported_at,
        attestation=attestation_of(finished.header, finished.end, seeds, keys),
        is_campaign=section.is_campaign,
    )


async def _finish(
    conn: Connection, stored: _Stored, attestation: Attestation, keys: ChainKeys
) -> ImportedStream:
    """The import record, head signature and seeds of one stream; an encounter's read
    models rebuilt and its GM token minted (the campaign's token is minted last)."""
    original, rehomed, reader = stored.section.header, stored.rehomed, stored.section.reader
    stream_id = rehomed.encounter_id
    await record_import(
        conn,
        rehomed,
        reader,
        attestation,
        keys,
        created_at=stored.created_at,
        original=original,
    )
    token, server_dice = "", False
    if not stored.is_campaign:
        try:
            await rebuild_stream(conn, stream_id)
        except DamagedStream as exc:
            raise BrokenArchive(f"encounter {original.encounter_id} does not fold: {exc}") from None
        token = (await mint(conn, stream_id, role="gm", label="imported")).token
        server_dice = open_epoch_seeded(reader)
    return ImportedStream(
        id=stream_id,
        original_id=original.encounter_id,
        gm_token=token,
        events=original.version,
        attestation=attestation,
        server_dice=server_dice,
    )


async def _check_folds(conn: Connection, campaign_id: UUID) -> None:
    """The campaign's events fold (a forged one may be consistent and still meaningless):
    the routes fold it on every read, so one that does not is refused here."""
    try:
        await load(conn, campaign_id)
    except (msgspec.ValidationError, RuleViolation, KeyError, TypeError, ValueError) as exc:
        raise BrokenArchive(f"the campaign's events do not fold: {exc}") from None
