"""What a request may carry and what answering it appends (service/requests.py), decided
from plain data with generic's rules."""

from __future__ import annotations

import msgspec
import pytest

from service.authorize import Forbidden
from service.commands import CommandEnvelope
from service.encounter import Encounter, evolve
from service.registry import codec_for
from service.requests import (
    RequestLimits,
    RequestTooLarge,
    TooManyRequests,
    amendment,
    approved_envelope,
    clearance,
    request_made,
)
from service.rulesets.generic import RULESET
from service.rulesets.generic import commands as c
from tests.unit.deciders import fold
from tests.unit.generic.fixtures import everyone_in_combat

CODEC = codec_for("generic")
LANTERN = c.Attack(attacker="alice", target="goblin", notation="1d20+900", damage="1d8+900")
LIMITS = RequestLimits(per_token=2, max_bytes=1024)


def table(*, allow_player_dice: bool = False) -> Encounter:  # type: ignore[type-arg]
    game = fold(RULESET, everyone_in_combat())
    return Encounter(game=game, allow_player_dice=allow_player_dice)


def ask(
    encounter: Encounter,  # type: ignore[type-arg]
    command: object = LANTERN,
    *,
    dice: list[list[int]] | None = None,
    token: str = "t1",
) -> Encounter:  # type: ignore[type-arg]
    envelope = CommandEnvelope(command=command, manual_dice=dice)  # type: ignore[arg-type]
    made = request_made(
        CODEC, encounter, envelope, None, frozenset({"alice"}), asked_by=token, limits=LIMITS
    )
    return evolve(RULESET, encounter, made)


def test_a_request_brings_player_dice_only_where_the_encounter_allows_them() -> None:
    with pytest.raises(Forbidden, match="may not enter their own dice"):
        ask(table(), dice=[[20], [8]])
    asked = ask(table(allow_player_dice=True), dice=[[20], [8]])
    assert asked.requests["q1"].manual_dice == [[20], [8]]


def test_a_request_carries_only_a_command_the_player_could_send() -> None:
    with pytest.raises(Forbidden, match="GM's to issue"):
        ask(table(), c.Heal(target="alice", amount=20))
    with pytest.raises(Forbidden, match="act only for alice, not for bob"):
        ask(table(), msgspec.structs.replace(LANTERN, attacker="bob"))


def test_waiting_requests_are_capped_per_token_and_in_size() -> None:
    encounter = ask(ask(table()))
    with pytest.raises(TooManyRequests, match="already has 2 requests waiting"):
        ask(encounter)
    assert "q3" in ask(encounter, token="t2").requests  # another token still asks
    with pytest.raises(RequestTooLarge, match="1024 bytes"):
        ask(table(allow_player_dice=True), dice=[[6] * 300, [6] * 300])


def test_approving_applies_the_amended_request_and_clearing_refuses_a_tokens_requests() -> None:
    encounter = ask(ask(table()), token="t2")
    humbler = msgspec.structs.replace(LANTERN, notation="1d20+2", damage="1d4")
    amended = amendment(CODEC, encounter, "q1", CommandEnvelope(command=humbler), LIMITS)
    encounter = evolve(RULESET, encounter, amended)
    assert approved_envelope(CODEC, encounter, "q1", None).command == humbler
    assert [r.request_id for r in clearance(encounter, "later", "t2")] == ["q2"]
    assert [r.request_id for r in clearance(encounter, "later")] == ["q1", "q2"]
