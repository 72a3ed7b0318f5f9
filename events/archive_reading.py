"""Reading an archive back into the store: each line checked as it arrives (the chain, the
seeds, the provenance), the stream opened under its own id, events inserted in batches,
and the import finished in the transaction that began it (the format: events/archive.py)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec

from events.archive import (
    ARCHIVE_FORMAT,
    ArchivedEvent,
    ArchivedSeed,
    ArchiveEnd,
    ArchiveHeader,
    ArchiveLine,
    BrokenArchive,
)
from events.db import Connection
from events.envelope import GENESIS_HASH
from events.hashing import link_fault
from events.kinds import ENCOUNTER, StreamKind
from events.provenance import (
    Provenance,
    seeds_digest,
)
from events.shards import anchor_of

_encoder = msgspec.json.Encoder()
_line = msgspec.json.Decoder(ArchiveLine)


class ArchiveReader:
    """Checks an archive line by line as it is read, keeping only what the end needs (the
    last hash, the seed lines, which epochs the events revealed), so an import of any
    size holds one batch of events at a time.  Header first, events 1..n each linked to
    the one before and hashing to its stored hash, an end line that matches."""

    def __init__(self) -> None:
        self.header: ArchiveHeader | None = None
        self.end: ArchiveEnd | None = None
        self.seeds: list[ArchivedSeed] = []
        self.count = 0
        self.committed: set[int] = set()
        self.revealed: dict[int, str] = {}
        """Seeds the events publish, by epoch (negative: an epoch's secret seed)."""
        self._prev = GENESIS_HASH
        self._number = 0

    def feed(self, raw: bytes) -> ArchiveHeader | ArchivedEvent | None:
        """Check one line; the header or an event to store, else None (blank, seed, end)."""
        self._number += 1
        number = self._number
        if not raw.strip():
            return None
        if self.end is not None:
            raise BrokenArchive(f"line {number}: nothing may follow the end line")
        try:
            line = _line.decode(raw)
        except msgspec.ValidationError as exc:
            raise BrokenArchive(f"line {number}: {exc}") from None
        match line:
            case ArchiveHeader():
                if self.header is not None or number != 1:
                    raise BrokenArchive(f"line {number}: the header must be the first line")
                if line.format != ARCHIVE_FORMAT:
                    raise BrokenArchive(f"line {number}: unknown archive format {line.format}")
                self.header = line
                return line
            case ArchivedEvent():
                if self.header is None:
                    raise BrokenArchive(f"line {number}: the header must be the first line")
                _check_link(number, self.header.encounter_id, line, self.count + 1, self._prev)
                self.count += 1
                self._prev = line.hash
                self._note_seeds(line)
                return line
            case ArchivedSeed():
                self.seeds.append(line)
            case ArchiveEnd():
                self.end = line
        return None

    def finish(self) -> tuple[ArchiveHeader, ArchiveEnd]:
        if self.header is None:
            raise BrokenArchive("the archive is empty")
        if self.end is None:
            raise BrokenArchive("the archive has no end line: it was cut off")
        end, header = self.end, self.header
        if end.events != self.count or end.last_hash != self._prev or header.version != self.count:
            raise BrokenArchive(
                f"the archive announces {header.version} events ending in {end.last_hash[:12]}"
                f" but holds {self.count} ending in {self._prev[:12]}"
            )
        return header, end

    def seeds_digest(self) -> str:
        return seeds_digest([_encoder.encode(s) for s in self.seeds])

    def _note_seeds(self, event: ArchivedEvent) -> None:
        data = event.data
        if event.type == SEED_COMMITTED:
            self.committed.add(int(data["epoch"]))
        elif event.type == SEED_REVEALED:
            self.revealed[int(data["epoch"])] = str(data["seed"])
            if data.get("secret_seed"):
                self.revealed[-int(data["epoch"])] = str(data["secret_seed"])
        elif event.type == ROLLS_REVEALED:
            for epoch, seed in (data.get("secret_seeds") or {}).items():
                self.revealed[-int(epoch)] = str(seed)


SEED_COMMITTED, SEED_REVEALED = "dice.seed_committed", "dice.seed_revealed"
ROLLS_REVEALED = "dice.rolls_revealed"


def _check_link(
    number: int, stream_id: UUID, event: ArchivedEvent, expected_version: int, prev: str
) -> None:
    fault = link_fault(event, stream_id=stream_id, prev=prev, expected_version=expected_version)
    if fault is not None:
        raise BrokenArchive(f"line {number}: event {event.stream_version}: {fault}")


class StreamExists(Exception):
    def __init__(self, stream_id: UUID) -> None:
        super().__init__(f"an encounter with id {stream_id} is already stored here")
        self.stream_id = stream_id


async def open_imported_stream(
    conn: Connection, header: ArchiveHeader, kind: StreamKind = ENCOUNTER
) -> int | None:
    """Create the archive's stream at its head and reserve its events' places in their
    shard, inside the caller's transaction; returns the first place (None when the store
    is read in transaction order: events then have none).  The head is the header's: if
    the events do not bear it out, the import fails and this rolls back."""
    created = await conn.fetchval(
        """INSERT INTO streams (stream_id, version, last_hash, created_at, kind)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING true""",
        header.encounter_id,
        header.version,
        header.last_hash,
        header.exported_at,
        kind,
    )
    if not created:
        raise StreamExists(header.encounter_id)
    _shard, anchor = anchor_of(header.encounter_id)
    head: int | None = await conn.fetchval(
        """UPDATE shard_heads SET head = head + $2
           WHERE anchor = $1 AND (SELECT by_shard FROM event_order) RETURNING head""",
        anchor,
        header.version,
    )
    return None if head is None else head - header.version + 1


async def insert_events(
    conn: Connection,
    header: ArchiveHeader,
    events: list[ArchivedEvent],
    first_place: int | None,
) -> None:
    """Write a batch of checked events as they were recorded (same versions, timestamps,
    metadata and hashes); ``first_place`` is the shard place of the stream's event 1
    (``open_imported_stream``)."""
    shard, _anchor = anchor_of(header.encounter_id)
    await conn.executemany(
        """INSERT INTO events (stream_id, stream_version, type, type_version, data, metadata,
                               recorded_at, prev_hash, hash, shard, shard_position)
           VALUES ($1, $2, $3, $4, $5::json, $6::json, $7, $8, $9, $10, $11)""",
        [
            (
                header.encounter_id,
                e.stream_version,
                e.type,
                e.type_version,
                _encoder.encode(e.data).decode(),
                _encoder.encode(e.metadata).decode(),
                e.recorded_at,
                e.prev_hash,
                e.hash,
                shard,
                None if first_place is None else first_place + e.stream_version - 1,
            )
            for e in events
        ],
    )


async def finish_import(
    conn: Connection,
    header: ArchiveHeader,
    seeds: list[ArchivedSeed],
    *,
    created_at: datetime,
    head_signature: str | None,
    provenance: Provenance,
    provenance_signature: str | None,
) -> None:
    """Store the seeds, the import record, the head (``header``'s: an import that rehomed
    the events under a new id knows its last hash only now) and its signature, and the
    first event's time as the stream's creation."""
    await conn.execute(
        """UPDATE streams SET created_at = $2, head_signature = $3, imported_version = $4,
                  imported_hash = $5, imported_attestation = $6, imported_signature = $7,
                  imported_from = $8, last_hash = $9
           WHERE stream_id = $1""",
        header.encounter_id,
        created_at,
        head_signature,
        provenance.version,
        provenance.hash,
        provenance.attestation,
        provenance_signature,
        provenance.origin,
        header.last_hash,
    )
    await conn.executemany(
        """INSERT INTO dice_seeds (stream_id, epoch, seed, client_seed, commitment)
           VALUES ($1, $2, $3, $4, $5)""",
        [
            (header.encounter_id, s.epoch, bytes.fromhex(s.seed), s.client_seed, s.commitment)
            for s in seeds
        ],
    )
