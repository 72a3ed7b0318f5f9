"""Initiative: any notation, the initiative stat, tie-breaking, late joiners."""

from __future__ import annotations

import pytest

from service.dice.model import Modifier
from service.rulesets.generic.commands import RollInitiative
from service.rulesets.generic.events import CombatantAdded, InitiativeRolled, RoundStarted
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import InitiativeEntry
from tests.unit.deciders import given
from tests.unit.generic.fixtures import (
    RULESET,
    alice,
    bob,
    everyone_in_combat,
    goblin,
    rolls_of,
    without_rolls,
)

DEX = GenericOptions(initiative_stat="dex")


def entry(combatant: str, total: int, modifier: int = 0) -> InitiativeEntry:
    return InitiativeEntry(combatant=combatant, total=total, modifier=modifier)


def test_highest_total_first_and_round_1_starts() -> None:
    events = (
        given(RULESET, alice(), bob(), goblin())
        .when(RollInitiative(), manual=[[8], [17], [12]])
        .events
    )
    order = (entry("bob", 17), entry("goblin", 12), entry("alice", 8))
    assert without_rolls(events) == [
        InitiativeRolled(results=order, order=order, rolls=()),
        RoundStarted(round=1, combatant="bob"),
    ]
    assert rolls_of(events) == [
        ("r1", "alice", "initiative", [8], 8, None, None),
        ("r2", "bob", "initiative", [17], 17, None, None),
        ("r3", "goblin", "initiative", [12], 12, None, None),
    ]


def test_initiative_stat_is_added_as_a_labelled_modifier() -> None:
    events = given(RULESET, alice(), options=DEX).when(RollInitiative(), manual=[[10]]).events
    record = events[0].rolls[0]  # type: ignore[union-attr]
    assert record.modifiers == (Modifier("dex", 3),)
    assert record.total == 13


def test_a_combatant_without_the_initiative_stat_adds_nothing() -> None:
    events = (
        given(RULESET, alice(stats={}), options=DEX).when(RollInitiative(), manual=[[10]]).events
    )
    assert events[0].rolls[0].modifiers == ()  # type: ignore[union-attr]
    assert events[0].order == (entry("alice", 10),)  # type: ignore[union-attr]


def test_ties_go_to_the_higher_initiative_modifier() -> None:
    # Alice 10+3, Bob 12+1, Goblin 11+2: all 13, so dex decides: Alice, Goblin, Bob.
    events = (
        given(RULESET, alice(), bob(), goblin(), options=DEX)
        .when(RollInitiative(), manual=[[10], [12], [11]])
        .events
    )
    order = (entry("alice", 13, 3), entry("goblin", 13, 2), entry("bob", 13, 1))
    assert without_rolls(events) == [
        InitiativeRolled(results=order, order=order, rolls=()),
        RoundStarted(round=1, combatant="alice"),
    ]
    assert len(rolls_of(events)) == 3, "no roll-off was needed"


def test_ties_on_total_and_modifier_go_to_a_d20_roll_off() -> None:
    events = (
        given(RULESET, alice(), bob(), goblin())
        .when(RollInitiative(), manual=[[15], [15], [9], [4], [17]])
        .events
    )
    assert events[0].order == (entry("bob", 15), entry("alice", 15), entry("goblin", 9))  # type: ignore[union-attr]
    assert rolls_of(events)[3:] == [
        ("r4", "alice", "initiative roll-off 1", [4], 4, None, None),
        ("r5", "bob", "initiative roll-off 1", [17], 17, None, None),
    ]


def test_roll_offs_repeat_among_those_still_tied() -> None:
    # Three-way tie at 15; roll-off 1: Alice 10, Bob 10, Goblin 3; roll-off 2: Alice 2, Bob 19.
    events = (
        given(RULESET, alice(), bob(), goblin())
        .when(RollInitiative(), manual=[[15], [15], [15], [10], [10], [3], [2], [19]])
        .events
    )
    assert [e.combatant for e in events[0].order] == ["bob", "alice", "goblin"]  # type: ignore[union-attr]
    purposes = [purpose for _, _, purpose, *_ in rolls_of(events)]
    assert purposes[3:] == ["initiative roll-off 1"] * 3 + ["initiative roll-off 2"] * 2
    assert events[0].note is None  # type: ignore[union-attr]


def test_after_ten_tied_roll_offs_the_order_of_addition_decides() -> None:
    manual = [[15], [15]] + [[7], [7]] * 10
    events = (
        given(RULESET, alice(), bob())
        .when(RollInitiative(combatants=("bob", "alice")), manual=manual)
        .events
    )
    rolled = events[0]
    assert isinstance(rolled, InitiativeRolled)
    assert [e.combatant for e in rolled.order] == ["alice", "bob"]
    assert rolled.note == "Alice, Bob still tied after 10 roll-offs: order of addition"
    assert len(rolled.rolls) == 22


def test_notation_override() -> None:
    events = given(RULESET, alice()).when(RollInitiative(notation="2d6"), manual=[[3, 4]]).events
    assert rolls_of(events) == [("r1", "alice", "initiative", [3, 4], 7, None, None)]


def test_encounter_default_notation_is_used() -> None:
    options = GenericOptions(initiative_notation="1d10")
    events = given(RULESET, alice(), options=options).when(RollInitiative(), manual=[[10]]).events
    assert events[0].rolls[0].notation == "1d10"  # type: ignore[union-attr]


