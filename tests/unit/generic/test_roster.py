"""Adding and removing combatants and conditions."""

from __future__ import annotations

import pytest

from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    RemoveCombatant,
    RemoveCondition,
)
from service.rulesets.generic.events import (
    CombatantAdded,
    CombatantRemoved,
    ConditionAdded,
    ConditionRemoved,
    RoundStarted,
    TurnStarted,
)
from service.rulesets.generic.options import GenericOptions
from tests.unit.deciders import given
from tests.unit.generic.fixtures import RULESET, alice, bob, everyone_in_combat, goblin, in_combat


def test_add_combatant_defaults_max_hp_to_hp() -> None:
    given(RULESET).when(
        AddCombatant(id="goblin", name="Goblin", hp=7, stats={"ac": 15}, side="foe")
    ).then(
        CombatantAdded(
            combatant="goblin", name="Goblin", hp=7, max_hp=7, stats={"ac": 15}, side="foe"
        )
    )


def test_add_combatant_trims_name_and_keeps_insertion_order() -> None:
    state = (
        given(RULESET, goblin(), alice())
        .when(AddCombatant(id="bob", name="  Bob ", hp=4, max_hp=10))
        .state_after()
    )
    assert list(state.combatants) == ["goblin", "alice", "bob"]
    assert (state.combatants["bob"].name, state.combatants["bob"].hp) == ("Bob", 4)


def test_adding_at_zero_hp_adds_the_down_condition() -> None:
    given(RULESET).when(AddCombatant(id="z", name="Zombie", hp=0, max_hp=9)).then(
        CombatantAdded(combatant="z", name="Zombie", hp=0, max_hp=9),
        ConditionAdded(combatant="z", condition="down"),
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (AddCombatant(id="alice", name="Alicia", hp=3), "id 'alice' is already used by Alice"),
        (AddCombatant(id="x", name="  ", hp=3), "name cannot be empty"),
        (AddCombatant(id=" ", name="X", hp=3), "' ' is not a valid id"),
        (AddCombatant(id="a b", name="X", hp=3), "'a b' is not a valid id"),
        (AddCombatant(id="x", name="X", hp=-1), "X cannot start with negative hit points"),
        (AddCombatant(id="x", name="X", hp=0, max_hp=0), "at least 1, not 0"),
        (AddCombatant(id="x", name="X", hp=9, max_hp=8), "9 hp, above max hp 8"),
        (AddCombatant(id="x", name="X", hp=3, stats={"to hit": 1}), "'to hit' is not a valid"),
        (AddCombatant(id="x", name="X", hp=3, stats={"a:b": 1}), "'a:b' is not a valid stat"),
        (AddCombatant(id="x", name="X", hp=3, side=""), "X's side cannot be empty"),
    ],
)
def test_add_combatant_refusals(command: AddCombatant, message: str) -> None:
    given(RULESET, alice()).when(command).rejected(match=message)


def test_remove_combatant_before_combat() -> None:
    given(RULESET, alice(), goblin()).when(RemoveCombatant(id="goblin")).then(
        CombatantRemoved(combatant="goblin")
    )


def test_remove_unknown_combatant_is_refused() -> None:
    given(RULESET, alice()).when(RemoveCombatant(id="orc")).rejected(
        match="no combatant with id 'orc'"
    )


def test_removing_someone_else_keeps_the_turn_and_leaves_the_order() -> None:
    when = given(RULESET, *everyone_in_combat(turn="bob")).when(RemoveCombatant(id="alice"))
    when.then(CombatantRemoved(combatant="alice"))
    state = when.state_after()
    assert [e.combatant for e in state.order] == ["bob", "goblin"]
    assert list(state.combatants) == ["bob", "goblin"]


def test_removing_the_combatant_whose_turn_it_is_passes_the_turn() -> None:
    given(RULESET, *everyone_in_combat(turn="bob")).when(RemoveCombatant(id="bob")).then(
        TurnStarted(combatant="goblin"), CombatantRemoved(combatant="bob")
    )


