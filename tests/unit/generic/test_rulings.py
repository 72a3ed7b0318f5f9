"""GM adjudication (each kind, always with a reason) and the end of the encounter."""

from __future__ import annotations

import pytest

from service.dice.model import RollRecord
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    AddConditionRuling,
    Adjudicate,
    Attack,
    Check,
    Damage,
    EndEncounter,
    Heal,
    NextTurn,
    OverrideOutcome,
    RemoveCombatant,
    RemoveCondition,
    RemoveConditionRuling,
    RollInitiative,
    SetValue,
)
from service.rulesets.generic.events import (
    AttackRolled,
    CheckRolled,
    ConditionAdded,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    OutcomeOverridden,
    ValueSet,
)
from service.rulesets.generic.state import RECENT_OUTCOMES, Ended, Fighting
from tests.unit.deciders import given
from tests.unit.generic.fixtures import RULESET, alice, everyone_in_combat, goblin


def ruling(what: object, reason: str = "the table agreed") -> Adjudicate:
    return Adjudicate(ruling=what, reason=reason)  # type: ignore[arg-type]


def missed(roll_id: str) -> AttackRolled:
    """A miss whose attack roll has ``roll_id`` (the record's other fields do not matter)."""
    record = RollRecord(
        roll_id=roll_id, roller="alice", purpose="attack", notation="1d20", dice=(), total=3,
        source="manual", outcome="miss",
    )  # fmt: skip
    return AttackRolled(attacker="alice", target="goblin", outcome="miss", rolls=(record,))


def test_set_hp() -> None:
    given(RULESET, goblin()).when(
        ruling(SetValue(combatant="goblin", field="hp", value=3), "forgot the fire damage")
    ).then(
        ValueSet(
            combatant="goblin", field="hp", value=3, previous=7, reason="forgot the fire damage"
        )
    )


def test_set_hp_to_0_downs_and_above_0_revives() -> None:
    set_0 = ruling(SetValue(combatant="goblin", field="hp", value=0))
    given(RULESET, goblin()).when(set_0).then(
        ValueSet(combatant="goblin", field="hp", value=0, previous=7, reason="the table agreed"),
        ConditionAdded(combatant="goblin", condition="down"),
    )
    down = (
        Damaged(target="goblin", amount=7, hp_after=0),
        ConditionAdded(combatant="goblin", condition="down"),
    )
    set_2 = ruling(SetValue(combatant="goblin", field="hp", value=2))
    given(RULESET, goblin(), *down).when(set_2).then(
        ValueSet(combatant="goblin", field="hp", value=2, previous=0, reason="the table agreed"),
        ConditionRemoved(combatant="goblin", condition="down"),
    )


def test_set_hp_above_max_is_allowed_as_temporary_hp() -> None:
    state = (
        given(RULESET, goblin())
        .when(ruling(SetValue(combatant="goblin", field="hp", value=12)))
        .state_after()
    )
    assert (state.combatants["goblin"].hp, state.combatants["goblin"].max_hp) == (12, 7)


def test_set_max_hp_and_stats() -> None:
    given(RULESET, goblin()).when(
        ruling(SetValue(combatant="goblin", field="max_hp", value=9))
    ).then(
        ValueSet(combatant="goblin", field="max_hp", value=9, previous=7, reason="the table agreed")
    )
    when = given(RULESET, goblin()).when(
        ruling(SetValue(combatant="goblin", field="stat:str", value=1))
    )
    when.then(
        ValueSet(
            combatant="goblin", field="stat:str", value=1, previous=None, reason="the table agreed"
        )
    )
    assert when.state_after().combatants["goblin"].stats == {"ac": 15, "dex": 2, "str": 1}


def test_set_initiative_moves_the_combatant_in_the_order_and_keeps_the_turn() -> None:
    """Alice 20, Bob 19, the Goblin 18, Bob's turn: the Goblin set to 20 goes after Alice
    (already at 20, as a late joiner goes); Bob keeps his turn.  Someone without
    initiative is placed by the ruling, with their initiative stat as the tie-breaker."""
    when = given(RULESET, *everyone_in_combat(turn="bob")).when(
        ruling(SetValue(combatant="goblin", field="initiative", value=20), "ambush")
    )
    when.then(
        ValueSet(combatant="goblin", field="initiative", value=20, previous=18, reason="ambush")
    )
    after = when.state_after()
    assert [(e.combatant, e.total) for e in after.order] == [
        ("alice", 20),
        ("goblin", 20),
        ("bob", 19),
    ]
    assert after.phase == Fighting(round=1, turn="bob")
    late = given(RULESET, *everyone_in_combat(), alice(combatant="cara", name="Cara")).when(
        ruling(SetValue(combatant="cara", field="initiative", value=19))
    )
    late.then(
        ValueSet(
            combatant="cara", field="initiative", value=19, previous=None, reason="the table agreed"
        )
    )
    assert [e.combatant for e in late.state_after().order] == ["alice", "bob", "cara", "goblin"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("hp", -1, "cannot go below 0 in this encounter, not -1"),
        ("max_hp", 0, "at least 1, not 0"),
        ("stat:", 1, "'' is not a valid stat name"),
        ("speed", 30, "'speed' cannot be set: use hp, max_hp, initiative or stat:<name>"),
        ("hp", 7, "Goblin's hp is already 7"),
        ("stat:ac", 15, "Goblin's stat:ac is already 15"),
    ],
)
def test_set_value_refusals(field: str, value: int, message: str) -> None:
    command = ruling(SetValue(combatant="goblin", field=field, value=value))
    given(RULESET, goblin()).when(command).rejected(match=message)


