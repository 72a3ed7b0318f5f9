"""Refused commands and their messages, beyond those tested with their mechanics
(SCF-04, SCF-05, SCF-10, SCF-14, SCF-20, SCF-25, SCF-26, SCF-29, SCF-43, SCF-49)."""

from __future__ import annotations

from service.rulesets.scentfinder.commands import (
    Adjudicate,
    Begin,
    EndTurn,
    Initiative,
    InitiativeEntry,
    Resolve,
)
from service.rulesets.scentfinder.state import Weapon
from tests.unit.scentfinder.fixtures import AREAS, Table, act, alice, bob, fight, goblin, wolf


def _areas() -> Table:
    table = Table()
    for area in AREAS:
        table.do(area)
    return table


def test_scf_04_sheet_and_setup_refusals() -> None:
    table = _areas()
    table.refuse(Begin(), "Nobody is in the fight yet")
    table.refuse(alice(area="moon"), "Area 'moon' is not defined")
    table.refuse(alice(phase=2), "A player character's phase comes from initiative")
    table.refuse(alice(weapons={"sword": Weapon(damage="lots")}), "'lots' is not a damage die")
    table.refuse(alice(held=("axe",)), "Alice holds 'axe', which is not on the sheet")
    table.do(alice())
    table.refuse(alice(), "There is already a combatant 'alice'")
    table.refuse(
        wolf(minion_of="alice", phase=2), "A minion does not act on its own: it has no phase"
    )
    table.refuse(act("alice", "evade"), "Combat has not begun")


def test_scf_05_initiative_is_rolled_once() -> None:
    table = fight()
    table.refuse(Begin(), "Combat has already begun")
    table.refuse(
        Initiative(entries=(InitiativeEntry(combatant="bob", degree="failure", value=1),)),
        "Bob already rolled initiative; it is rolled once",
    )


def test_scf_10_turn_refusals() -> None:
    table = fight()
    table.refuse(EndTurn(combatant="alice"), "It is not Alice's turn")
    table.refuse(act("bob", "strike", target="goblin"), "Bob has no weapon 'None' on the sheet")
    table.refuse(act("bob", "feint"), "Feint needs a target")
    table.refuse(act("bob", "cast_spell", spell="Firebolt"), "Bob has no spell 'Firebolt'")


def test_scf_14_sneak_and_shift_refusals() -> None:
    table = fight()
    table.refuse(
        act("bob", "shift", area="front", degree="success"),
        "Shift calls for no test outside obstacle areas",
    )
    table.refuse(act("bob", "shift", area="rubble"), "the Rubble is not adjacent to the Melee")


def test_scf_20_first_help_halving_two_needs_two_instances() -> None:
    table = fight()
    table.to_turn("alice")
    table.do(Adjudicate(reason="acid", combatant="bob", persistent=(4,)))
    table.do(act("alice", "administer_first_help", target="bob"))
    table.refuse(
        Resolve(degree="triumph", choice="halve_two"), "Bob has no persistent damage instance #1"
    )


def test_scf_25_a_magic_attack_skill_is_needed() -> None:
    table = fight(None, alice(magic_skill=None), bob(), goblin())
    table.to_turn("alice")
    table.refuse(
        act("alice", "cast_spell", spell="Firebolt", target="goblin"),
        "Alice has no magic attack skill",
    )


def test_scf_26_command_refusals() -> None:
    table = fight(None, alice(), bob(), wolf(), goblin())
    table.do(act("bob", "shift", area="rear"))
    table.do(act("bob", "evade"))
    table.do(act("bob", "command", target="wolf"))
    table.refuse(
        Resolve(degree="triumph", extra_action=True), "Bob has no action left to give a third"
    )
    table.do(Resolve(degree="success"))
    table.do(act("wolf", "shift", area="rear", via="minion"))
    table.do(act("wolf", "shift", area="melee", via="minion"))
    table.refuse(
        act("wolf", "shift", area="rear", via="minion"),
        "Wolf has 0 action\\(s\\) granted by Command; Shift costs \\[1\\]",
    )


def test_scf_29_43_held_weapons() -> None:
    table = fight()
    table.refuse(
        act("bob", "disarm", target="goblin", weapon="sword"), "Bob does not hold the sword"
    )
    table.refuse(act("bob", "release", weapon="sword"), "Bob does not hold the sword")


def test_scf_52_players_name_skills_from_the_sheet() -> None:
    table = fight()
    table.to_turn("alice")
    table.refuse(
        act("alice", "strike", target="goblin", weapon="sword", skill="Charm"),
        "Alice has no skill 'Charm' on the sheet",
    )
