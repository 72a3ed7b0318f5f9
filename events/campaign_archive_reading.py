"""Reading a campaign archive (events/campaign_archive.py) as it streams in: the campaign
header, then each stream's section checked by the encounter archive's own reader
(events/archive_reading.py), then the end line that says how many sections there were.

Nothing here writes: the import (api/campaigns/archive_import.py) stores what this hands
it, a section's header, its events one at a time and the finished section, so a campaign
of any size is held one event at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar
from uuid import UUID

import msgspec

from events.archive import ARCHIVE_FORMAT, ArchivedEvent, ArchiveEnd, ArchiveHeader, BrokenArchive
from events.archive_reading import ArchiveReader
from events.campaign_archive import (
    CampaignArchiveEnd,
    CampaignArchiveHeader,
    SectionHead,
    campaign_message,
)
from events.provenance import Attestation, ChainKeys, ForgedSignature, attestation_under

_T = TypeVar("_T")


class _Kind(msgspec.Struct):
    kind: str


_kind = msgspec.json.Decoder(_Kind)
_header = msgspec.json.Decoder(CampaignArchiveHeader)
_end = msgspec.json.Decoder(CampaignArchiveEnd)


@dataclass(frozen=True)
class FinishedSection:
    """A stream's section read to its end line, every check of it passed."""

    header: ArchiveHeader
    end: ArchiveEnd
    reader: ArchiveReader
    """What the section's end needs: its seed lines, the epochs its events revealed."""


class CampaignArchiveReader:
    """Splits the archive into its sections and checks what binds them: the header first,
    the sections in the order it lists (the campaign's own, then each encounter's once),
    none cut off, and an end line counting them."""

    def __init__(self) -> None:
        self.header: CampaignArchiveHeader | None = None
        self.end: CampaignArchiveEnd | None = None
        self.heads: list[SectionHead] = []
        self._section: ArchiveReader | None = None
        self._expected: list[UUID] = []
        self._number = 0

    def feed(
        self, raw: bytes
    ) -> CampaignArchiveHeader | ArchiveHeader | ArchivedEvent | FinishedSection | None:
        """Check one line: the campaign header, a section's header, an event to store, a
        section just finished, else None (blank, seed, the end)."""
        self._number += 1
        number = self._number
        if not raw.strip():
            return None
        if self.end is not None:
            raise BrokenArchive(f"line {number}: nothing may follow the campaign's end line")
        try:
            kind = _kind.decode(raw).kind
        except msgspec.DecodeError as exc:  # malformed, or not a line of the format
            raise BrokenArchive(f"line {number}: {exc}") from None
        if kind == "campaign":
            return self._campaign(number, raw)
        if self.header is None:
            raise BrokenArchive(f"line {number}: the campaign header must be the first line")
        if kind == "campaign_end":
            if self._section is not None:
                raise BrokenArchive(f"line {number}: a section ends before its end line")
            self.end = _decoded(_end, number, raw)
            return None
        if kind == "encounter":
            return self._open(number, raw)
        if self._section is None:
            raise BrokenArchive(f"line {number}: a {kind} line outside any section")
        line = self._in_section(number, raw)
        if self._section.end is not None:
            header, end = self._section.finish()
            finished = FinishedSection(header, end, self._section)
            self.heads.append(
                SectionHead(
                    stream_id=header.encounter_id, version=header.version, last_hash=end.last_hash
                )
            )
            self._section = None
            return finished
        return line

    def finish(self) -> tuple[CampaignArchiveHeader, CampaignArchiveEnd]:
        if self.header is None:
            raise BrokenArchive("the archive is empty")
        if self._section is not None or self.end is None:
            raise BrokenArchive("the archive has no end line: it was cut off")
        if self._expected or self.end.streams != len(self.heads):
            raise BrokenArchive(
                f"the archive announces {self.end.streams} streams and"
                f" {1 + len(self.header.encounters)} in its header but holds {len(self.heads)}"
            )
        return self.header, self.end

    def _campaign(self, number: int, raw: bytes) -> CampaignArchiveHeader:
        if self.header is not None or number != 1:
            raise BrokenArchive(f"line {number}: the campaign header must be the first line")
        header = _decoded(_header, number, raw)
        if header.format != ARCHIVE_FORMAT:
            raise BrokenArchive(f"line {number}: unknown archive format {header.format}")
        if len(set(header.encounters)) != len(header.encounters) or (
            header.campaign_id in header.encounters
        ):
            raise BrokenArchive(f"line {number}: the header lists a stream twice")
        self.header = header
        self._expected = [header.campaign_id, *header.encounters]
        return header

    def _open(self, number: int, raw: bytes) -> ArchiveHeader:
        if self._section is not None:
            raise BrokenArchive(f"line {number}: a section begins before the last one ended")
        self._section = ArchiveReader()
        header = self._in_section(number, raw)
        assert isinstance(header, ArchiveHeader)
        if not self._expected or self._expected[0] != header.encounter_id:
            expected = self._expected[0] if self._expected else "no further stream"
            raise BrokenArchive(
                f"line {number}: a section of {header.encounter_id}, where the header lists"
                f" {expected}"
            )
        self._expected.pop(0)
        return header

    def _in_section(self, number: int, raw: bytes) -> ArchiveHeader | ArchivedEvent | None:
        assert self._section is not None
        try:
            return self._section.feed(raw)
        except BrokenArchive as exc:
            stream = self._section.header.encounter_id if self._section.header else "a stream"
            raise BrokenArchive(f"line {number}, in the section of {stream}: {exc}") from None


def _decoded(decoder: msgspec.json.Decoder[_T], number: int, raw: bytes) -> _T:
    try:
        return decoder.decode(raw)
    except msgspec.DecodeError as exc:  # malformed, or not a line of the format
        raise BrokenArchive(f"line {number}: {exc}") from None


_STRENGTH: dict[Attestation, int] = {"unattested": 0, "trusted-service": 1, "this-service": 2}


def weaker(a: Attestation, b: Attestation) -> Attestation:
    """The less of two attestations: a stream is vouched for only as far as both its own
    section and the set it came in are."""
    return a if _STRENGTH[a] <= _STRENGTH[b] else b


def set_attestation(
    header: CampaignArchiveHeader,
    end: CampaignArchiveEnd,
    heads: Sequence[SectionHead],
    keys: ChainKeys,
) -> Attestation:
    """Who vouches for the set of sections, as an encounter archive's attestation: a
    signature under this service's key or a trusted one; one that names such a key and
    does not hold is a changed archive, refused."""
    message = campaign_message(header.campaign_id, header.seeds, heads)
    try:
        return attestation_under(keys, end.signed_by, end.signature, message)
    except ForgedSignature:
        raise BrokenArchive(
            "the campaign archive's signature names a chain key this service knows but"
            " does not hold: the archive was changed after it was exported"
        ) from None
