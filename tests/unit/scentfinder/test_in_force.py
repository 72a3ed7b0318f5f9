"""Every condition in force on a test is on its record and log line with its source
(SCF-13, SCF-15, SCF-20, SCF-21, SCF-29, SCF-57); an Aid can Favour an ally's test that
waits for its degree (SCF-21); the end of a turn names what it ticks and leaving Hiding
is said (SCF-11, SCF-33)."""

from __future__ import annotations

from collections.abc import Sequence

from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate, EndTurn, Resolve, Save
from tests.unit.deciders import log_lines
from tests.unit.scentfinder.fixtures import Table, act, alice, bob, fight, goblin, ogre


def said(table: Table, events: Sequence[ev.Event]) -> list[str]:
    before = table.history[: len(table.history) - len(events)]
    return log_lines(RULESET, before, events, table.options)


def first(events: Sequence[ev.Event], kind: type[ev.Event]) -> ev.Event:
    return next(e for e in events if isinstance(e, kind))


def test_scf_13_a_flank_triumph_is_in_force_on_the_strike_with_ignore_1_impairment() -> None:
    table = fight()
    table.do(act("bob", "flank", target="goblin", degree="triumph"))
    events = table.do(act("bob", "strike", target="goblin", weapon="spear"))
    taken = first(events, ev.ActionTaken)
    expected = (
        "Favoured (circumstance): attacks against Goblin, from Bob's Flank; ignores 1 Impairment"
    )
    assert isinstance(taken, ev.ActionTaken) and taken.in_force == (expected,)
    assert said(table, events)[0].endswith(f"; in force: {expected}.")
    events = table.do(Resolve(degree="failure"))
    resolved = first(events, ev.ActionResolved)
    assert isinstance(resolved, ev.ActionResolved) and resolved.in_force == (expected,)
    assert f"(in force: {expected})" in said(table, events)[0]


def test_scf_13_a_flank_is_not_in_force_against_another_target() -> None:
    table = fight()
    table.do(act("bob", "flank", target="goblin", degree="success"))
    table.do(EndTurn(combatant="bob"))
    table.to_turn("bob")
    events = table.do(act("bob", "strike", target="goblin", weapon="spear"))
    taken = first(events, ev.ActionTaken)
    assert isinstance(taken, ev.ActionTaken) and taken.in_force == ()


def test_scf_29_a_disarm_success_impairs_the_disarmed_weapons_attacks() -> None:
    table = fight()
    table.do(act("bob", "disarm", target="goblin", weapon="spear", degree="success"))
    table.to_turn("goblin")
    events = table.do(act("goblin", "strike", target="bob", weapon="dagger"))
    taken = first(events, ev.ActionTaken)
    assert isinstance(taken, ev.ActionTaken)
    assert taken.in_force == ("Impaired: attacks with the dagger, from Bob's Disarm",)


def test_scf_15_a_sneak_triumph_favours_attacks() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "hide", degree="success"))
    table.do(act("bob", "sneak", area="melee", degree="triumph"))
    events = table.do(act("bob", "strike", target="goblin", weapon="spear"))
    taken = first(events, ev.ActionTaken)
    assert isinstance(taken, ev.ActionTaken)
    assert taken.in_force == ("Favoured (circumstance): attacks, from Bob's Sneak",)


def test_scf_20_first_help_on_a_patient_at_deaths_door_is_impaired_on_record() -> None:
    table = fight()
    table.to_turn("alice")
    table.do(Adjudicate(reason="down", combatant="bob", hp=0, deaths_door=True))
    events = table.do(act("alice", "administer_first_help", target="bob", degree="success"))
    expected = ("Impaired (circumstance): Bob is at Death's Door (SCF-20)",)
    taken, resolved = first(events, ev.ActionTaken), first(events, ev.ActionResolved)
    assert isinstance(taken, ev.ActionTaken) and taken.in_force == expected
    assert isinstance(resolved, ev.ActionResolved) and resolved.in_force == expected
    assert "in force: Impaired (circumstance): Bob is at Death's Door" in said(table, events)[0]


def test_scf_21_an_aid_favours_an_allys_test_that_waits_for_its_degree() -> None:
    table = fight()
    table.do(act("bob", "aid"))
    table.do(EndTurn(combatant="bob"))
    table.do(act("alice", "strike", target="goblin", weapon="sword"))
    assert table.state.pending is not None and table.state.pending.actor == "alice"
    table.do(act("bob", "aid", via="reaction", target="alice"))
    assert table.state.pending is not None and table.state.pending.actor == "alice"
    events = table.do(Resolve(degree="failure"))
    resolved = first(events, ev.ActionResolved)
    assert isinstance(resolved, ev.ActionResolved) and resolved.actor == "alice"
    assert resolved.in_force == ("Favoured (circumstance): the aided roll, from Bob's Aid",)
    assert not table.who("alice").has("favoured")


def test_scf_21_an_aid_for_someone_elses_waiting_test_is_still_refused() -> None:
    table = fight()
    table.do(act("bob", "aid"))
    table.do(EndTurn(combatant="bob"))
    table.do(act("alice", "strike", target="goblin", weapon="sword"))
    table.refuse(
        act("bob", "aid", via="reaction", target="bob"),
        "The GM has yet to enter the degree of Alice's Strike",
    )


def test_scf_11_the_end_of_a_turn_names_the_spell_it_ticks() -> None:
    table = fight()
    table.to_turn("alice")
    table.do(act("alice", "cast_spell", spell="Firebolt", target="goblin", degree="triumph"))
    table.to_turn("goblin")
    events = table.do(EndTurn(combatant="goblin"))
    assert said(table, events)[0] == "Goblin ends their turn: Alice's Firebolt 2 turns left."


def test_scf_11_the_end_of_a_turn_names_the_favour_that_dissipates() -> None:
    table = fight()
    table.do(act("bob", "flank", target="goblin", degree="success"))
    events = table.do(EndTurn(combatant="bob"))
    assert said(table, events)[0] == (
        "Bob ends their turn: Favoured (attacks against Goblin) dissipates."
    )


def test_scf_33_leaving_hiding_has_a_log_line() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(area="rear"), ogre())
    table.do(act("bob", "hide", degree="success"))
    events = table.do(act("bob", "evade"))
    assert said(table, events)[0].endswith("; they stop Hiding.")


def test_scf_51_take_cover_is_in_force_on_a_ref_save_and_not_on_a_vig_save() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "take_cover"))
    events = table.do(Save(combatant="bob", save="REF", degree="success", label="a rockfall"))
    made = first(events, ev.SaveMade)
    expected = "Favoured (circumstance): REF Saves & Stealth rolls, from Bob's Take Cover"
    assert isinstance(made, ev.SaveMade) and made.in_force == (expected,)
    assert f"(in force: {expected})" in said(table, events)[0]
    events = table.do(Save(combatant="bob", save="VIG", degree="success", label="poison"))
    made = first(events, ev.SaveMade)
    assert isinstance(made, ev.SaveMade) and made.in_force == ()


def test_scf_51_take_cover_is_in_force_on_a_stealth_test() -> None:
    table = fight(None, alice(area="rear"), bob(area="rear"), goblin(), ogre())
    table.do(act("bob", "take_cover"))
    events = table.do(act("bob", "hide"))
    taken = first(events, ev.ActionTaken)
    assert isinstance(taken, ev.ActionTaken) and taken.in_force == (
        "Favoured (circumstance): REF Saves & Stealth rolls, from Bob's Take Cover",
    )
