"""Health values in the hash chain (events/committed_health.py): the link is the same
from the GM's data and from any player's view of it, the hash tells nothing of the
values, an altered value is caught by whoever holds the salts, and events written before
commitments (the golden sample, hashed by the code that wrote them) verify unchanged."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from hypothesis import given
from hypothesis import strategies as st

from events.committed_health import COMMITMENTS, SALTS, commit, hashed_form, value_at
from events.hashing import commitment_fault, event_hash, link_fault, seal_commitment
from service.health_seal import with_committed_health
from service.registry import get_ruleset

STREAM = UUID("6f1c2a4e-0000-4000-8000-000000000033")
AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
METADATA = {"actor": {"role": "gm"}, "command_id": "c1", "roll_source": "manual"}
GENESIS = "0" * 64


@dataclass(frozen=True)
class Link:
    stream_version: int
    type: str
    data: dict[str, Any]
    prev_hash: str
    hash: str
    type_version: int = 1
    metadata: dict[str, Any] = field(default_factory=lambda: dict(METADATA))
    recorded_at: datetime = AT


def _hash(prev: str, version: int, event_type: str, data: dict[str, Any]) -> str:
    return event_hash(prev, stream_id=STREAM, stream_version=version, type=event_type,
                      type_version=1, data=data, metadata=METADATA, recorded_at=AT)  # fmt: skip


def _fault(link: Link, prev: str) -> str | None:
    return link_fault(link, stream_id=STREAM, prev=prev, expected_version=link.stream_version)


# Written by the chain code before health commitments (events/hashing.py at d7453e0).
OLD_DAMAGED = {"target": "grak", "amount": 4, "hp_after": 909, "max_hp": 913}
OLD_DAMAGED_HASH = "0e5e265eb08fa49942789bdcd372be57cf66ec9e7fa427f18fe1843097037bb3"
OLD_INNER = [{"type": "generic.damaged", "type_version": 1,
              "data": {"target": "grak", "amount": 3, "hp_after": 906, "max_hp": 913}}]  # fmt: skip
OLD_SEALED = {"seal_id": "s1", "command_type": "generic.damage", "shown": {"target": "grak"},
              "hidden": True, "taints": True, "waits_for": ["s1"],
              "commitment": "6e96b9737ad11038031d37f71f0ce8d6e567ec68870193366ef80d080f155f76",
              "salt": "11" * 32, "events": OLD_INNER}  # fmt: skip
OLD_SEALED_HASH = "4ffb84e06e7f1f1a43cabd5a172ea887a75e85eae41e6f10f498b0207361cf25"


def test_events_from_before_commitments_verify_as_they_were_hashed() -> None:
    damaged = Link(1, "generic.damaged", OLD_DAMAGED, GENESIS, OLD_DAMAGED_HASH)
    sealed = Link(2, "encounter.sealed", OLD_SEALED, OLD_DAMAGED_HASH, OLD_SEALED_HASH)
    assert _fault(damaged, GENESIS) is None
    assert _fault(sealed, OLD_DAMAGED_HASH) is None
    assert seal_commitment(OLD_SEALED["salt"], OLD_INNER) == OLD_SEALED["commitment"]
    # Still tamper-evident: the old form hashes the values themselves.
    edited = Link(1, "generic.damaged", {**OLD_DAMAGED, "hp_after": 910}, GENESIS, OLD_DAMAGED_HASH)
    assert _fault(edited, GENESIS) == "content does not match its hash (altered)"


def _damaged(hp_after: int) -> dict[str, Any]:
    generic = get_ruleset("generic")
    data = {"target": "grak", "amount": 4, "hp_after": hp_after}
    return with_committed_health(generic, "generic.damaged", data)


def test_every_health_value_is_committed_with_a_salt_of_its_own() -> None:
    data = _damaged(909)
    assert set(data[COMMITMENTS]) == set(data[SALTS]) == {"/hp_after"}
    assert len(bytes.fromhex(data[SALTS]["/hp_after"])) >= 16
    assert data[SALTS] != _damaged(909)[SALTS]  # fresh each time
    assert commitment_fault("generic.damaged", data) is None
    aeonis = get_ruleset("aeonis")
    units = {"side": "red", "units": [{"id": "u1", "hp": 5}, {"id": "u2", "hp": 7}]}
    stored = with_committed_health(aeonis, "aeonis.units_added", units)
    assert set(stored[SALTS]) == {"/units/0/hp", "/units/1/hp"}
    assert len(set(stored[SALTS].values())) == 2


def test_nested_health_values_are_committed_by_pointer() -> None:
    untold = get_ruleset("untold-aeons")
    data = {"struck": "mara", "damage_after": 3,
            "hits": [{"taken": 2, "reduction": 1}, {"taken": 1, "reduction": 1}]}  # fmt: skip
    stored = with_committed_health(untold, "untold-aeons.attack_resolved", data)
    assert set(stored[COMMITMENTS]) == {
        "/damage_after", "/hits/0/taken", "/hits/0/reduction", "/hits/1/taken", "/hits/1/reduction"
    }  # fmt: skip
    assert value_at(stored, "/hits/1/taken") == (True, 1)
    assert hashed_form(stored) == {"struck": "mara", "hits": [{}, {}],
                                   COMMITMENTS: stored[COMMITMENTS]}  # fmt: skip


def test_an_event_without_health_is_stored_as_it_was() -> None:
    generic = get_ruleset("generic")
    data = {"combatant": "grak", "label": "Morale"}
    assert with_committed_health(generic, "generic.checked", data) is data


@given(st.integers(-1000, 1000), st.booleans())
def test_a_player_recomputes_the_link_from_any_view(hp_after: int, hidden: bool) -> None:
    """Whatever a reader was shown of the values (the number or nothing), without the salts the
    link is the one the GM's data gives."""
    stored = _damaged(hp_after)
    digest = _hash(GENESIS, 1, "generic.damaged", stored)
    view = {k: v for k, v in stored.items() if k != SALTS}
    if hidden:
        view = {k: v for k, v in view.items() if k != "hp_after"}
    assert _fault(Link(1, "generic.damaged", view, GENESIS, digest), GENESIS) is None