def test_removing_the_last_in_the_order_on_their_turn_starts_the_next_round() -> None:
    given(RULESET, *everyone_in_combat(turn="goblin")).when(RemoveCombatant(id="goblin")).then(
        RoundStarted(round=2, combatant="alice"), CombatantRemoved(combatant="goblin")
    )


def test_a_removed_combatant_gets_no_expiry_events() -> None:
    prone = ConditionAdded(
        combatant="goblin", condition="prone", duration_rounds=1, expires_at_round=2
    )
    given(RULESET, *everyone_in_combat(turn="goblin"), prone).when(
        RemoveCombatant(id="goblin")
    ).then(RoundStarted(round=2, combatant="alice"), CombatantRemoved(combatant="goblin"))


def test_the_only_combatant_in_the_order_cannot_be_removed_on_their_turn() -> None:
    given(RULESET, alice(), goblin(), *in_combat("goblin")).when(
        RemoveCombatant(id="goblin")
    ).rejected(match="Goblin is the only combatant in the initiative order; end the encounter")


def test_add_condition_with_duration_before_combat_counts_from_round_1() -> None:
    given(RULESET, goblin()).when(
        AddCondition(target="goblin", condition="prone", duration_rounds=2)
    ).then(
        ConditionAdded(combatant="goblin", condition="prone", duration_rounds=2, expires_at_round=3)
    )


def test_add_condition_in_round_3_for_1_round_expires_when_round_4_begins() -> None:
    given(RULESET, *everyone_in_combat(round=3)).when(
        AddCondition(target="goblin", condition="blinded", duration_rounds=1)
    ).then(
        ConditionAdded(
            combatant="goblin", condition="blinded", duration_rounds=1, expires_at_round=4
        )
    )


def test_add_condition_again_restarts_its_duration() -> None:
    first = ConditionAdded(
        combatant="goblin", condition="prone", duration_rounds=1, expires_at_round=2
    )
    when = given(RULESET, *everyone_in_combat(round=2), first).when(
        AddCondition(target="goblin", condition="prone", duration_rounds=2)
    )
    state = when.state_after()
    assert [(c.name, c.expires_at_round) for c in state.combatants["goblin"].conditions] == [
        ("prone", 4)
    ]


def test_condition_without_duration_lasts_until_removed() -> None:
    state = (
        given(RULESET, goblin())
        .when(AddCondition(target="goblin", condition="cursed"))
        .state_after()
    )
    assert state.combatants["goblin"].condition("cursed") is not None
    assert state.combatants["goblin"].conditions[0].expires_at_round is None


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (AddCondition(target="orc", condition="prone"), "no combatant with id 'orc'"),
        (AddCondition(target="goblin", condition=" "), "condition's name cannot be empty"),
        (
            AddCondition(target="goblin", condition="prone", duration_rounds=0),
            "at least 1 round, not 0",
        ),
    ],
)
def test_add_condition_refusals(command: AddCondition, message: str) -> None:
    given(RULESET, goblin()).when(command).rejected(match=message)


def test_remove_condition() -> None:
    given(RULESET, goblin(), ConditionAdded(combatant="goblin", condition="prone")).when(
        RemoveCondition(target="goblin", condition="prone")
    ).then(ConditionRemoved(combatant="goblin", condition="prone"))


def test_removing_a_condition_the_combatant_lacks_is_refused() -> None:
    given(RULESET, goblin()).when(RemoveCondition(target="goblin", condition="prone")).rejected(
        match="Goblin is not prone"
    )


def test_no_down_condition_when_the_option_is_off() -> None:
    options = GenericOptions(down_condition=None)
    given(RULESET, options=options).when(AddCombatant(id="z", name="Z", hp=0, max_hp=3)).then(
        CombatantAdded(combatant="z", name="Z", hp=0, max_hp=3)
    )


def test_bob_fixture_is_a_valid_add() -> None:
    """The fixtures are what add_combatant itself would produce."""
    for event in (alice(), bob(), goblin()):
        command = AddCombatant(
            id=event.combatant,
            name=event.name,
            hp=event.hp,
            max_hp=event.max_hp,
            stats=event.stats,
            side=event.side,
        )
        given(RULESET).when(command).then(event)
