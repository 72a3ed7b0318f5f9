"""The bestiary in a campaign's hash chain (service/campaigns/hidden.py): the write commits
a statblock's sheet and notation and a monster copy's rolled hit points and rolls under
salts, so the hashed form is the same from the GM's data and from a player's, two worlds
whose bestiaries differ only in those numbers read the same but for the (salted)
commitments, an altered value is caught by whoever holds the salts, and an event written
before commitments hashes as it always did."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from events.committed_health import COMMITMENTS, SALTS, hashed_form
from events.envelope import RecordedEvent
from events.hashing import commitment_fault, event_hash, public_form
from projections.campaign_seen import as_players_saw
from service.campaigns import events as ev
from service.campaigns.commands import MonsterPick, StartEncounter
from service.campaigns.stored import stored
from service.campaigns.typed import plain
from service.rulesets.generic.commands import AddCombatant
from service.write.campaigns import committed
from tests.support.values import strings_in
from tests.unit.campaigns.party import FIRST, PREPARED
from tests.unit.campaigns.steps import given

STREAM = UUID("6f1c2a4e-0000-4000-8000-000000000044")
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
METADATA = {"actor": {"role": "gm"}, "command_id": "c1"}


def _link(prev: str, version: int, kind: str, data: dict[str, Any]) -> str:
    return event_hash(
        prev,
        stream_id=STREAM,
        stream_version=version,
        type=kind,
        type_version=1,
        data=data,
        metadata=METADATA,
        recorded_at=AT,
    )


def _world(hp: int, notation: str, faces: list[list[int]]) -> list[RecordedEvent]:
    """A party, a goblin statblock (``hp``, ``notation``) and an encounter with two goblins
    rolled on ``faces``, stored as the write stores them."""
    goblin = AddCombatant(id="goblin", name="Goblin", hp=hp, stats={"ac": 13})
    prepared = (
        *PREPARED[:3],
        ev.StatblockAdded(
            statblock="goblin", name="Goblin", sheet=plain(goblin), hit_points=notation
        ),
    )
    start = StartEncounter(
        encounter=FIRST,
        name="Ambush at the ford",
        members=("aria",),
        monsters=(MonsterPick(statblock="goblin", count=2, hit_points="rolled"),),
    )
    (started,) = given(*prepared).when(start, manual=faces).events
    out, prev = [], "0" * 64
    for version, event in enumerate((*prepared, started), start=1):
        new = committed(stored(event))
        link = _link(prev, version, new.type, new.data)
        out.append(
            RecordedEvent(
                global_position=version,
                stream_id=STREAM,
                stream_version=version,
                type=new.type,
                type_version=1,
                data=new.data,
                metadata=METADATA,
                recorded_at=AT,
                prev_hash=prev,
                hash=link,
            )
        )
        prev = link
    return out


def _blind(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with each commitment's value left out, its pointer kept: what two worlds
    may differ by (a fresh salt each) and no more."""
    if COMMITMENTS not in data:
        return data
    return {**data, COMMITMENTS: sorted(data[COMMITMENTS])}


SEVEN = _world(7, "2d6", [[3, 4], [1, 1]])
NINE = _world(9, "3d4", [[1, 2, 3], [4, 4, 4]])


def test_the_hidden_numbers_are_committed_and_the_gm_holds_the_salts() -> None:
    added, started = SEVEN[3].data, SEVEN[4].data
    assert set(added[COMMITMENTS]) == set(added[SALTS]) == {"/sheet", "/hit_points"}
    assert started["monsters"][0]["hit_points"] == 7 and started["rolls"]
    pointers = {"/monsters/0/hit_points", "/monsters/1/hit_points", "/rolls"}
    assert set(started[COMMITMENTS]) == set(started[SALTS]) == pointers
    assert [COMMITMENTS in e.data for e in SEVEN] == [False, False, False, True, True]
    assert all(commitment_fault(e.type, e.data) is None for e in SEVEN)


def test_the_hashed_form_is_the_same_from_the_gms_data_and_the_players() -> None:
    for gm, player in zip(SEVEN, as_players_saw(SEVEN), strict=True):
        assert SALTS not in player.data
        assert public_form(player.type, player.data) == public_form(gm.type, gm.data)
        relinked = _link(player.prev_hash, player.stream_version, player.type, player.data)
        assert relinked == player.hash
    assert "2d6" not in strings_in([e.data for e in as_players_saw(SEVEN)])


def test_two_bestiaries_differing_in_hidden_numbers_read_the_same_to_players() -> None:
    assert [e.data for e in SEVEN] != [e.data for e in NINE]  # the worlds do differ
    seven = [_blind(e.data) for e in as_players_saw(SEVEN)]
    nine = [_blind(e.data) for e in as_players_saw(NINE)]
    assert seven == nine
    assert [hashed_form(d) for d in seven] == [hashed_form(d) for d in nine]


def test_an_altered_value_is_caught_by_whoever_holds_the_salts() -> None:
    added = SEVEN[3].data
    altered = {**added, "sheet": {**added["sheet"], "hp": 70}}
    assert commitment_fault("campaign.statblock_added", altered) == (
        "committed value at /sheet does not match its commitment (altered)"
    )
    started = SEVEN[4].data
    monsters = [{**started["monsters"][0], "hit_points": 12}, started["monsters"][1]]
    fault = commitment_fault("campaign.encounter_started", {**started, "monsters": monsters})
    assert (
        fault == "committed value at /monsters/0/hit_points does not match its commitment (altered)"
    )


# Written by the chain code before the bestiary was committed (events/hashing.py at 4c3bc28).
GOBLIN_SHEET = {"type": "generic.add_combatant", "id": "goblin", "name": "Goblin", "hp": 7}
OLD_ADDED = {"statblock": "goblin", "name": "Goblin", "hit_points": "2d6", "sheet": GOBLIN_SHEET}
OLD_ADDED_HASH = "2d512831e96d3aa80a244bd78502eb6784549054996e88900ea0f6aa1f1d0078"


def test_a_statblock_added_before_commitments_hashes_as_it_was() -> None:
    assert hashed_form(OLD_ADDED) == OLD_ADDED
    link = _link("0" * 64, 4, "campaign.statblock_added", OLD_ADDED)
    assert link == OLD_ADDED_HASH
