"""An encounter as a portable archive: JSON Lines that carry its events with their hash
links, so another service can take it in and prove it unchanged (docs/exports.md).

One line per record, tagged by ``kind``: the ``encounter`` header first, the events in
stream order, the stored dice seeds (only in a full export, which moves a game in
progress), and an ``end`` line whose count and last hash make a cut-off file detectable.
The commitments and the revealed seeds are events themselves (``core.seed_committed``,
``core.seed_revealed``, ``core.rolls_revealed``), so every archive proves its dice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

from events.db import Connection, Database
from events.envelope import GENESIS_HASH, RecordedEvent
from events.hashing import link_fault
from events.heads import SignedHead
from events.reading import read_stream, stream_ruleset
from events.shards import anchor_of

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


ArchiveLine = ArchiveHeader | ArchivedEvent | ArchivedSeed | ArchiveEnd

_encoder = msgspec.json.Encoder()
_line = msgspec.json.Decoder(ArchiveLine)


class BrokenArchive(ValueError):
    """An archive that is not whole or whose chain does not hold; says which line."""


class Archive(msgspec.Struct, frozen=True, kw_only=True):
    header: ArchiveHeader
    events: tuple[ArchivedEvent, ...]
    seeds: tuple[ArchivedSeed, ...]


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
    db: Database, stream_id: UUID, head: SignedHead, *, now: datetime, with_seeds: bool
) -> AsyncIterator[bytes]:
    """The archive of ``stream_id`` up to ``head``, one encoded line at a time, read a page
    of events at a time so a long campaign never sits in memory whole."""
    ruleset = await stream_ruleset(db, stream_id)
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
    if with_seeds:
        for seed in await stored_seeds(db, stream_id):
            yield _encoder.encode(seed) + b"\n"
    yield _encoder.encode(ArchiveEnd(events=head.version, last_hash=head.last_hash)) + b"\n"


def read_archive(lines: Iterable[bytes]) -> Archive:
    """Parse and check an archive: header first, events 1..n each linked to the one before
    and hashing to its stored hash, an end line that matches.  Pure: nothing is written."""
    header: ArchiveHeader | None = None
    events: list[ArchivedEvent] = []
    seeds: list[ArchivedSeed] = []
    end: ArchiveEnd | None = None
    prev = GENESIS_HASH
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if end is not None:
            raise BrokenArchive(f"line {number}: nothing may follow the end line")
        try:
            line = _line.decode(raw)
        except msgspec.ValidationError as exc:
            raise BrokenArchive(f"line {number}: {exc}") from None
        match line:
            case ArchiveHeader():
                if header is not None or number != 1:
                    raise BrokenArchive(f"line {number}: the header must be the first line")
                if line.format != ARCHIVE_FORMAT:
                    raise BrokenArchive(f"line {number}: unknown archive format {line.format}")
                header = line
            case ArchivedEvent():
                if header is None:
                    raise BrokenArchive(f"line {number}: the header must be the first line")
                _check_link(number, header.encounter_id, line, len(events) + 1, prev)
                events.append(line)
                prev = line.hash
            case ArchivedSeed():
                seeds.append(line)
            case ArchiveEnd():
                end = line
    if header is None:
        raise BrokenArchive("the archive is empty")
    if end is None:
        raise BrokenArchive("the archive has no end line: it was cut off")
    if end.events != len(events) or end.last_hash != prev or header.version != len(events):
        raise BrokenArchive(
            f"the archive announces {header.version} events ending in {end.last_hash[:12]}"
            f" but holds {len(events)} ending in {prev[:12]}"
        )
    return Archive(header=header, events=tuple(events), seeds=tuple(seeds))


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


async def insert_archive(conn: Connection, archive: Archive, head_signature: str | None) -> None:
    """Write the archive's stream, events and seeds inside the caller's transaction, as
    they were recorded: same versions, timestamps, metadata and hashes."""
    header = archive.header
    created = await conn.fetchval(
        """INSERT INTO streams (stream_id, version, last_hash, head_signature, created_at)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING true""",
        header.encounter_id,
        header.version,
        header.last_hash,
        head_signature,
        archive.events[0].recorded_at if archive.events else header.exported_at,
    )
    if not created:
        raise StreamExists(header.encounter_id)
    shard, anchor = anchor_of(header.encounter_id)
    head = await conn.fetchval(
        "UPDATE shard_heads SET head = head + $2 WHERE anchor = $1 RETURNING head",
        anchor,
        len(archive.events),
    )
    first = head - len(archive.events) + 1
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
                position,
            )
            for position, e in enumerate(archive.events, start=first)
        ],
    )
    await conn.executemany(
        """INSERT INTO dice_seeds (stream_id, epoch, seed, client_seed, commitment)
           VALUES ($1, $2, $3, $4, $5)""",
        [
            (header.encounter_id, s.epoch, bytes.fromhex(s.seed), s.client_seed, s.commitment)
            for s in archive.seeds
        ],
    )
