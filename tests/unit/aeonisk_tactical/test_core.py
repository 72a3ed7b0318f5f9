"""The core task roll (AEK-01..05), success tiers (AEK-A32), the +/-6 cap (AEK-A9) and
INIT-0 halving (AEK-08, AEK-A6)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import Check
from service.rulesets.aeonisk_tactical.events import CheckRolled
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, rolls_of

CLIMB = Check(character="alice", label="Climb", attribute="agility", skill="athletics", dc=20)


def _table(options: AeoniskOptions | None = None) -> Table:
    table = Table(options)
    table.setup(alice(), goblin(), bands={})
    return table


def test_attribute_times_skill_plus_d20_against_a_difficulty() -> None:
    events = _table().do(CLIMB, [8])  # 4 x 3 + 8 = 20
    (record,) = rolls_of(events)
    assert record.modifiers == (Modifier("Agility 4 x Athletics 3", 12),)
    assert (record.total, record.target, record.outcome) == (20, 20, "success")
    assert events[0] == CheckRolled(
        character="alice", label="Climb", outcome="success", tiers=0, rolls=(record,)
    )


def test_below_the_difficulty_fails() -> None:
    (event,) = _table().do(CLIMB, [7])
    assert isinstance(event, CheckRolled) and event.outcome == "failure"


def test_every_full_ten_over_the_target_is_a_success_tier() -> None:
    table = _table()
    hard = Check(character="alice", label="Leap", attribute="agility", skill="athletics", dc=10)
    (event,) = table.do(hard, [19])  # 31 vs 10: +21 -> 2 tiers
    assert isinstance(event, CheckRolled) and event.tiers == 2
    assert event.rolls[0].outcome == "success +2 tiers"
    assert table.narrated([event]) == [
        "Alice rolls 1d20 for Leap: d20 [19] +12 Agility 4 x Athletics 3 = 31 vs 10: "
        "success +2 tiers (manual)"
    ]


def test_situational_modifiers_are_capped_at_plus_or_minus_6() -> None:
    check = Check(
        character="alice",
        label="Climb",
        attribute="agility",
        skill="athletics",
        dc=30,
        modifiers=(Modifier("rope", 4), Modifier("help", 4)),
    )
    (record,) = rolls_of(_table().do(check, [10]))
    assert record.modifiers[-1] == Modifier("±6 cap", -2)
    assert record.total == 12 + 10 + 6


def test_the_cap_can_be_switched_off() -> None:
    check = Check(
        character="alice",
        label="Climb",
        attribute="agility",
        skill="athletics",
        dc=30,
        modifiers=(Modifier("rope", 4), Modifier("help", 4)),
    )
    table = _table(AeoniskOptions(modifier_cap_scope="off"))
    (record,) = rolls_of(table.do(check, [10]))
    assert record.total == 30


def test_init_zero_halves_skill_checks_after_all_modifiers_rounding_down() -> None:
    table = _table()
    table.start_round(1, 10)  # Alice rolls a natural 1: INIT 0
    (record,) = rolls_of(table.do(CLIMB, [9]))  # 12 + 9 = 21 -> 10
    assert record.modifiers[-1] == Modifier("INIT 0: halved", -11)
    assert (record.total, record.outcome) == (10, "failure")


def test_halving_can_round_up() -> None:
    table = _table(AeoniskOptions(halve_rounding="ceil"))
    table.start_round(1, 10)
    (record,) = rolls_of(table.do(CLIMB, [9]))
    assert record.total == 11


def test_a_check_names_traits_on_the_sheet() -> None:
    table = _table()
    bad = Check(character="alice", label="Hack", attribute="agility", skill="hacking", dc=20)
    table.refuse(bad, "Alice has no 'hacking' on the sheet")
    table.refuse(
        Check(character="nobody", label="x", attribute="a", skill="b", dc=1), "no character"
    )
