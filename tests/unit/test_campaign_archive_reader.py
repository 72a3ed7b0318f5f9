"""The campaign archive's reader refuses what binds the sections wrongly (order, a stream
listed twice or not at all, lines outside a section), and a rehomed stream keeps a chain
that holds under its new id."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from events.archive import ArchivedEvent, BrokenArchive
from events.archive_rehoming import Rehoming
from events.campaign_archive_reading import CampaignArchiveReader, weaker
from events.envelope import GENESIS_HASH
from events.hashing import event_hash, link_fault

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _event(stream: uuid.UUID, version: int, prev: str, type: str, data: dict[str, Any]) -> Any:
    line = {
        "kind": "event",
        "stream_version": version,
        "type": type,
        "type_version": 1,
        "data": data,
        "metadata": {},
        "recorded_at": NOW.isoformat(),
        "prev_hash": prev,
    }
    line["hash"] = event_hash(
        prev,
        stream_id=stream,
        stream_version=version,
        type=type,
        type_version=1,
        data=data,
        metadata={},
        recorded_at=NOW,
    )
    return line


def _section(stream: uuid.UUID, type: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    event = _event(stream, 1, GENESIS_HASH, type, data)
    header = {
        "kind": "encounter",
        "format": 1,
        "encounter_id": str(stream),
        "ruleset": "generic",
        "version": 1,
        "last_hash": event["hash"],
        "exported_at": NOW.isoformat(),
        "seeds": "revealed",
    }
    return [header, event, {"kind": "end", "events": 1, "last_hash": event["hash"]}]


def _archive(campaign: uuid.UUID, listed: list[uuid.UUID], sections: list[Any]) -> list[bytes]:
    header = {
        "kind": "campaign",
        "format": 1,
        "campaign_id": str(campaign),
        "ruleset": "generic",
        "exported_at": NOW.isoformat(),
        "seeds": "revealed",
        "encounters": [str(e) for e in listed],
    }
    lines = [header, *(line for section in sections for line in section)]
    lines.append({"kind": "campaign_end", "streams": len(sections)})
    return [msgspec.json.encode(line) for line in lines]


def _read(lines: list[bytes]) -> CampaignArchiveReader:
    reader = CampaignArchiveReader()
    for line in lines:
        reader.feed(line)
    reader.finish()
    return reader


def test_a_whole_archive_reads_and_names_every_head() -> None:
    campaign, one = uuid.uuid4(), uuid.uuid4()
    created = {"name": "Ashes", "ruleset": "generic", "options": {}}
    encounter = {"ruleset": "generic", "campaign": str(campaign)}
    sections = [
        _section(campaign, "campaign.created", created),
        _section(one, "encounter.created", encounter),
    ]
    reader = _read(_archive(campaign, [one], sections))
    assert [h.stream_id for h in reader.heads] == [campaign, one]


@pytest.mark.parametrize("fault", ["order", "missing", "twice", "extra"])
def test_sections_that_do_not_match_the_header_are_refused(fault: str) -> None:
    campaign, one, two = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    mine = _section(campaign, "campaign.created", {})
    first, second = _section(one, "encounter.created", {}), _section(two, "encounter.created", {})
    listed, sections = {
        "order": ([one, two], [mine, second, first]),
        "missing": ([one, two], [mine, first]),
        "twice": ([one, one], [mine, first, first]),
        "extra": ([one], [mine, first, second]),
    }[fault]
    with pytest.raises(BrokenArchive):
        _read(_archive(campaign, listed, sections))


def test_a_cut_section_is_refused() -> None:
    campaign = uuid.uuid4()
    lines = _archive(campaign, [], [_section(campaign, "campaign.created", {})])
    with pytest.raises(BrokenArchive, match="cut off"):
        _read(lines[:-2])


def test_rehoming_rewrites_links_and_keeps_a_chain_that_holds() -> None:
    campaign, one = uuid.uuid4(), uuid.uuid4()
    ids = {campaign: uuid.uuid4(), one: uuid.uuid4()}
    started = _event(
        campaign, 1, GENESIS_HASH, "campaign.encounter_started", {"encounter": str(one)}
    )
    rehoming = Rehoming(campaign, ids)
    rehomed = rehoming.event(msgspec.convert(started, ArchivedEvent))
    assert rehomed.data["encounter"] == str(ids[one])
    assert (
        link_fault(rehomed, stream_id=ids[campaign], prev=GENESIS_HASH, expected_version=1) is None
    )
    stranger = _event(
        campaign, 2, rehomed.hash, "campaign.encounter_closed", {"encounter": str(uuid.uuid4())}
    )
    with pytest.raises(BrokenArchive, match="does not hold"):
        rehoming.event(msgspec.convert(stranger, ArchivedEvent))


def test_a_stream_is_attested_only_as_far_as_its_set() -> None:
    assert weaker("this-service", "unattested") == "unattested"
    assert weaker("trusted-service", "this-service") == "trusted-service"
    assert weaker("this-service", "this-service") == "this-service"
