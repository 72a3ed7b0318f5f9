"""The dice pool (service/dice/pool.py): UAE-06..UAE-10, UAE-A8, UAE-A9, UAE-A15."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.dice import ManualFaces, RollingDice
from service.dice.announce import announce
from service.dice.pool import count, mark, notation, speak

faces = st.lists(st.integers(min_value=1, max_value=6), max_size=12)


def test_uae_07_fives_and_sixes_count_one_and_two_on_both_pools() -> None:
    s = count([6, 5, 4], [6, 5, 2], skill="Firearms 3")
    assert (s.successes, s.failures) == (3, 3)


def test_uae_08_a_tie_fails_and_more_successes_succeed() -> None:
    assert count([5], [5], skill="x").succeeded is False
    assert count([6], [5], skill="x").succeeded is True
    assert count([4], [], skill="x").succeeded is False  # 0 against 0 is a tie


def test_uae_09_advantages_and_drawbacks_cancel_and_do_not_change_success() -> None:
    s = count([1, 1, 5], [1, 2], skill="x")
    assert (s.advantages, s.drawbacks, s.net_advantages, s.net_drawbacks) == (2, 1, 1, 0)
    assert s.succeeded is True
    s = count([1, 6], [1, 1, 1], skill="x")
    assert (s.net_advantages, s.net_drawbacks, s.succeeded) == (0, 2, True)


def test_uae_10_untrained_die_succeeds_once_on_a_six_and_never_gives_advantage() -> None:
    assert count([6], [], skill="x", untrained=True).successes == 1
    s = count([1], [1], skill="x", untrained=True)
    assert (s.advantages, s.drawbacks, s.net_drawbacks) == (0, 1, 1)
    assert count([5], [], skill="x", untrained=True).successes == 0


def test_uae_a15_failures_before_cancelling_are_the_sum_of_difficulty_values() -> None:
    s = count([6, 6], [6, 5], skill="x")
    assert (s.failures, s.net_failures, s.net_successes) == (3, 0, 1)


def test_spoken_line_and_ledger_labels_of_the_brief() -> None:
    dice = RollingDice(ManualFaces([[6, 5, 1, 5, 2]]), next_roll_number=1)
    record = mark(
        dice.roll(notation(3, 2), purpose="", roller="mara"), skill_dice=3, skill="Firearms 3"
    )
    assert speak(record, name="Mara") == (
        "Mara rolls Firearms 3 against difficulty 2: 6 5 1 vs 5 2 -> 3 successes, 1 failure, "
        "1 Advantage: success with Advantage (manual)"
    )
    assert announce(record, name="Mara") == speak(record, name="Mara")
    assert [d.pool for d in record.dice] == ["skill"] * 3 + ["difficulty"] * 2
    assert [d.counts for d in record.dice] == [
        "2 successes",
        "1 success",
        "Advantage",
        "1 failure",
        "nothing",
    ]
    assert record.pool is not None and record.pool.net_successes == 2
    assert [d.face for d in record.dice] == [6, 5, 1, 5, 2]  # order kept: fairness


def test_a_difficulty_pool_rolled_apart_counts_against_the_skill_faces() -> None:
    dice = RollingDice(ManualFaces([[6, 1]]), next_roll_number=2)
    record = mark(
        dice.roll("2d6", purpose="", roller=None),
        skill_dice=0,
        skill="Perception 2",
        other_skill=(5, 3),
        skill_roll="r1",
    )
    assert record.pool is not None
    assert (record.pool.successes, record.pool.failures, record.pool.drawbacks) == (1, 2, 1)
    assert record.outcome == "failure with Drawback" and record.opposed_by == "r1"


@given(faces, faces, st.randoms())
def test_counting_a_pool_is_independent_of_die_order(
    skill: list[int], difficulty: list[int], rnd: object
) -> None:
    import random

    assert isinstance(rnd, random.Random)
    shuffled_skill, shuffled_difficulty = skill[:], difficulty[:]
    rnd.shuffle(shuffled_skill)
    rnd.shuffle(shuffled_difficulty)
    assert count(skill, difficulty, skill="x") == count(
        shuffled_skill, shuffled_difficulty, skill="x"
    )


@given(faces, faces)
def test_a_tie_always_fails(skill: list[int], difficulty: list[int]) -> None:
    s = count(skill, difficulty, skill="x")
    if s.successes == s.failures:
        assert s.succeeded is False
    assert s.succeeded == (s.successes > s.failures)
    assert s.net_successes - s.net_failures == s.successes - s.failures
