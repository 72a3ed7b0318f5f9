"""Every number that changed a roll is on its record and its log line with its source:
the difficulty's parts as the skill side's (range UAE-32, a dive for cover UAE-33, the
Narrator's karma +2 difficulty UAE-05, UAE-A5) and Advantages and Drawbacks that cancel
(UAE-09)."""

from __future__ import annotations

from collections.abc import Sequence

from service.dice import pool
from service.dice.model import PoolSummary
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.options import UntoldOptions
from tests.unit.deciders import given, log_lines
from tests.unit.untold_aeons.fixtures import play, round_one


def said(before: Sequence[ev.Event], new: Sequence[ev.Event]) -> list[str]:
    return log_lines(RULESET, before, new)


def summary(events: Sequence[ev.Event]) -> PoolSummary:
    found = next(e for e in events if isinstance(e, ev.AttackResolved | ev.CheckRolled))
    assert found.rolls[0].pool is not None
    return found.rolls[0].pool


def test_uae_32_uae_33_a_dived_shot_names_range_and_dive_on_record_and_line() -> None:
    shot = play(
        [cmd.Attack(attacker="mara", target="cultist", weapon="revolver")], events=round_one()
    )
    new = (
        given(RULESET, *shot)
        .when(cmd.Respond(character="cultist", response="dive"), manual=[[6, 5, 1, 5, 2, 3]])
        .events
    )
    parts = (
        "2 range (10 yards, weapon range 20) +1 dive for cover (half of Dexterity 2, rounded up)"
    )
    assert summary(new).difficulty_label == parts
    assert (
        f"Mara rolls Firearms 3 against difficulty 3 = {parts} for the attack"
        in (said(shot, new)[0])
    )


def test_uae_05_a5_the_narrators_karma_difficulty_is_named_on_the_roll() -> None:
    events = play(
        [
            cmd.SpendKarma(use="difficulty", target="mara"),
            cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1),
        ],
        events=round_one(),
    )
    new = (
        given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[5, 3, 3, 3]]).events
    )
    assert summary(new).difficulty_dice == 3
    assert summary(new).difficulty_label == "1 +2 karma"
    assert (
        "Mara rolls Athletics 1 against difficulty 3 = 1 +2 karma for climbing"
        in (said(events, new)[0])
    )


def test_uae_a5_karma_counted_as_failures_is_named_too() -> None:
    options = UntoldOptions(karma_bonus_unit="successes")
    events = play(
        [
            cmd.SpendKarma(use="difficulty", target="mara"),
            cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1),
        ],
        events=round_one(options=options),
        options=options,
    )
    new = (
        given(RULESET, *events, options=options)
        .when(cmd.RollCheck(character="mara"), manual=[[5, 3]])
        .events
    )
    assert summary(new).difficulty_label == "1 +2 karma failures"


def test_uae_32_a_bare_difficulty_needs_no_parts() -> None:
    events = play(
        [cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1)],
        events=round_one(),
    )
    new = given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[5, 3]]).events
    assert summary(new).difficulty_label is None
    assert "Mara rolls Athletics 1 against difficulty 1 for climbing" in said(events, new)[0]


def test_uae_09_an_advantage_and_a_drawback_that_cancel_are_still_shown() -> None:
    events = play(
        [cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1)],
        events=round_one(),
    )
    new = given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[1, 1]]).events
    s = summary(new)
    assert (s.advantages, s.drawbacks, s.net_advantages, s.net_drawbacks) == (1, 1, 0, 0)
    assert (
        "1 vs 1 -> 0 successes, 0 failures, 1 Advantage and 1 Drawback cancel: failure"
        in (said(events, new)[0])
    )


def test_uae_09_what_is_left_after_cancelling_is_said_with_what_cancelled() -> None:
    counted = pool.count([1, 1, 5], [1], skill="Brawl 3")
    assert (
        pool.tally(counted)
        == "1 success, 0 failures, 2 Advantages and 1 Drawback: 1 Advantage left"
    )
