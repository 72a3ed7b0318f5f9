"""Preparing a command's write (service/write/prepare.py), with no database: the metadata and
hash chain of the append, the snapshots due, the answer and what else the statement
stores."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import msgspec

from events.envelope import GENESIS_HASH
from events.store import StreamHead
from events.write import Idempotency
from projections.inline import read_model_rows
from projections.rows import ReadModelRows
from service.applied import AppliedEvent, applied_steps
from service.codec import EventCodec
from service.commands import Actor, CommandResult
from service.encounter import Encounter
from service.registry import codec_for
from service.rulesets.generic.events import CombatantAdded
from service.write.opening import created, opening
from service.write.prepare import (
    Decision,
    Draft,
    WritePolicy,
    assemble,
    command_metadata,
    keyed,
    stage,
)

AT = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
CODEC = codec_for("generic")
ACTOR = Actor(role="gm", token_id="t1", correlation_id=None)


def _policy(every: int = 100, key: bytes | None = None) -> WritePolicy:
    return WritePolicy(read_model_rows, every, key, lambda: AT)


def _draft(
    encounter_id: UUID,
    decision: Decision,
    *,
    encounter: Encounter[Any] | None = None,
    head: StreamHead = StreamHead(version=0, last_hash=GENESIS_HASH),
    actor: Actor = ACTOR,
    extra: dict[str, Any] | None = None,
    respond: Any = None,
    key: Any = None,
) -> Draft:
    return Draft(CODEC, encounter_id, encounter, head, decision, actor, extra, respond, key)


def _opened(encounter_id: UUID, every: int = 100) -> tuple[Any, Encounter[Any]]:
    decision, respond = opening(_created(), "client", encounter_id)
    draft = _draft(encounter_id, decision, respond=respond)
    prepared, recorded = stage(draft, lambda: AT)
    applied = applied_steps(CODEC.ruleset, None, recorded, decision.events)
    write, final = assemble(draft, _policy(every), prepared, recorded, applied)
    return write, final


def _created() -> Any:
    return created("generic", "Bridge", {}, False, "descriptor")


def test_stage_numbers_chains_and_stamps_the_events() -> None:
    encounter_id = uuid4()
    decision, _ = opening(_created(), "client", encounter_id)
    extra = command_metadata("generic.add_combatant", None)
    prepared, recorded = stage(_draft(encounter_id, decision, extra=extra), lambda: AT)
    assert prepared.versions == [1, 2]
    assert [e.stream_version for e in recorded] == [1, 2]
    assert [e.global_position for e in recorded] == [0, 0]
    assert recorded[0].prev_hash == GENESIS_HASH
    assert recorded[1].prev_hash == recorded[0].hash
    assert {e.recorded_at for e in recorded} == {AT}
    metadata = recorded[0].metadata
    assert metadata["actor"] == {"role": "gm", "token_id": "t1", "correlation_id": None}
    assert metadata["causation_id"] == metadata["command_id"]
    assert metadata["correlation_id"] == metadata["command_id"]
    assert metadata["roll_source"] is None
    assert metadata["command_type"] == "generic.add_combatant"
    assert "idempotency_key" not in metadata  # None values are left out
    assert recorded[1].metadata == metadata


def test_a_correlation_id_is_kept_and_each_command_gets_its_own_id() -> None:
    encounter_id = uuid4()
    decision, _ = opening(_created(), None, encounter_id)
    actor = Actor(role="service", correlation_id="req-7")
    first, _ = stage(_draft(encounter_id, decision, actor=actor), lambda: AT)
    second, _ = stage(_draft(encounter_id, decision, actor=actor), lambda: AT)
    assert first.metadata["correlation_id"] == "req-7"
    assert first.metadata["command_id"] != second.metadata["command_id"]


def test_assemble_answers_with_the_state_after_and_keeps_the_seed_and_token() -> None:
    encounter_id = uuid4()
    write, final = _opened(encounter_id)
    assert final.version == 2 and final.name == "Bridge"
    assert write.seed is not None and write.seed.epoch == 1
    assert write.token_id == "t1"
    assert write.idempotency is None
    assert write.head_signature is None  # no chain key
    assert write.snapshots == []
    assert write.rows.state.version == 2
    answer = msgspec.json.decode(write.answer.with_positions([41, 42]))
    assert answer["encounter_id"] == str(encounter_id)
    assert answer["version"] == 2
    assert answer["dice_commitment"] == write.seed.commitment
    assert [e["global_position"] for e in answer["events"]] == [41, 42]
    assert [e["stream_version"] for e in answer["events"]] == [1, 2]


def test_snapshots_are_due_at_multiples_of_the_policy_and_heads_signed_with_a_key() -> None:
    encounter_id = uuid4()
    write, encounter = _opened(encounter_id)
    head = write.append.new_head
    adds = tuple(
        CombatantAdded(combatant=i, name=i, hp=5, max_hp=5, stats={"ac": 1})
        for i in ("a", "b", "c")
    )
    decision = Decision(events=adds)
    key = keyed(encounter_id, "k1", "hash")

    def respond(enc: Encounter[Any]) -> CommandResult:
        return CommandResult(encounter_id=encounter_id, version=enc.version, events=[])

    draft = _draft(
        encounter_id,
        decision,
        encounter=encounter,
        head=head,
        respond=lambda enc: CommandResult(
            encounter_id=encounter_id, version=enc.version, events=[]
        ),
        key=key,
    )
    prepared, recorded = stage(draft, lambda: AT)
    applied = applied_steps(CODEC.ruleset, encounter, recorded, decision.events)
    write, final = assemble(draft, _policy(every=2, key=b"k" * 32), prepared, recorded, applied)
    assert final.version == 5
    assert [s.version for s in write.snapshots] == [4]
    (snapshot,) = write.snapshots
    assert msgspec.json.decode(snapshot.state_json)["version"] == 4
    assert write.idempotency == Idempotency(encounter_id, "k1", "hash")
    assert write.head_signature is not None
    assert keyed(encounter_id, None, "hash") is None


def test_the_projector_gets_every_folded_step() -> None:
    seen: list[Sequence[AppliedEvent]] = []

    def projector(codec: EventCodec, applied: Sequence[AppliedEvent]) -> ReadModelRows:
        seen.append(applied)
        return read_model_rows(codec, applied)

    encounter_id = uuid4()
    decision, respond = opening(_created(), "client", encounter_id)
    draft = _draft(encounter_id, decision, respond=respond)
    prepared, recorded = stage(draft, lambda: AT)
    applied = applied_steps(CODEC.ruleset, None, recorded, decision.events)
    policy = WritePolicy(projector, 100, None, lambda: AT)
    assemble(draft, policy, prepared, recorded, applied)
    (steps,) = seen
    assert [step.after.version for step in steps] == [1, 2]
    assert steps[0].before is None
