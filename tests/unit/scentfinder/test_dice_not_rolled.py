"""The dice rule in Scentfinder: the GM enters the degree, so a Strike's Triumph, Failure
or Bungle settles the damage without its die (SCF-49), and only a Failure on a Save rolls
the danger's die (SCF-45); a die sent with such a command is refused, saying why."""

from __future__ import annotations

import pytest

from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder.commands import Resolve, Save
from tests.unit.deciders import given
from tests.unit.scentfinder.fixtures import act, fight


@pytest.mark.parametrize(
    ("degree", "settled"),
    [
        ("triumph", r"a Triumph maximises the damage \(6\), so the damage die \(1d6\)"),
        ("failure", r"a Failure deals 1 damage \(1\), so the damage die \(1d6\)"),
        ("bungle", r"a Bungle deals no damage \(0\), so the damage die \(1d6\)"),
    ],
)
def test_scf_49_a_strike_whose_degree_settles_the_damage_refuses_a_die(
    degree: str, settled: str
) -> None:
    table = fight()
    table.do(act("bob", "strike", target="goblin", weapon="spear"))
    at = given(RULESET, *table.history)
    refused = at.when(Resolve(degree=degree), manual=[[6]]).rejected(  # type: ignore[arg-type]
        match=f"^No die is rolled: {settled} is not rolled; send the command without manual dice$"
    )
    assert refused.rule == "SCF-49, SCF-25"
    assert at.when(Resolve(degree=degree)).events  # type: ignore[arg-type]


def test_scf_49_a_success_rolls_the_damage_die() -> None:
    table = fight()
    table.do(act("bob", "strike", target="goblin", weapon="spear"))
    events = table.do(Resolve(degree="success"), [6])
    assert [r.total for e in events for r in getattr(e, "rolls", ())] == [6]


def test_scf_45_only_a_failure_on_a_save_rolls_the_danger_die() -> None:
    table = fight()
    save = Save(combatant="alice", save="VIG", degree="success", damage="2d6", label="gas")
    refused = (
        given(RULESET, *table.history)
        .when(save, manual=[[3, 4]])
        .rejected(match=r"only a Failure on a Save rolls the damage die \(2d6\): a Success")
    )
    assert refused.rule == "SCF-45"
    failed = Save(combatant="alice", save="VIG", degree="failure", damage="2d6", label="gas")
    assert table.do(failed, [3, 4])


def test_scf_a1_declaring_a_test_with_a_die_is_refused_as_the_gm_enters_the_degree() -> None:
    table = fight()
    refused = (
        given(RULESET, *table.history)
        .when(act("bob", "strike", target="goblin", weapon="spear"), manual=[[14]])
        .rejected(match=r"^No die is rolled: Strike is tested by the degree the GM enters")
    )
    assert refused.rule == "SCF-A1"
