"""A campaign's figures add its encounters up in one Tally (projections/campaign_stats.py):
nothing of one encounter's turn or command runs on into the next."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.combat_facts import Attack, Damage, TurnBegun
from service.combat_stats import Tally

START = datetime(2030, 1, 1, tzinfo=UTC)


def test_a_turn_left_open_at_the_end_of_a_fight_is_not_timed_into_the_next() -> None:
    tally = Tally()
    tally.add([TurnBegun(combatant="aria")], [], START, "first fight")
    tally.next_stream()
    later = START + timedelta(days=3)
    tally.add([TurnBegun(combatant="borin")], [], later, "second fight")
    tally.add([TurnBegun(combatant="aria")], [], later + timedelta(seconds=30), "next turn")
    by = {c.combatant: c for c in tally.result(9).combatants}
    assert (by["aria"].turns, by["aria"].turn_seconds, by["aria"].mean_turn_seconds) == (2, 0, None)
    assert (by["borin"].turn_seconds, by["borin"].mean_turn_seconds) == (30, 30)


def test_an_attack_is_not_credited_with_the_next_fights_damage() -> None:
    tally = Tally()
    same_command = ("at", "one command")
    tally.add([Attack(attacker="aria", target="goblin", hit=True)], [], START, same_command)
    tally.next_stream()
    hit = Damage(target="goblin", amount=4, source=None, by_attack=True)
    tally.add([hit], [], START, same_command)  # equal command keys in two encounters
    result = tally.result(2)
    assert {c.combatant: c.damage_dealt for c in result.combatants} == {"aria": 0, "goblin": 0}
    assert result.unattributed_damage == 4
