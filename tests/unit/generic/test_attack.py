"""Attacks: meet-or-beat a target number, damage on a hit, who may attack."""

from __future__ import annotations

from typing import Any

import pytest

from service.dice.model import DiceError, Modifier
from service.rulesets.generic.commands import Attack
from service.rulesets.generic.events import AttackRolled, ConditionAdded, Damaged
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import SheetAttack
from tests.unit.deciders import given
from tests.unit.generic.fixtures import (
    RULESET,
    alice,
    everyone_in_combat,
    goblin,
    rolls_of,
    without_rolls,
)

SWORD = Attack(attacker="alice", target="goblin", notation="1d20+5", damage="1d8+2")


def test_a_hit_rolls_damage_and_applies_it() -> None:
    events = given(RULESET, alice(), goblin()).when(SWORD, manual=[[14], [4]]).events
    assert without_rolls(events) == [
        AttackRolled(attacker="alice", target="goblin", outcome="hit", rolls=()),
        Damaged(target="goblin", amount=6, hp_after=1, source="Alice's attack", rolls=()),
    ]
    assert rolls_of(events) == [
        ("r1", "alice", "attack on Goblin", [14], 19, 15, "hit"),
        ("r2", "alice", "damage to Goblin", [4], 6, None, None),
    ]


def test_meeting_the_target_number_exactly_hits() -> None:
    events = given(RULESET, alice(), goblin()).when(SWORD, manual=[[10], [1]]).events
    assert events[0].outcome == "hit"  # type: ignore[union-attr]


def test_a_miss_rolls_no_damage() -> None:
    events = given(RULESET, alice(), goblin()).when(SWORD, manual=[[9]]).events
    assert without_rolls(events) == [
        AttackRolled(attacker="alice", target="goblin", outcome="miss", rolls=())
    ]
    assert rolls_of(events) == [("r1", "alice", "attack on Goblin", [9], 14, 15, "miss")]


def test_damage_to_0_hp_stops_at_0_and_downs_the_target() -> None:
    events = given(RULESET, alice(), goblin()).when(SWORD, manual=[[20], [8]]).events
    assert without_rolls(events)[1:] == [
        Damaged(target="goblin", amount=10, hp_after=0, source="Alice's attack", rolls=()),
        ConditionAdded(combatant="goblin", condition="down"),
    ]


def test_negative_hp_when_allowed() -> None:
    options = GenericOptions(allow_negative_hp=True)
    events = (
        given(RULESET, alice(), goblin(), options=options).when(SWORD, manual=[[20], [8]]).events
    )
    assert events[1].hp_after == -3  # type: ignore[union-attr]


def test_explicit_target_number_and_labelled_modifiers() -> None:
    attack = Attack(
        attacker="alice",
        target="goblin",
        notation="1d20",
        target_number=18,
        modifiers=(Modifier("bless", 2), Modifier("cover", -5)),
    )
    events = given(RULESET, alice(), goblin()).when(attack, manual=[[20]]).events
    record = events[0].rolls[0]  # type: ignore[union-attr]
    assert (record.total, record.target, record.outcome) == (17, 18, "miss")
    assert record.modifiers == (Modifier("bless", 2), Modifier("cover", -5))


def test_an_attack_without_damage_only_rolls_to_hit() -> None:
    attack = Attack(attacker="alice", target="goblin", notation="1d20")
    events = given(RULESET, alice(), goblin()).when(attack, manual=[[19]]).events
    assert [type(e) for e in events] == [AttackRolled]


def test_the_defense_stat_option_names_the_target_stat() -> None:
    options = GenericOptions(defense_stat="dex")
    attack = Attack(attacker="alice", target="goblin", notation="1d20")
    events = given(RULESET, alice(), goblin(), options=options).when(attack, manual=[[2]]).events
    assert (events[0].rolls[0].target, events[0].outcome) == (2, "hit")  # type: ignore[union-attr]