def test_a_ruling_needs_a_reason() -> None:
    command = ruling(SetValue(combatant="goblin", field="hp", value=1), reason="  ")
    given(RULESET, goblin()).when(command).rejected(match="reason for a ruling cannot be empty")


def test_add_and_remove_condition_by_ruling_carry_the_reason() -> None:
    add = ruling(
        AddConditionRuling(target="goblin", condition="frightened", duration_rounds=2), "roar"
    )
    given(RULESET, *everyone_in_combat(round=2)).when(add).then(
        ConditionAdded(
            combatant="goblin", condition="frightened", duration_rounds=2, expires_at_round=4,
            reason="roar",
        )
    )  # fmt: skip
    cursed = ConditionAdded(combatant="goblin", condition="cursed")
    remove = ruling(RemoveConditionRuling(target="goblin", condition="cursed"), "wish")
    given(RULESET, goblin(), cursed).when(remove).then(
        ConditionRemoved(combatant="goblin", condition="cursed", reason="wish")
    )


def test_override_an_attack_outcome() -> None:
    when = given(RULESET, alice(), goblin(), missed("r7")).when(
        ruling(OverrideOutcome(roll_id="r7", outcome="hit"), "forgot bless")
    )
    when.then(
        OutcomeOverridden(
            roll_id="r7", kind="attack", previous="miss", outcome="hit", reason="forgot bless"
        )
    )
    assert when.state_after().outcomes[0].outcome == "hit"


def test_override_a_check_outcome() -> None:
    record_events = (
        given(RULESET, alice())
        .when(Check(combatant="alice", notation="1d20", label="Stealth", target_number=12), [[4]])
        .events
    )
    assert isinstance(record_events[0], CheckRolled)
    given(RULESET, alice(), *record_events).when(
        ruling(OverrideOutcome(roll_id="r1", outcome="success"), "cover of darkness")
    ).then(
        OutcomeOverridden(
            roll_id="r1", kind="check", previous="failure", outcome="success",
            reason="cover of darkness",
        )
    )  # fmt: skip


@pytest.mark.parametrize(
    ("roll_id", "outcome", "message"),
    [
        ("r99", "hit", "roll r99 is not one of the last 50 attack or check rolls"),
        ("r7", "success", "Alice's attack on Goblin is hit or miss, not 'success'"),
        ("r7", "miss", "Alice's attack on Goblin is already a miss"),
    ],
)
def test_override_refusals(roll_id: str, outcome: str, message: str) -> None:
    given(RULESET, alice(), goblin(), missed("r7")).when(
        ruling(OverrideOutcome(roll_id=roll_id, outcome=outcome))
    ).rejected(match=message)


def test_only_the_last_outcomes_are_remembered() -> None:
    misses = [missed(f"r{n}") for n in range(1, RECENT_OUTCOMES + 2)]
    state = given(RULESET, alice(), goblin(), *misses).state
    assert len(state.outcomes) == RECENT_OUTCOMES
    assert state.outcomes[0].roll_id == "r2"


def test_end_encounter_records_the_last_round() -> None:
    when = given(RULESET, *everyone_in_combat(round=3)).when(EndEncounter())
    when.then(EncounterEnded())
    assert when.state_after().phase == Ended(round=3)
    assert RULESET.round_of(when.state_after()) == 3


@pytest.mark.parametrize(
    "command",
    [
        AddCombatant(id="orc", name="Orc", hp=5),
        RemoveCombatant(id="goblin"),
        RollInitiative(),
        NextTurn(),
        Attack(attacker="alice", target="goblin", notation="1d20"),
        Check(combatant="alice", notation="1d20", label="x"),
        Damage(target="goblin", amount=1),
        Heal(target="goblin", amount=1),
        AddCondition(target="goblin", condition="prone"),
        RemoveCondition(target="goblin", condition="prone"),
        EndEncounter(),
    ],
)
def test_after_the_end_only_rulings_are_accepted(command: object) -> None:
    ended = (*everyone_in_combat(), EncounterEnded())
    given(RULESET, *ended).when(command).rejected(  # type: ignore[arg-type]
        match="the encounter has ended; only GM rulings can change it now"
    )


def test_rulings_still_work_after_the_end() -> None:
    ended = (*everyone_in_combat(), EncounterEnded())
    given(RULESET, *ended).when(ruling(SetValue(combatant="goblin", field="hp", value=1))).then(
        ValueSet(combatant="goblin", field="hp", value=1, previous=7, reason="the table agreed")
    )
