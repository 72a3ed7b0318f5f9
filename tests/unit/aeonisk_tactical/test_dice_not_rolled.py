"""The dice rule in Aeonisk: a command whose own inputs settle that nothing is rolled
refuses a manual die, saying why in the text's words and naming the rule; a die left over
after a roll that decided the next one was not needed is still kept as unused."""

from __future__ import annotations

from service.dice import ManualFaces, RollingDice
from service.ruleset import refuse_dice_not_rolled
from service.rulesets.aeonisk_tactical import RULESET
from service.rulesets.aeonisk_tactical.commands import (
    Declare,
    NextPhase,
    Parry,
    PlaceToken,
    React,
    Resolve,
)
from service.rulesets.aeonisk_tactical.plan import Attack, Claim
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin

STAB = Attack(target="alice", weapon="knife", attribute="agility", skill="melee")


def _duel() -> Table:
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "engaged"})
    table.do(PlaceToken(id="t1", kind="cover", label="crates"))
    table.start_round(12, 4)  # Alice 28, Goblin 12
    return table


def test_a_declaration_with_a_die_is_refused_as_no_rolls_are_made_aek_13() -> None:
    table = _duel()
    refused = table.refuse(
        Declare(character="goblin", major=STAB),
        r'^No die is rolled: .*"No rolls are made or effects resolved" in the Declare Phase',
        [14],
    )
    assert refused.rule == "AEK-13"
    assert "send the command without manual dice" in refused.reason
    table.do(Declare(character="goblin", major=STAB))  # without the die it is taken


def test_a_token_claim_resolving_with_a_die_is_refused_aek_17() -> None:
    table = _duel()
    table.declare(Declare(character="goblin"), Declare(character="alice", minor=Claim(token="t1")))
    refused = table.refuse(Resolve(), "a contested token goes to whoever resolves first", [9])
    assert refused.rule == "AEK-17"


def test_closing_the_declare_phase_with_a_die_is_refused_aek_14() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice"))
    refused = table.refuse(NextPhase(), "closing the Declare Phase rolls nothing", [3])
    assert refused.rule == "AEK-14"


def test_a_command_that_never_rolls_names_itself() -> None:
    refused = Table().refuse(alice(), r"the command aeonisk\.add_character rolls none", [5])
    assert refused.rule is None


def test_a_damage_die_thrown_with_a_missed_attack_is_kept_as_unused() -> None:
    """The attack die decides that no damage is rolled: the table threw both at once."""
    table = _duel()
    table.declare(Declare(character="goblin", major=STAB), Declare(character="alice"))
    dice = RollingDice(ManualFaces([[1], [20], [7]]), next_roll_number=table.next_roll)
    events = RULESET.decide(table.state, Resolve(), dice)
    refuse_dice_not_rolled(dice, Resolve())  # rolled, so nothing to refuse
    assert events
    (unused,) = dice.unused_records()
    assert [d.face for d in unused.dice] == [7] and unused.outcome == "unused"


def test_the_rule_holds_for_a_manual_list_with_no_face() -> None:
    """An empty list is no die: nothing to refuse."""
    dice = RollingDice(ManualFaces([[]]), next_roll_number=1)
    assert RULESET.decide(Table().state, alice(), dice)
    refuse_dice_not_rolled(dice, alice())


def test_a_parry_committed_with_a_die_is_refused_aek_14() -> None:
    table = _duel()
    table.do(Declare(character="goblin", major=STAB))
    table.do(Declare(character="alice"))
    table.do(NextPhase())  # the Fast Phase
    parry = React(
        character="alice",
        reaction=Parry(attacker="goblin", attribute="agility", skill="melee"),
    )
    refused = table.refuse(parry, r"a Parry is committed now and changes the defence", [11])
    assert refused.rule == "AEK-14"
