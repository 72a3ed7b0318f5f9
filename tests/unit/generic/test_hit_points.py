"""Damage and healing: fixed or rolled amounts, the 0 floor, the max_hp ceiling, down."""

from __future__ import annotations

import pytest

from service.dice.model import DiceError
from service.rulesets.generic.commands import Damage, Heal
from service.rulesets.generic.events import ConditionAdded, ConditionRemoved, Damaged, Healed
from service.rulesets.generic.options import GenericOptions
from tests.unit.deciders import given
from tests.unit.generic.fixtures import RULESET, alice, goblin, rolls_of, without_rolls

HURT = Damaged(target="alice", amount=9, hp_after=3)
DOWN = (
    Damaged(target="alice", amount=12, hp_after=0),
    ConditionAdded(combatant="alice", condition="down"),
)


def test_fixed_damage_with_a_source() -> None:
    given(RULESET, goblin()).when(Damage(target="goblin", amount=3, source="fire")).then(
        Damaged(target="goblin", amount=3, hp_after=4, source="fire")
    )


def test_rolled_damage_is_a_gm_roll() -> None:
    events = given(RULESET, goblin()).when(Damage(target="goblin", notation="2d6"), [[2, 3]]).events
    assert without_rolls(events) == [Damaged(target="goblin", amount=5, hp_after=2, rolls=())]
    assert rolls_of(events) == [("r1", None, "damage to Goblin", [2, 3], 5, None, None)]


def test_damage_to_0_adds_down_once() -> None:
    given(RULESET, goblin()).when(Damage(target="goblin", amount=50)).then(
        Damaged(target="goblin", amount=50, hp_after=0),
        ConditionAdded(combatant="goblin", condition="down"),
    )
    given(RULESET, alice(), *DOWN).when(Damage(target="alice", amount=4)).then(
        Damaged(target="alice", amount=4, hp_after=0)
    )


def test_custom_down_condition() -> None:
    options = GenericOptions(down_condition="unconscious")
    given(RULESET, goblin(), options=options).when(Damage(target="goblin", amount=7)).then(
        Damaged(target="goblin", amount=7, hp_after=0),
        ConditionAdded(combatant="goblin", condition="unconscious"),
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Damage(target="goblin"), "give an amount or a notation for the damage$"),
        (Damage(target="goblin", amount=1, notation="1d4"), "not both"),
        (Damage(target="goblin", amount=-2), r"damage amount cannot be negative \(-2\)"),
        (Damage(target="orc", amount=2), "no combatant with id 'orc'"),
        (Damage(target="goblin", amount=2, source=""), "damage source cannot be empty"),
    ],
)
def test_damage_refusals(command: Damage, message: str) -> None:
    given(RULESET, goblin()).when(command).rejected(match=message)


def test_bad_notation_is_a_dice_error() -> None:
    with pytest.raises(DiceError):
        given(RULESET, goblin()).when(Damage(target="goblin", notation="2x6")).events


def test_healing_is_capped_at_max_hp() -> None:
    given(RULESET, alice(), HURT).when(Heal(target="alice", amount=20, source="potion")).then(
        Healed(target="alice", amount=20, hp_after=12, source="potion")
    )


def test_rolled_healing() -> None:
    events = (
        given(RULESET, alice(), HURT).when(Heal(target="alice", notation="2d4+2"), [[1, 3]]).events
    )
    assert without_rolls(events) == [Healed(target="alice", amount=6, hp_after=9, rolls=())]
    assert rolls_of(events)[0][2] == "healing for Alice"


def test_healing_above_0_removes_down() -> None:
    given(RULESET, alice(), *DOWN).when(Heal(target="alice", amount=2)).then(
        Healed(target="alice", amount=2, hp_after=2),
        ConditionRemoved(combatant="alice", condition="down"),
    )


def test_healing_from_negative_hp_may_stay_down() -> None:
    options = GenericOptions(allow_negative_hp=True)
    deep = (
        Damaged(target="alice", amount=17, hp_after=-5),
        ConditionAdded(combatant="alice", condition="down"),
    )
    given(RULESET, alice(), *deep, options=options).when(Heal(target="alice", amount=3)).then(
        Healed(target="alice", amount=3, hp_after=-2)
    )


def test_healing_at_full_hp_is_refused() -> None:
    given(RULESET, alice()).when(Heal(target="alice", amount=1)).rejected(
        match=r"Alice is already at full hit points \(12/12\)"
    )


def test_healing_needs_exactly_one_amount() -> None:
    given(RULESET, alice(), HURT).when(Heal(target="alice")).rejected(
        match="give an amount or a notation for the healing$"
    )
