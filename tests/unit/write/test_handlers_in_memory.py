"""Handlers run through the unit of work with an in-memory store (tests/support/in_memory.py):
what a command appends and answers, and what a refused one leaves, without PostgreSQL.
The same commands against PostgreSQL are tests/integration/test_pipeline.py's."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
import pytest

from events.errors import IdempotencyKeyReused, VersionConflict
from service.authorize import Forbidden
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Attack
from service.rulesets.generic.state import SheetAttack
from service.write.commands import AnswerRequest, MakeRequest, RevealSeed, RulesetCommand
from service.write.opening import created
from service.write.pipeline import CREATE_NAMESPACE
from service.write.unit_of_work import Terms
from tests.support.in_memory import InMemoryUnitOfWork

GM = Terms(Actor(role="gm"))
PLAYER = Terms(Actor(role="player", token_id="p1"))
FIGHTER = frozenset({"fighter"})
ATTACK = Attack(attacker="fighter", target="ogre", using="sword")
SWORD = {"sword": SheetAttack(notation="1d20+5", damage="1d8")}


async def _table(uow: InMemoryUnitOfWork) -> UUID:
    first = created("generic", "Bridge", {}, False, "descriptor")
    opened = await uow.open(first, "client", CREATE_NAMESPACE, GM)
    encounter_id = UUID(msgspec.json.decode(opened.response)["encounter_id"])
    for ident, hp in (("fighter", 30), ("ogre", 40)):
        sheet = SWORD if ident == "fighter" else {}
        add = AddCombatant(id=ident, name=ident.title(), hp=hp, stats={"ac": 12}, attacks=sheet)
        await uow.handle(encounter_id, RulesetCommand(CommandEnvelope(command=add)), GM)
    return encounter_id


def _as_player(command: Any) -> RulesetCommand:
    return RulesetCommand(CommandEnvelope(command=command), FIGHTER, "p1")


async def test_a_player_s_attack_appends_its_roll_and_answers_with_the_stored_events() -> None:
    uow = InMemoryUnitOfWork()
    encounter_id = await _table(uow)
    before = uow.state(encounter_id).head.version
    answer = msgspec.json.decode(await uow.handle(encounter_id, _as_player(ATTACK), PLAYER))
    stored = uow.streams[encounter_id][before:]
    assert [e["stream_version"] for e in answer["events"]] == [e.stream_version for e in stored]
    assert [e["global_position"] for e in answer["events"]] == [e.global_position for e in stored]
    assert stored[0].type == "generic.attack_rolled"
    assert stored[0].metadata["actor"]["token_id"] == "p1"
    assert stored[0].metadata["command_type"] == "generic.attack"
    assert stored[0].metadata["roll_source"] == "server"
    assert answer["version"] == uow.state(encounter_id).head.version > before


async def test_a_player_acting_for_another_combatant_is_refused_and_nothing_is_written() -> None:
    uow = InMemoryUnitOfWork()
    encounter_id = await _table(uow)
    written = len(uow.committed)
    swing = Attack(attacker="ogre", target="fighter", using="sword")
    with pytest.raises(Forbidden, match="may act only for fighter"):
        await uow.handle(encounter_id, _as_player(swing), PLAYER)
    assert len(uow.committed) == written


async def test_a_stale_if_match_is_a_conflict_and_a_key_replays_its_first_answer() -> None:
    uow = InMemoryUnitOfWork()
    encounter_id = await _table(uow)
    head = uow.state(encounter_id).head.version
    with pytest.raises(VersionConflict):
        await uow.handle(encounter_id, _as_player(ATTACK), PLAYER._replace(expected_version=1))
    keyed = PLAYER._replace(expected_version=head, idempotency_key="k", request_hash="h")
    first = await uow.handle(encounter_id, _as_player(ATTACK), keyed)
    again = await uow.handle(encounter_id, _as_player(ATTACK), keyed)
    assert again == first and len(uow.committed) == 4  # opening, two adds, one attack
    with pytest.raises(IdempotencyKeyReused):
        await uow.handle(encounter_id, _as_player(ATTACK), keyed._replace(request_hash="x"))


async def test_revealing_the_seed_publishes_it_and_commits_to_a_new_epoch() -> None:
    uow = InMemoryUnitOfWork()
    encounter_id = await _table(uow)
    seed = uow.seeds.get((encounter_id, 1))
    assert seed is not None
    await uow.handle(encounter_id, RevealSeed(next_client_seed="next"), GM)
    revealed, committed = uow.streams[encounter_id][-2:]
    assert revealed.type == "dice.seed_revealed" and revealed.data["seed"] == seed.hex()
    assert committed.type == "dice.seed_committed" and committed.data["epoch"] == 2
    dice = uow.state(encounter_id).encounter.dice
    assert dice.epoch == 2 and dice.client_seed == "next"


async def test_a_request_approved_by_the_gm_is_decided_then_as_the_gm_s() -> None:
    uow = InMemoryUnitOfWork()
    encounter_id = await _table(uow)
    envelope = CommandEnvelope(command=ATTACK)
    ask = MakeRequest(envelope, "may I?", FIGHTER, "p1", RulesetCommand(envelope).limits)
    asked = msgspec.json.decode(await uow.handle(encounter_id, ask, PLAYER))
    (made,) = asked["events"]
    request_id = made["data"]["request_id"]
    assert uow.state(encounter_id).encounter.requests
    await uow.handle(encounter_id, AnswerRequest(request_id, None, None), GM)
    last = uow.streams[encounter_id][-1]
    assert last.type == "encounter.request_answered" and last.data["approved"] is True
    assert uow.streams[encounter_id][-2].metadata["actor"]["role"] == "gm"
    assert not uow.state(encounter_id).encounter.requests
