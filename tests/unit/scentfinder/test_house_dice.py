"""The optional dice resolver for tests: a house rule, off by default (SCF-A1)."""

from __future__ import annotations

from service.rulesets.scentfinder import RULESET, ScentfinderOptions
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import RollTest
from tests.unit.scentfinder.fixtures import act, fight

HOUSE = ScentfinderOptions(degree_input="house_dice")


def test_scf_a1_the_dice_resolver_is_off_by_default() -> None:
    table = fight()
    table.do(act("bob", "feint", target="goblin"))
    table.refuse(RollTest(target=12), "the dice resolver is a house rule that is off")
    notes = {n.key: n for n in RULESET.option_notes}
    assert notes["degree_input"].default == "gm_entered"
    assert "HOUSE RULE, not the text's" in notes["degree_input"].description


def test_scf_a1_house_dice_margin_gives_the_degree() -> None:
    cases = ((20, 12, "triumph"), (8, 12, "success"), (5, 12, "failure"), (1, 15, "bungle"))
    for face, target, degree in cases:
        table = fight(HOUSE)
        table.refuse(RollTest(target=12), "There is no test waiting")
        table.do(act("bob", "feint", target="goblin"))
        (resolved, *_) = table.do(RollTest(bonus=4, target=target), [face])
        assert isinstance(resolved, ev.ActionResolved) and resolved.degree == degree
        (record,) = resolved.rolls
        assert (record.total, record.target, record.outcome) == (face + 4, target, degree)


def test_scf_a1_house_dice_then_the_damage_die() -> None:
    table = fight(HOUSE)
    table.do(act("bob", "strike", target="goblin", weapon="spear"))
    (resolved,) = table.do(RollTest(target=10), [12], [4])
    assert isinstance(resolved, ev.ActionResolved) and resolved.degree == "success"
    assert [r.total for r in resolved.rolls] == [12, 4] and resolved.hp_after == 4
    assert table.state.pending is None
