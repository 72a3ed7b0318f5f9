"""``aeon-ledger import``: take an archive (events/archive.py) into this service.

Lives in api/ because it joins the three layers: the event store writes the events as
recorded, the projections rebuild the encounter's read models from them, and the access
layer mints a GM token for the new home, all in one transaction: an import that fails
anywhere leaves nothing behind.  The archive is read as it streams in, a batch of events
at a time, so its size does not decide the import's memory.

What the archive's signature attests, and what an unattested import may not carry (a
seed for a dice epoch the archive did not reveal: whoever wrote the file would know the
next server rolls), is decided here; events/provenance.py says what is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from uuid import UUID

import asyncpg
import msgspec

from events.archive import ArchivedEvent, ArchiveEnd, ArchiveHeader, BrokenArchive
from events.archive_reading import ArchiveReader, finish_import, insert_events, open_imported_stream
from events.db import Connection
from events.provenance import (
    Attestation,
    ChainKeys,
    ForgedSignature,
    Provenance,
    archive_message,
    attestation_under,
    record_signature,
)
from events.signing import sign_head
from projections.stream_rebuild import rebuild_stream
from service.registry import get_ruleset
from service.tokens import MintedToken, mint

BATCH = 1000
"""Events written per statement while the archive streams in."""


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: UUID
    gm_token: MintedToken
    events: int
    server_dice: bool
    """Whether the seeds of the open dice epoch came with the archive: without them (an
    archive a GM exported) the imported encounter plays on with manual dice only."""
    attestation: Attestation


def attestation_of(
    header: ArchiveHeader, end: ArchiveEnd, seeds_digest: str, keys: ChainKeys
) -> Attestation:
    """Who vouches for the archive: its signature under this service's key or a trusted
    one.  A signature that names this service's key (or a trusted one) and does not hold
    is a changed archive, refused; one under a key this service does not know is only
    unattested."""
    message = archive_message(
        header.encounter_id, header.version, header.last_hash, header.seeds, seeds_digest
    )
    try:
        return attestation_under(keys, end.signed_by, end.signature, message)
    except ForgedSignature as forged:
        raise BrokenArchive(
            f"the archive's signature names {forged.whose} chain key but does not hold: the"
            " archive was changed after it was exported"
        ) from None


def check_seeds(reader: ArchiveReader, attestation: Attestation) -> None:
    """An archive nobody here vouches for may carry only seeds its own events revealed:
    a seed line for an epoch still open would be a seed its author chose."""
    if attestation != "unattested":
        return
    for seed in reader.seeds:
        revealed = reader.revealed.get(seed.epoch)
        kind = "secret seed" if seed.epoch < 0 else "seed"
        if revealed is None:
            raise BrokenArchive(
                f"the archive carries a {kind} for dice epoch {abs(seed.epoch)}, which its"
                " events never revealed: only an archive signed by this service (a full"
                " export with the service key) may carry the seed of an open epoch"
            )
        if revealed != seed.seed:
            raise BrokenArchive(
                f"the archive's {kind} line for dice epoch {abs(seed.epoch)} differs from the"
                " seed its events reveal"
            )


def open_epoch_seeded(reader: ArchiveReader) -> bool:
    """The epochs still open at the archive's end have their stored seeds in it."""
    open_epochs = reader.committed - {e for e in reader.revealed if e > 0}
    seeded = {s.epoch for s in reader.seeds}
    return open_epochs <= seeded


async def import_archive(pool: asyncpg.Pool, lines: Iterable[bytes], keys: ChainKeys) -> Imported:
    """Check the archive while storing it, in one transaction; raises
    events.archive.BrokenArchive, StreamExists or service.registry.UnknownRuleset and
    writes nothing."""
    reader = ArchiveReader()
    batch: list[ArchivedEvent] = []
    first_place: int | None = None
    created_at = None
    async with pool.acquire() as conn, conn.transaction():
        for raw in lines:
            line = reader.feed(raw)
            if isinstance(line, ArchiveHeader):
                get_ruleset(line.ruleset)
                first_place = await open_imported_stream(conn, line)
            elif line is not None:
                created_at = created_at or line.recorded_at
                batch.append(line)
                if len(batch) >= BATCH:
                    await _flush(conn, reader.header, batch, first_place)
        await _flush(conn, reader.header, batch, first_place)
        header, end = reader.finish()
        attestation = attestation_of(header, end, reader.seeds_digest(), keys)
        await record_import(
            conn, header, reader, attestation, keys, created_at=created_at or header.exported_at
        )
        await rebuild_stream(conn, header.encounter_id)
        token = await mint(conn, header.encounter_id, role="gm", label="imported")
    return Imported(
        encounter_id=header.encounter_id,
        gm_token=token,
        events=header.version,
        server_dice=open_epoch_seeded(reader),
        attestation=attestation,
    )


async def _flush(
    conn: Connection,
    header: ArchiveHeader | None,
    batch: list[ArchivedEvent],
    first_place: int | None,
) -> None:
    if batch and header is not None:
        await insert_events(conn, header, batch, first_place)
    batch.clear()


async def record_import(
    conn: Connection,
    stored: ArchiveHeader,
    reader: ArchiveReader,
    attestation: Attestation,
    keys: ChainKeys,
    *,
    created_at: datetime,
    original: ArchiveHeader | None = None,
) -> None:
    """Close the import of one stream stored as ``stored``: its seed lines checked and
    stored, its import record (the archive's own head, ``original`` when it was stored
    under another id, and who attested it) and its head signed.

    The head is signed so that a later rewrite here is caught like any other; what it
    does not claim (that this service saw events 1..N written) the import record says."""
    check_seeds(reader, attestation)
    source = original or stored
    provenance = Provenance(
        version=source.version,
        hash=source.last_hash,
        attestation=attestation,
        origin=None if original is None else original.encounter_id,
    )
    stream_id = stored.encounter_id
    signature = (
        None
        if keys.own is None
        else sign_head(keys.own, stream_id, stored.version, stored.last_hash)
    )
    await finish_import(
        conn,
        stored,
        reader.seeds,
        created_at=created_at,
        head_signature=signature,
        provenance=provenance,
        provenance_signature=record_signature(keys.own, stream_id, provenance),
    )