def test_round_1_starts_with_the_first_combatant_able_to_act() -> None:
    given_ = given(RULESET, alice(), goblin(hp=0))
    events = given_.when(RollInitiative(), manual=[[5], [18]]).events
    assert events[1] == RoundStarted(round=1, combatant="alice")


def test_a_late_joiner_is_placed_without_restarting_the_round() -> None:
    orc = CombatantAdded(combatant="orc", name="Orc", hp=15, max_hp=15)
    events = (
        given(RULESET, *everyone_in_combat(round=2, turn="bob"), orc)
        .when(RollInitiative(), manual=[[19]])
        .events
    )
    # Alice 20, Bob 19, Goblin 18: the Orc ties Bob at 19 and goes after him.
    assert without_rolls(events) == [
        InitiativeRolled(
            results=(entry("orc", 19),),
            order=(entry("alice", 20), entry("bob", 19), entry("orc", 19), entry("goblin", 18)),
            rolls=(),
        )
    ]


@pytest.mark.parametrize(
    ("combatants", "message"),
    [
        (None, "everyone already has initiative"),
        (("bob",), r"Bob already has initiative \(19\)"),
        (("orc",), "no combatant with id 'orc'"),
        ((), "name at least one combatant"),
    ],
)
def test_refusals_during_combat(combatants: tuple[str, ...] | None, message: str) -> None:
    given(RULESET, *everyone_in_combat()).when(RollInitiative(combatants=combatants)).rejected(
        match=message
    )


def test_a_combatant_listed_twice_is_refused() -> None:
    given(RULESET, alice()).when(RollInitiative(combatants=("alice", "alice"))).rejected(
        match="Alice is listed twice"
    )


def test_nobody_to_roll_for() -> None:
    given(RULESET).when(RollInitiative()).rejected(match="no combatants to roll initiative for")


def test_rolls_entered_one_at_a_time_wait_for_the_last_before_round_1() -> None:
    wait = RollInitiative(combatants=("bob",), wait_for_all=True)
    first = given(RULESET, alice(), bob(), goblin()).when(wait, manual=[[11]]).events
    assert without_rolls(first) == [
        InitiativeRolled(
            results=(entry("bob", 11),),
            order=(entry("bob", 11),),
            note="waiting for Alice, Goblin to roll",
            rolls=(),
        )
    ]
    alice_waits = RollInitiative(combatants=("alice",), wait_for_all=True)
    second = (
        given(RULESET, alice(), bob(), goblin(), *first).when(alice_waits, manual=[[15]]).events
    )
    assert [type(e) for e in second] == [InitiativeRolled]
    assert second[0].order == (entry("alice", 15), entry("bob", 11))  # type: ignore[union-attr]

    # The goblin's roll is the last: round 1 starts, with the whole order.
    last = RollInitiative(combatants=("goblin",), wait_for_all=True)
    events = (
        given(RULESET, alice(), bob(), goblin(), *first, *second).when(last, manual=[[4]]).events
    )
    order = (entry("alice", 15), entry("bob", 11), entry("goblin", 4))
    assert without_rolls(events) == [
        InitiativeRolled(results=(entry("goblin", 4),), order=order, rolls=()),
        RoundStarted(round=1, combatant="alice"),
    ]


def test_ties_across_rolls_entered_one_at_a_time_are_broken_by_the_last_one() -> None:
    wait = RollInitiative(combatants=("bob",), wait_for_all=True)
    first = given(RULESET, alice(), bob()).when(wait, manual=[[12]]).events
    last = RollInitiative(combatants=("alice",), wait_for_all=True)
    events = given(RULESET, alice(), bob(), *first).when(last, manual=[[12], [3], [18]]).events
    # A roll-off between Bob (entered first) and Alice, in this command: Alice 18, Bob 3.
    assert rolls_of(events)[1:] == [
        ("r2", "bob", "initiative roll-off 1", [3], 3, None, None),
        ("r3", "alice", "initiative roll-off 1", [18], 18, None, None),
    ]
    assert events[0].order == (entry("alice", 12), entry("bob", 12))  # type: ignore[union-attr]
    assert events[1] == RoundStarted(round=1, combatant="alice")


def test_the_gm_starts_without_waiting_for_the_rest() -> None:
    wait = RollInitiative(combatants=("bob",), wait_for_all=True)
    first = given(RULESET, alice(), bob(), goblin()).when(wait, manual=[[9]]).events
    # Without wait_for_all the roll starts round 1; whoever has not rolled joins later.
    now = RollInitiative(combatants=("alice",))
    events = given(RULESET, alice(), bob(), goblin(), *first).when(now, manual=[[5]]).events
    assert events[-1] == RoundStarted(round=1, combatant="bob")
    # The last one in starts round 1 however it was entered; and when every roll is in
    # already (the one still to roll was removed), a roll for nobody starts it.
    both = (
        given(RULESET, alice(), bob(), *first)
        .when(RollInitiative(combatants=("alice",), wait_for_all=True), manual=[[5]])
        .events
    )
    assert both[-1] == RoundStarted(round=1, combatant="bob")
    held = given(RULESET, bob(), *first).when(RollInitiative()).events
    assert held[-1] == RoundStarted(round=1, combatant="bob")
