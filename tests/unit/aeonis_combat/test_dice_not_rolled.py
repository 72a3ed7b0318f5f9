"""The dice rule in Aeonis Combat: only a fought battle round rolls (AEC-14), so a die
sent with a declaration is refused, saying why; a striker left with no target by the
strikes before it skips its roll (AEC-A3), and the faces thrown for it are kept unused."""

from __future__ import annotations

from service.dice import ManualFaces, RollingDice
from service.ruleset import refuse_dice_not_rolled
from service.rulesets.aeonis_combat.commands import Attack, Defend, Fight
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    faces,
    play,
    state_after,
    strikes,
    world,
)
from tests.unit.deciders import given


def test_aec_14_an_attack_declared_with_a_die_is_refused() -> None:
    attack = Attack(side="red", hex=TARGET, commit=("b-cav", "b-inf"), line=("b-cav", "b-inf"))
    refused = (
        given(RULESET, *world())
        .when(attack, manual=[[4]])
        .rejected(match=r"^No die is rolled: dice are rolled only when a battle round is fought")
    )
    assert refused.rule == "AEC-14"


def test_aec_a3_faces_for_a_striker_left_without_a_target_are_kept_unused() -> None:
    history = world()
    history += play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "b-inf"), line=("b-cav", "b-inf")),
            Defend(side="blue", hex=TARGET, commit=(), line=("t-inf-1",)),
        ],
        history=history,
    )
    # b-cav destroys t-inf-1 and b-inf the promoted t-inf-2: nobody is left to
    # counterstrike, so the pair of faces the table threw for a counterstrike is not needed.
    dice = RollingDice(ManualFaces(faces(6, 1, 6, 1, 3, 3)), next_roll_number=1)
    events = RULESET.decide(state_after(history), Fight(side="red", hex=TARGET), dice)
    refuse_dice_not_rolled(dice, Fight(side="red", hex=TARGET))
    assert [s[:3] for s in strikes(events)] == [
        ("strike", "b-cav", "t-inf-1"),
        ("strike", "b-inf", "t-inf-2"),
    ]
    assert [r.dice[0].face for r in dice.unused_records()] == [3, 3]


def test_a_strike_line_names_the_opposing_totals_not_roll_ids() -> None:
    """Both dice of a strike are said with the total they stand against (roll
    transparency): "= 6 vs 1", not "vs roll r2"."""
    history = world()
    history += play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav",), line=("b-cav",)),
            Defend(side="blue", hex=TARGET, commit=(), line=("t-inf-1",)),
        ],
        history=history,
    )
    state = state_after(history)
    fight = Fight(side="red", hex=TARGET)
    (fought, *_) = given(RULESET, *history).when(fight, faces(5, 2, 1, 3)).events
    line = RULESET.narrate(state, fought)
    assert "vs roll" not in line
    assert " = 5 vs 2: hit" in line and " = 2 vs 5: pierced" in line
    assert " = 1 vs 3: no damage" in line and " = 3 vs 1: held" in line
