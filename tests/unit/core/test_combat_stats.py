"""The statistics tally and its chi-square test, with plain data."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from service.combat_facts import Attack, Damage, Healing, TurnBegun, TurnEnded
from service.combat_stats import Tally, chi_square_p_value, die_stats
from service.dice.model import DieResult, RollRecord

T0 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("statistic", "freedom", "p"),
    [
        (3.841459, 1, 0.05),  # the textbook critical values
        (6.634897, 1, 0.01),
        (11.070498, 5, 0.05),
        (30.143527, 19, 0.05),
        (0.554300, 5, 0.99),
        (0.0, 5, 1.0),
    ],
)
def test_the_p_value_matches_the_chi_square_tables(
    statistic: float, freedom: int, p: float
) -> None:
    assert chi_square_p_value(statistic, freedom) == pytest.approx(p, abs=1e-6)


def test_with_two_degrees_of_freedom_the_p_value_is_exp_of_minus_half_the_statistic() -> None:
    for x in (0.1, 1.0, 2.5, 9.0, 40.0):
        assert chi_square_p_value(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)


def test_a_die_that_shows_only_sixes_is_flagged_and_a_flat_one_is_not() -> None:
    loaded = die_stats(6, [0, 0, 0, 0, 0, 60])
    assert loaded.chi_square == pytest.approx(300.0)
    assert loaded.p_value < 1e-50 and loaded.reliable
    flat = die_stats(6, [10] * 6)
    assert flat.chi_square == 0 and flat.p_value == 1.0
    few = die_stats(20, [1] * 20)
    assert not few.reliable  # 1 expected per face: too few for the test to say much


def _roll(roller: str | None, faces: list[int], sides: int, source: str = "server") -> RollRecord:
    return RollRecord(
        roll_id="r1",
        roller=roller,
        purpose="test",
        notation=f"{len(faces)}d{sides}",
        dice=tuple(DieResult(term=0, sides=sides, face=f) for f in faces),
        total=sum(faces),
        source="manual" if source == "manual" else "server",
    )


def test_damage_by_an_attack_is_credited_to_its_attacker_within_the_command_only() -> None:
    tally = Tally()
    tally.add([Attack(attacker="aria", target="grak", hit=True)], [], T0, "c1")
    tally.add([Damage(target="grak", amount=7, by_attack=True)], [], T0, "c1")
    tally.add([Damage(target="grak", amount=3, by_attack=True)], [], T0, "c2")  # the GM's
    tally.add([Damage(target="aria", amount=2, source="grak")], [], T0, "c3")
    tally.add([Healing(target="grak", amount=4, source="borin")], [], T0, "c4")
    stats = {s.combatant: s for s in tally.result(9).combatants}
    assert stats["aria"].damage_dealt == 7 and stats["aria"].damage_taken == 2
    assert stats["grak"].damage_taken == 10 and stats["grak"].damage_dealt == 2
    assert stats["grak"].healing_received == 4 and stats["borin"].healing_done == 4
    assert stats["aria"].attacks == stats["aria"].hits == 1
    assert tally.result(9).unattributed_damage == 3


def test_turn_time_runs_from_one_turn_to_the_next_and_the_open_turn_is_not_averaged() -> None:
    tally = Tally()
    tally.add([TurnBegun(combatant="aria")], [], T0, "c1")
    tally.add([TurnBegun(combatant="grak")], [], T0 + timedelta(seconds=30), "c2")
    tally.add([TurnBegun(combatant="aria")], [], T0 + timedelta(seconds=40), "c3")
    stats = {s.combatant: s for s in tally.result(3).combatants}
    assert stats["aria"].turns == 2 and stats["aria"].turn_seconds == 30
    assert stats["aria"].mean_turn_seconds == 30  # one ended turn of 30 s; one still open
    assert stats["grak"].turns == 1 and stats["grak"].mean_turn_seconds == 10


def test_faces_are_counted_per_die_size_and_per_source() -> None:
    tally = Tally()
    tally.add([], [_roll("aria", [20], 20), _roll("aria", [3, 4], 6, "manual")], T0, "c1")
    tally.add([], [_roll(None, [1], 20)], T0, "c2")
    result = tally.result(2)
    assert [(d.sides, d.dice) for d in result.dice.server] == [(20, 2)]
    assert result.dice.server[0].faces[0] == 1 and result.dice.server[0].faces[19] == 1
    assert [(d.sides, d.faces) for d in result.dice.manual] == [(6, [0, 0, 1, 1, 0, 0])]
    assert result.rolls == 3
    assert {s.combatant: s.rolls for s in result.combatants} == {"aria": 2}


def test_turns_that_only_end_are_timed_from_the_turn_ended_before() -> None:
    tally = Tally()
    tally.add([TurnEnded(combatant="ada")], [], T0, "c1")  # no earlier end: not timed
    tally.add([TurnEnded(combatant="ben")], [], T0 + timedelta(seconds=12), "c2")
    tally.add([TurnEnded(combatant="ada")], [], T0 + timedelta(seconds=20), "c3")
    stats = {s.combatant: s for s in tally.result(3).combatants}
    assert (stats["ada"].turns, stats["ada"].turn_seconds, stats["ada"].mean_turn_seconds) == (
        2,
        8,
        8,
    )
    assert stats["ben"].mean_turn_seconds == 12
