"""Seeding then carrying gives any condition back, for conditions drawn at random within
what each ruleset's text allows a character who can still fight."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.carry_over import CarryRules
from service.ruleset import Ruleset
from service.rulesets import aeonisk_tactical, generic, scentfinder, tactics, untold_aeons
from service.rulesets.aeonisk_tactical.carry_over import AeoniskCondition
from service.rulesets.generic.carry_over import GenericCondition
from service.rulesets.generic.commands import AddCombatant as GenericSheet
from service.rulesets.generic.options import GenericOptions
from service.rulesets.scentfinder.carry_over import ScentfinderCondition
from service.rulesets.scentfinder.commands import AddCombatant as ScentfinderSheet
from service.rulesets.scentfinder.commands import DefineArea
from service.rulesets.tactics.carry_over import CarriedWound, TacticsCondition
from service.rulesets.tactics.commands import AddCombatant as TacticsSheet
from service.rulesets.tactics.options import TacticsOptions
from service.rulesets.untold_aeons.carry_over import UntoldCondition
from service.rulesets.untold_aeons.examples import CHARACTERS
from service.rulesets.untold_aeons.state import Category, Hardened, Status
from tests.unit.aeonisk_tactical.fixtures import kaelia
from tests.unit.deciders import play

AnyRuleset = Ruleset[Any, Any, Any, Any]


def _round_trip(ruleset: AnyRuleset, state: Any, sheet: Any, condition: Any) -> None:
    rules: CarryRules[Any, Any, Any, Any, Any, Any] | None = ruleset.carry
    assert rules is not None
    seeded = play(ruleset, state, rules.seed(state, sheet, condition))
    assert rules.carry_over(seeded, rules.options_type()).characters[sheet.id] == condition


def _sorted_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(set(names)))


@settings(max_examples=60, deadline=None)
@given(
    hp=st.integers(min_value=-20, max_value=60),
    names=st.lists(st.sampled_from(["cursed", "poisoned", "blessed"]), max_size=3),
)
def test_generic(hp: int, names: list[str]) -> None:
    state = generic.RULESET.initial_state(GenericOptions(allow_negative_hp=True))
    sheet = GenericSheet(id="aria", name="Aria", hp=22)
    _round_trip(
        generic.RULESET, state, sheet, GenericCondition(hp=hp, conditions=_sorted_names(names))
    )


@settings(max_examples=60, deadline=None)
@given(
    wounds=st.integers(min_value=0, max_value=12),
    stun=st.integers(min_value=0, max_value=8),
    void=st.integers(min_value=0, max_value=10),
)
def test_aeonisk(wounds: int, stun: int, void: int) -> None:
    state = aeonisk_tactical.RULESET.initial_state(aeonisk_tactical.RULESET.options_type())
    condition = AeoniskCondition(wounds=wounds, stun=stun, void=void)
    _round_trip(aeonisk_tactical.RULESET, state, kaelia(), condition)


@settings(max_examples=60, deadline=None)
@given(
    hp=st.integers(min_value=-10, max_value=20),
    fp=st.integers(min_value=0, max_value=5),
    persistent=st.lists(st.integers(min_value=1, max_value=6), max_size=3),
    deaths_door=st.booleans(),
    loss=st.integers(min_value=0, max_value=3),
)
def test_scentfinder(hp: int, fp: int, persistent: list[int], deaths_door: bool, loss: int) -> None:
    ruleset = scentfinder.RULESET
    state = play(
        ruleset,
        ruleset.initial_state(ruleset.options_type()),
        [DefineArea(id="melee", name="the Melee")],
    )
    sheet = ScentfinderSheet(id="alice", name="Alice", hp=14, fp=3, max_fp=5, area="melee")
    condition = ScentfinderCondition(
        hp=hp, fp=fp, persistent=tuple(persistent), deaths_door=deaths_door, dd_action_loss=loss
    )
    _round_trip(ruleset, state, sheet, condition)


@settings(max_examples=60, deadline=None)
@given(
    batches=st.lists(
        st.tuples(st.integers(min_value=1, max_value=6), st.sampled_from(["rex", "fire", "fall"])),
        max_size=3,
    ),
    shields=st.integers(min_value=0, max_value=3),
)
def test_tactics(batches: list[tuple[int, str]], shields: int) -> None:
    ruleset = tactics.RULESET
    state = ruleset.initial_state(TacticsOptions(press_penalty_step=2))
    sheet = TacticsSheet(id="vex", name="Vex", shields=3)
    wounds = tuple(CarriedWound(amount=a, source=s) for a, s in batches)
    _round_trip(ruleset, state, sheet, TacticsCondition(wounds=wounds, shields=shields))


@settings(max_examples=60, deadline=None)
@given(
    damage=st.integers(min_value=0, max_value=30),
    stress=st.integers(min_value=0, max_value=30),
    shaken=st.booleans(),
    status=st.sampled_from(["active", "severely_injured", "broken"]),
    xp=st.integers(min_value=0, max_value=200),
    notches=st.integers(min_value=0, max_value=2),
    level=st.integers(min_value=0, max_value=3),
    firearms=st.integers(min_value=1, max_value=5),
)
def test_untold_aeons(
    damage: int,
    stress: int,
    shaken: bool,
    status: Status,
    xp: int,
    notches: int,
    level: int,
    firearms: int,
) -> None:
    ruleset = untold_aeons.RULESET
    state = ruleset.initial_state(ruleset.options_type())
    mara = CHARACTERS[0]
    hardened: dict[Category, Hardened] = (
        {"violence": Hardened(level=level, notches=notches)} if level or notches else {}
    )
    traits = {
        "dexterity": 3,
        "toughness": 3,
        "willpower": 3,
        "intellect": 3,
        **dict(sorted({**mara.skills, "firearms": firearms}.items())),
    }
    condition = UntoldCondition(
        damage=damage,
        stress=stress,
        shaken=shaken,
        status=status,
        xp=xp,
        hardened=hardened,
        traits=traits,
    )
    _round_trip(ruleset, state, mara, condition)
