"""Evaluating notation with known faces: keep/drop, explosions, successes, signs, ids."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.dice import (
    MAX_EXPLOSION_DICE,
    Dice,
    DieResult,
    ManualFaces,
    Modifier,
    RollingDice,
    RollRecord,
    ServerFaces,
    explosion_limit_reached,
)


def manual(notation: str, faces: Sequence[int], **kw: object) -> RollRecord:
    dice = RollingDice(ManualFaces([faces]), next_roll_number=1)
    record = dice.roll(notation, purpose="test", **kw)  # type: ignore[arg-type]
    dice.ensure_all_used()
    return record


def die(face: int, sides: int = 6, term: int = 0, **kw: bool | None) -> DieResult:
    return DieResult(term=term, sides=sides, face=face, **kw)  # type: ignore[arg-type]


def test_rolling_dice_is_a_dice() -> None:
    dice: Dice = RollingDice(ManualFaces([]), next_roll_number=1)
    assert dice is not None


def test_plain_roll_with_constant_and_labelled_modifiers() -> None:
    record = manual("1d20+5", [14], modifiers=(Modifier("Bless", 2),), roller="alice", target=15)
    assert record.dice == (die(14, 20),)
    assert record.modifiers == (Modifier("notation", 5), Modifier("Bless", 2))
    assert record.total == 21
    assert record.successes is None
    assert (record.roller, record.purpose, record.target) == ("alice", "test", 15)
    assert (record.source, record.epoch, record.index, record.hidden) == (
        "manual",
        None,
        None,
        False,
    )
    assert record.notation == "1d20+5"


def test_one_modifier_per_constant_in_order() -> None:
    record = manual("2d6 + 3 - 1 + 1d4 - 2", [1, 2, 3])
    assert record.modifiers == (
        Modifier("notation", 3),
        Modifier("notation", -1),
        Modifier("notation", -2),
    )
    assert [d.term for d in record.dice] == [0, 0, 1]
    assert record.total == 1 + 2 + 3 + 3 - 1 - 2


def test_subtracted_dice_terms() -> None:
    record = manual("1d20-1d4+2", [10, 3])
    assert record.dice == (die(10, 20, 0), die(3, 4, 1))
    assert record.total == 10 - 3 + 2


@pytest.mark.parametrize(
    ("notation", "faces", "kept", "total"),
    [
        ("4d6kh3", [3, 6, 1, 4], [True, True, False, True], 13),
        ("4d6k3", [3, 6, 1, 4], [True, True, False, True], 13),
        ("4d6dl1", [3, 6, 1, 4], [True, True, False, True], 13),
        ("4d6kl1", [3, 6, 1, 4], [False, False, True, False], 1),
        ("4d6dh1", [3, 6, 1, 4], [True, False, True, True], 8),
        ("2d20kl1", [17, 4], [False, True], 4),
        ("2d20kh1", [9, 9], [True, False], 9),  # ties keep the earlier die
        ("2d20kl1", [9, 9], [True, False], 9),
        ("1d20kh1", [7], [True], 7),
    ],
)
def test_keep_and_drop(notation: str, faces: list[int], kept: list[bool], total: int) -> None:
    record = manual(notation, faces)
    assert [d.kept for d in record.dice] == kept
    assert record.total == total


def test_explosion_chain() -> None:
    record = manual("1d6!+1", [6, 6, 2])
    assert record.dice == (die(6, exploded=True), die(6, exploded=True), die(2))
    assert record.total == 15
    assert not explosion_limit_reached(record)


def test_explosion_dice_follow_the_die_that_caused_them_and_join_keep() -> None:
    record = manual("3d6!kh2", [6, 1, 6, 3, 2])
    # die 1: 6 -> explosion die 1 follows; die 2: 6 -> explosion die 3 follows; die 3: 2
    assert [d.face for d in record.dice] == [6, 1, 6, 3, 2]
    assert [d.exploded for d in record.dice] == [True, False, True, False, False]
    assert [d.kept for d in record.dice] == [True, False, True, False, False]
    assert record.total == 12


def test_explosions_stop_at_the_limit_and_the_record_shows_it() -> None:
    faces = [6] * (MAX_EXPLOSION_DICE + 1)
    record = manual("1d6!", faces)
    assert len(record.dice) == MAX_EXPLOSION_DICE + 1
    assert sum(d.exploded for d in record.dice) == MAX_EXPLOSION_DICE
    assert not record.dice[-1].exploded
    assert record.total == 6 * (MAX_EXPLOSION_DICE + 1)
    assert explosion_limit_reached(record)


def test_explosion_limit_counts_the_whole_roll() -> None:
    faces = [6] * 60 + [1] + [6] * 40 + [2]
    record = manual("1d6!+1d6!", faces)
    assert len(record.dice) == 102
    assert sum(d.exploded for d in record.dice) == MAX_EXPLOSION_DICE
    assert record.dice[-1] == die(2, term=1)


@pytest.mark.parametrize(
    ("notation", "faces", "successes", "total"),
    [
        ("6d6>=5", [5, 2, 6, 1, 3, 5], 3, 3),
        ("8d6>4", [5, 4, 6, 1, 3, 4, 2, 5], 3, 3),
        ("6d6>=5+1", [5, 2, 6, 1, 3, 5], 3, 4),
        ("3d6>=5-1", [1, 2, 3], 0, -1),
        ("3d6>=5+2d10>=8", [5, 2, 6, 8, 7], 3, 3),
    ],
)
def test_success_counting(notation: str, faces: list[int], successes: int, total: int) -> None:
    record = manual(notation, faces)
    assert record.successes == successes
    assert record.total == total
    assert all(d.success is not None for d in record.dice)


def test_success_with_explosion_and_keep() -> None:
    record = manual("3d6!>=5", [6, 2, 1, 5])
    assert [d.success for d in record.dice] == [True, False, False, True]
    assert record.successes == 2
    kept = manual("4d6kl2>=4", [6, 5, 1, 4])
    # dropped dice still say whether they met the threshold, but are not counted
    assert [(d.kept, d.success) for d in kept.dice] == [
        (False, True),
        (False, True),
        (True, False),
        (True, True),
    ]
    assert kept.successes == 1


def test_success_plus_caller_modifier() -> None:
    record = manual("4d6>=5", [5, 5, 1, 1], modifiers=(Modifier("talent", 1),))
    assert (record.successes, record.total) == (2, 3)


def test_roll_ids_count_up_and_records_are_kept_in_order() -> None:
    dice = RollingDice(ManualFaces([[3], [4], [5]]), next_roll_number=7, hidden=True)
    ids = [dice.roll("d6", purpose=p).roll_id for p in ("a", "b", "c")]
    assert ids == ["r7", "r8", "r9"]
    assert [r.purpose for r in dice.records] == ["a", "b", "c"]
    assert all(r.hidden for r in dice.records)
    assert dice.next_roll_number == 10
    assert dice.next_index is None


def test_server_rolls_carry_epoch_and_first_index() -> None:
    dice = RollingDice(ServerFaces(bytes(32), "table", 3, 10), next_roll_number=1)
    first = dice.roll("4d6kh3", purpose="a")
    second = dice.roll("1d20", purpose="b")
    assert (first.source, first.epoch, first.index) == ("server", 3, 10)
    assert (second.epoch, second.index) == (3, 14)
    assert dice.next_index == 15


SEEDS = st.binary(min_size=32, max_size=32)


@settings(deadline=1000, max_examples=60)
@given(SEEDS, st.integers(1, 30), st.integers(2, 100))
def test_plain_total_between_n_and_n_times_m(seed: bytes, n: int, m: int) -> None:
    record = RollingDice(ServerFaces(seed, "c", 0, 0), next_roll_number=1).roll(
        f"{n}d{m}", purpose="p"
    )
    assert n <= record.total <= n * m
    assert len(record.dice) == n
    assert all(d.kept and not d.exploded and d.success is None for d in record.dice)


@settings(deadline=1000, max_examples=60)
@given(SEEDS, st.integers(2, 20), st.data())
def test_keep_highest_keeps_the_best(seed: bytes, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, n - 1))
    record = RollingDice(ServerFaces(seed, "c", 0, 0), next_roll_number=1).roll(
        f"{n}d6kh{k}", purpose="p"
    )
    kept = sorted((d.face for d in record.dice if d.kept), reverse=True)
    assert len(kept) == k
    assert kept == sorted((d.face for d in record.dice), reverse=True)[:k]
    assert record.total == sum(kept)


@settings(deadline=1000, max_examples=60)
@given(SEEDS, st.integers(1, 20), st.integers(2, 6))
def test_explosion_invariants(seed: bytes, n: int, m: int) -> None:
    record = RollingDice(ServerFaces(seed, "c", 0, 0), next_roll_number=1).roll(
        f"{n}d{m}!", purpose="p"
    )
    exploded = [d for d in record.dice if d.exploded]
    assert len(record.dice) == n + len(exploded)
    assert all(d.face == m for d in exploded)
    assert all(d.exploded for d in record.dice if d.face == m) or explosion_limit_reached(record)
    assert record.total == sum(d.face for d in record.dice)


@settings(deadline=1000, max_examples=60)
@given(SEEDS, st.integers(1, 40), st.integers(1, 6))
def test_success_count_invariants(seed: bytes, n: int, t: int) -> None:
    record = RollingDice(ServerFaces(seed, "c", 0, 0), next_roll_number=1).roll(
        f"{n}d6>={t}", purpose="p"
    )
    assert record.successes == sum(d.face >= t for d in record.dice)
    assert 0 <= record.total <= n
