"""Focus without a maximum (SCF-A20), the reaction before a first turn (SCF-10), a Delay
before it (SCF-A11) or past the fourth phase (SCF-06), and NPCs after PCs (SCF-07)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.rulesets.scentfinder import RULESET, ScentfinderOptions
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Delay, EndTurn, ReorderPhase
from tests.unit.deciders import given, log_lines
from tests.unit.scentfinder.fixtures import Table, act, alice, bob, fight, goblin, ogre


def said(table: Table, events: Sequence[ev.Event]) -> list[str]:
    before = table.history[: len(table.history) - len(events)]
    return log_lines(RULESET, before, events, table.options)


def refocus_at_full(options: ScentfinderOptions | None = None) -> Table:
    table = fight(options)
    table.to_turn("alice")
    return table


def test_scf_a20_without_a_maximum_refocus_adds_its_point() -> None:
    table = refocus_at_full()
    assert table.who("alice").fp == 3 and table.who("alice").max_fp == 0
    events = table.do(act("alice", "refocus", degree="success"))
    assert table.who("alice").fp == 4
    assert said(table, events)[-1] == "Alice now has 4 FP (Refocus)."


def test_scf_a20_a_maximum_on_the_sheet_caps_it_and_the_log_says_so() -> None:
    table = Table().setup(alice(max_fp=3), bob(), goblin(), ogre())
    table.to_turn("alice")
    events = table.do(act("alice", "refocus", degree="success"))
    assert table.who("alice").fp == 3
    assert said(table, events)[-1] == (
        "Alice now has 3 FP (Refocus, capped at Alice's maximum of 3 FP)."
    )


def test_scf_a20_the_starting_fp_option_caps_a_sheet_without_a_maximum() -> None:
    table = refocus_at_full(ScentfinderOptions(focus_maximum="starting_fp"))
    assert table.who("alice").max_fp == 3
    table.do(act("alice", "refocus", degree="triumph"))
    assert table.who("alice").fp == 3


def test_scf_a20_the_option_is_listed_with_its_default() -> None:
    notes = {o.key: o for o in RULESET.option_notes}
    assert notes["focus_maximum"].default == "sheet_only"
    assert ScentfinderOptions().focus_maximum == "sheet_only"


def test_scf_10_a_reaction_before_a_first_turn_is_refused_naming_the_rule() -> None:
    table = fight()
    assert table.state.current == "bob"
    violation = (
        given(RULESET, *table.history)
        .when(act("alice", "arrest_fall"))
        .rejected(
            match="^Alice has no reaction before their first turn: a character regains 3 actions "
            "& a reaction at the start of their turn"
        )
    )
    assert violation.rule == "SCF-10"


def test_scf_a11_a_delay_before_a_first_turn_leaves_no_reaction_until_that_turn() -> None:
    table = fight()
    events = table.do(Delay(combatant="bob", phase=3))
    delayed = events[0]
    assert isinstance(delayed, ev.Delayed) and delayed.first_turn and delayed.reaction == 0
    assert table.who("bob").reaction == 0 and not table.who("bob").had_turn
    assert said(table, events)[0] == (
        "Bob delays from phase 2 to phase 3, for the rest of the combat: the turn does not "
        "happen now, and the 3 actions & a reaction come when it does in phase 3; before "
        "that first turn they have no reaction."
    )
    table.refuse(act("bob", "arrest_fall"), "Bob has no reaction before their first turn")
    table.do(EndTurn(combatant="alice"))
    assert table.state.current == "bob"
    assert table.who("bob").reaction == 1 and table.who("bob").actions == 3


def test_scf_a11_a_later_delay_keeps_the_reaction_left_from_before_the_turn() -> None:
    table = fight()
    table.to_turn("bob")  # Bob's second turn: round 2
    table.do(EndTurn(combatant="bob"))
    table.to_turn("bob")
    events = table.do(Delay(combatant="bob", phase=3))
    assert isinstance(events[0], ev.Delayed) and not events[0].first_turn
    assert events[0].reaction == 1 and table.who("bob").had_turn


@pytest.mark.parametrize("phase", [5, 9])
def test_scf_06_a_delay_past_the_fourth_phase_is_refused_by_the_rules(phase: int) -> None:
    table = fight()
    violation = (
        given(RULESET, *table.history)
        .when(Delay(combatant="bob", phase=phase))
        .rejected(
            match=f"^There are four initiative phases each round: phase {phase} is beyond the last"
        )
    )
    assert violation.rule == "SCF-06"


def test_scf_07_npcs_cannot_be_ordered_among_the_players_of_a_phase() -> None:
    table = fight()
    violation = (
        given(RULESET, *table.history)
        .when(ReorderPhase(phase=2, order=("alice", "goblin", "bob")))
        .rejected(match="^Goblin is an NPC: NPCs act at fixed initiative phases, after PCs")
    )
    assert violation.rule == "SCF-07"