def test_a_negative_damage_roll_deals_0() -> None:
    attack = Attack(attacker="alice", target="goblin", notation="1d20", damage="1d4-2")
    events = given(RULESET, alice(), goblin()).when(attack, manual=[[20], [1]]).events
    assert events[1].amount == 0  # type: ignore[union-attr]
    assert events[1].hp_after == 7  # type: ignore[union-attr]


def test_without_a_target_number_or_defense_stat_the_attack_is_refused() -> None:
    attack = Attack(attacker="alice", target="goblin", notation="1d20")
    given(RULESET, alice(), goblin(stats={})).when(attack).rejected(
        match="needs a target number: Goblin has no 'ac' stat, so give target_number"
    )
    given(RULESET, alice(), goblin(), options=GenericOptions(defense_stat=None)).when(
        attack
    ).rejected(match="this encounter has no defense stat")


def test_a_combatant_at_0_hp_cannot_attack() -> None:
    attack = Attack(attacker="goblin", target="alice", notation="1d20")
    given(RULESET, alice(), goblin(hp=0)).when(attack).rejected(
        match="Goblin is at 0 hit points and cannot attack"
    )


def test_unknown_attacker_or_target() -> None:
    attack = Attack(attacker="alice", target="orc", notation="1d20", target_number=10)
    given(RULESET, alice()).when(attack).rejected(match="no combatant with id 'orc'")


def test_a_bad_damage_notation_is_refused_even_on_a_miss() -> None:
    attack = Attack(attacker="alice", target="goblin", notation="1d20", damage="1d8+")
    with pytest.raises(DiceError):
        given(RULESET, alice(), goblin()).when(attack, manual=[[1]]).events


def test_attacks_out_of_turn_are_allowed_by_default() -> None:
    attack = Attack(attacker="goblin", target="alice", notation="1d20")
    events = given(RULESET, *everyone_in_combat(turn="alice")).when(attack, manual=[[3]]).events
    assert events[0].outcome == "miss"  # type: ignore[union-attr]


def test_strict_turns_refuses_attacks_out_of_turn() -> None:
    options = GenericOptions(strict_turns=True)
    attack = Attack(attacker="goblin", target="alice", notation="1d20")
    given(RULESET, *everyone_in_combat(turn="alice"), options=options).when(attack).rejected(
        match="it is Alice's turn, not Goblin's"
    )
    on_turn = given(RULESET, *everyone_in_combat(turn="goblin"), options=options)
    assert rolls_of(on_turn.when(attack, manual=[[3]]).events) == [
        ("r1", "goblin", "attack on Alice", [3], 3, 14, "miss")
    ]


def _armed(**changes: Any) -> Any:
    return alice(attacks={"longsword": SheetAttack(notation="1d20+5", damage="1d8+2")}, **changes)


def test_an_attack_of_the_sheet_rolls_the_sheets_dice() -> None:
    """Players act from their sheet: the sheet gives the roll and the damage."""
    command = Attack(attacker="alice", target="goblin", using="longsword")
    events = given(RULESET, _armed(), goblin()).when(command, manual=[[14], [4]]).events
    assert rolls_of(events) == [
        ("r1", "alice", "attack on Goblin", [14], 19, 15, "hit"),
        ("r2", "alice", "damage to Goblin", [4], 6, None, None),
    ]


def test_an_attack_not_on_the_sheet_or_with_two_sets_of_dice_is_refused() -> None:
    table = given(RULESET, _armed(), goblin())
    table.when(Attack(attacker="alice", target="goblin", using="bow")).rejected(
        match=r"Alice's sheet has no attack 'bow' \(attacks: longsword\)"
    )
    table.when(
        Attack(attacker="alice", target="goblin", using="longsword", notation="1d20")
    ).rejected(match="uses a sheet attack or gives its dice, not both")
    table.when(Attack(attacker="alice", target="goblin")).rejected(
        match=r"names a sheet attack \(using\) or its dice"
    )
