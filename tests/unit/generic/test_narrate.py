"""The replay log: one readable line per event, rolls as a GM announces them."""

from __future__ import annotations

from service.dice import ManualFaces, RollingDice
from service.rulesets.generic.commands import (
    Adjudicate,
    Attack,
    Check,
    Heal,
    OpposedRoll,
    OverrideOutcome,
    RollInitiative,
    SetValue,
)
from service.rulesets.generic.events import (
    CombatantRemoved,
    ConditionAdded,
    ConditionExpired,
    ConditionRemoved,
    Damaged,
    EncounterEnded,
    Event,
    RoundStarted,
    TurnStarted,
)
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import State
from tests.unit.deciders import fold, given, line_for
from tests.unit.generic.fixtures import RULESET, alice, bob, everyone_in_combat, goblin


def lines(state: State, events: list[Event]) -> list[str]:
    """Narrate each event against the state before it, as the replay log does."""
    out = []
    for event in events:
        out.append(line_for(RULESET, state, event))
        state = RULESET.evolve(state, event)
    return out


def test_attack_hit_with_damage() -> None:
    given_ = given(RULESET, alice(), goblin())
    attack = Attack(attacker="alice", target="goblin", notation="1d20+5", damage="1d8+2")
    assert lines(given_.state, given_.when(attack, [[14], [5]]).events) == [
        "Alice rolls 1d20+5 for attack on Goblin: d20 [14] +5 notation = 19 vs 15: hit (manual)",
        "Alice rolls 1d8+2 for damage to Goblin: d8 [5] +2 notation = 7 (manual); "
        "Goblin takes 7 damage from Alice's attack (7 -> 0 hp)",
        "Goblin is down",
    ]


def test_initiative_and_rounds() -> None:
    given_ = given(RULESET, alice(), bob(), options=GenericOptions(initiative_stat="dex"))
    events = given_.when(RollInitiative(), [[10], [12]]).events
    assert lines(given_.state, events) == [
        "Alice rolls 1d20 for initiative: d20 [10] +3 dex = 13 (manual); "
        "Bob rolls 1d20 for initiative: d20 [12] +1 dex = 13 (manual). "
        "Initiative order: Alice 13, Bob 13",
        "Round 1 begins: Alice's turn",
    ]


def test_opposed_check() -> None:
    given_ = given(RULESET, alice(), goblin())
    check = Check(
        combatant="alice",
        notation="1d20",
        label="Grapple",
        opposed=OpposedRoll(combatant="goblin", notation="1d20"),
    )
    assert lines(given_.state, given_.when(check, [[15], [6]]).events) == [
        "Alice rolls 1d20 for Grapple check: d20 [15] = 15 vs roll r2: success (manual); "
        "Goblin rolls 1d20 for Grapple check opposing Alice: d20 [6] = 6 vs roll r1: failure "
        "(manual)"
    ]


def test_turns_conditions_and_end() -> None:
    state = fold(RULESET, everyone_in_combat())
    events: list[Event] = [
        TurnStarted(combatant="bob"),
        ConditionAdded(
            combatant="goblin", condition="prone", duration_rounds=1, expires_at_round=2
        ),
        RoundStarted(round=2, combatant="alice"),
        ConditionExpired(combatant="goblin", condition="prone", round=2),
        ConditionAdded(combatant="bob", condition="blessed", duration_rounds=3, expires_at_round=5),
        ConditionRemoved(combatant="bob", condition="blessed"),
        Damaged(target="bob", amount=4, hp_after=6, source="fire"),
        CombatantRemoved(combatant="goblin"),
        EncounterEnded(),
    ]
    assert lines(state, events) == [
        "Bob's turn",
        "Goblin is prone for 1 round (until round 2)",
        "Round 2 begins: Alice's turn",
        "Goblin is no longer prone (expired)",
        "Bob is blessed for 3 rounds (until round 5)",
        "Bob is no longer blessed",
        "Bob takes 4 damage from fire (10 -> 6 hp)",
        "Goblin leaves the encounter",
        "The encounter ends in round 2",
    ]


def test_healing_and_rulings() -> None:
    hurt = Damaged(target="alice", amount=9, hp_after=3)
    given_ = given(RULESET, alice(), goblin(), hurt)
    assert lines(
        given_.state, given_.when(Heal(target="alice", amount=4, source="potion")).events
    ) == ["Alice regains 4 hp from potion (3 -> 7 hp)"]
    attack = Attack(attacker="alice", target="goblin", notation="1d20")
    missed = given_.when(attack, [[2]]).events
    ruled = given(RULESET, alice(), goblin(), hurt, *missed)
    override = Adjudicate(ruling=OverrideOutcome(roll_id="r1", outcome="hit"), reason="bless")
    set_hp = Adjudicate(ruling=SetValue(combatant="goblin", field="hp", value=2), reason="fire")
    assert lines(ruled.state, ruled.when(override).events + ruled.when(set_hp).events) == [
        "GM ruling: Alice's attack on Goblin (r1) is a hit, not a miss, because bless",
        "GM ruling: Goblin's hp set to 2 (was 7), because fire",
    ]
    add = ConditionAdded(combatant="goblin", condition="stunned", reason="critical")
    assert line_for(RULESET, ruled.state, add) == "GM ruling: Goblin is stunned, because critical"


def test_a_secret_roll_is_told_only_as_having_happened() -> None:
    dice = RollingDice(ManualFaces([[17]]), next_roll_number=1, hidden=True)
    given_ = given(RULESET, goblin())
    check = Check(combatant="goblin", notation="1d20", label="Stealth", target_number=12)
    assert lines(given_.state, given_.when(check, dice=dice).events) == [
        "GM rolls secretly for Stealth check"
    ]