@given(st.integers(-1000, 1000))
def test_the_hash_does_not_depend_on_the_values(hp_after: int) -> None:
    """The oracle closed: two events equal but for hp_after and their commitments hash
    alike once the commitments are the same, so a guess of hp_after against the hash
    tests nothing; only the commitment binds it, under a salt the player lacks."""
    stored = _damaged(909)
    other = {**stored, "hp_after": hp_after}
    same = _hash(GENESIS, 1, "generic.damaged", stored)
    assert _hash(GENESIS, 1, "generic.damaged", other) == same
    if hp_after != 909:
        assert commitment_fault("generic.damaged", other) == (
            "committed value at /hp_after does not match its commitment (altered)"
        )


def test_a_salt_or_commitment_out_of_step_is_caught() -> None:
    stored = _damaged(909)
    dropped = {**stored, SALTS: {}}
    assert commitment_fault("generic.damaged", dropped) == (
        "salts and commitments do not match (altered)"
    )


def test_an_opened_envelopes_commitment_is_checked_from_a_players_view() -> None:
    inner = [{"type": "generic.damaged", "type_version": 1, "data": _damaged(906)}]
    salt = "22" * 32
    envelope = {**OLD_SEALED, "salt": salt, "events": inner,
                "commitment": seal_commitment(salt, inner)}  # fmt: skip
    assert commitment_fault("encounter.sealed", envelope) is None
    hidden = {k: v for k, v in inner[0]["data"].items() if k not in (SALTS, "hp_after")}
    seen = {**envelope, "events": [{**inner[0], "data": hidden}]}
    assert commitment_fault("encounter.sealed", seen) is None
    altered = {**inner[0]["data"], "hp_after": 1}
    forged = {**envelope, "events": [{**inner[0], "data": altered}]}
    assert commitment_fault("encounter.sealed", forged) == (
        "committed value at /hp_after does not match its commitment (altered)"
    )


def test_commit_skips_a_pointer_with_nothing_there() -> None:
    assert commit({"a": 1}, ["/b"]) == {"a": 1}
