"""Wounds and stress as parallel thresholds: UAE-14..UAE-25, UAE-A3, UAE-A13, UAE-A14,
UAE-A16, UAE-A17, UAE-A18."""

from __future__ import annotations

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.options import UntoldOptions
from service.rulesets.untold_aeons.state import Hardened
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import play, round_one, state_of, table


def _set(who: str, field: str, value: int) -> cmd.Rule:
    return cmd.Rule(
        ruling=cmd.SetValue(character=who, field=field, value=value),  # type: ignore[arg-type]
        reason="earlier",
    )


def sanity(difficulty: int = 3, who: str = "jonah") -> cmd.SanityCheck:
    return cmd.SanityCheck(
        character=who, cause="the Horror", difficulty=difficulty, category="unnatural"
    )


def test_uae_14_success_gains_the_difficulty() -> None:
    (checked,) = given(RULESET, *table()).when(sanity(2), manual=[[6, 3, 3, 5, 3]]).events
    assert isinstance(checked, ev.SanityChecked)
    assert (checked.succeeded, checked.gained, checked.stress_after) == (True, 2, 2)


def test_uae_14_a15_failure_gains_difficulty_plus_failures_before_cancelling() -> None:
    (checked,) = given(RULESET, *table()).when(sanity(3), manual=[[6, 3, 3, 6, 5, 3]]).events
    assert isinstance(checked, ev.SanityChecked)
    assert (checked.succeeded, checked.computed, checked.gained) == (False, 6, 6)


def test_uae_16_above_the_limit_intellect_roll_one_die_per_point_failure_shaken() -> None:
    events = play([_set("jonah", "stress", 11)], events=table())
    made = (
        given(RULESET, *events).when(sanity(3), manual=[[5, 3, 3, 5, 3, 3], [3, 3, 3, 6, 3]]).events
    )
    check = made[1]
    assert isinstance(check, ev.LimitChecked)
    # a tie fails: 11 + 3 + 1 = 15, Stress Limit 13: 2 over, 2 difficulty dice
    assert (check.value, check.difficulty, check.passed, check.shaken_after) == (15, 2, False, True)


def test_uae_16_success_nothing_happens_but_rolls_again_on_more_stress() -> None:
    events = play([_set("jonah", "stress", 13)], events=table())
    made = given(RULESET, *events).when(sanity(1), manual=[[5, 3, 3, 3], [6, 3, 3, 3]]).events
    assert isinstance(made[1], ev.LimitChecked) and made[1].passed
    again = play([(sanity(1), [[5, 3, 3, 3], [6, 3, 3, 3]])], events=events)  # 14
    more = given(RULESET, *again).when(sanity(1), manual=[[5, 3, 3, 3], [3, 3, 3, 3, 3]]).events
    assert isinstance(more[1], ev.LimitChecked) and more[1].difficulty == 2  # 15


def test_uae_a3_exactly_at_the_limit_no_check_with_gt_a_zero_die_check_with_ge() -> None:
    events = play([_set("jonah", "stress", 12)], events=table())
    assert len(given(RULESET, *events).when(sanity(1), manual=[[5, 3, 3, 3]]).events) == 1
    ge = UntoldOptions(threshold_compare="ge")
    events = play([_set("jonah", "stress", 12)], events=table(ge), options=ge)
    made = (
        given(RULESET, *events, options=ge).when(sanity(1), manual=[[5, 3, 3, 3], [3, 3, 3]]).events
    )
    assert isinstance(made[1], ev.LimitChecked)
    assert (made[1].difficulty, made[1].passed) == (0, False)  # no success: a tie 0-0 fails


def test_uae_17_a17_shaken_is_minus_one_on_every_roll_until_below_the_limit() -> None:
    events = play(
        [
            _set("jonah", "stress", 14),
            cmd.Rule(ruling=cmd.SetStatus(character="jonah", status="shaken"), reason="x"),
        ],
        events=table(),
    )
    (checked,) = given(RULESET, *events).when(sanity(1), manual=[[5, 3, 3]]).events
    assert isinstance(checked, ev.SanityChecked)
    assert checked.rolls[0].notation == "2d6+1d6"  # Willpower 3 - 1
    assert checked.rolls[0].pool is not None
    assert checked.rolls[0].pool.skill == "Willpower 3 -1 Shaken"
    recovered = (
        given(RULESET, *events)
        .when(cmd.DailyRecovery(character="jonah", track="stress"), manual=[[6, 5]])
        .events
    )
    assert isinstance(recovered[0], ev.Recovered)
    # 14 is above 13: half of 3 successes = 1: 13, not below the limit: still Shaken
    assert (recovered[0].after, recovered[0].shaken_after) == (13, True)


def test_uae_17_20_advantage_while_shaken_gains_a_notch_including_the_tipping_check() -> None:
    events = play([_set("jonah", "stress", 12)], events=table())
    made = (
        given(RULESET, *events)
        .when(sanity(3), manual=[[5, 1, 3, 6, 5, 2], [2, 3, 1, 5, 5, 6, 2, 2]])
        .events
    )
    assert [type(e) for e in made] == [ev.SanityChecked, ev.LimitChecked, ev.NotchGained]
    assert made[2] == ev.NotchGained(character="jonah", category="unnatural", notches=1, level=0)


def test_uae_20_a16_three_notches_make_a_level_that_reduces_stress() -> None:
    events = play(
        [
            _set("jonah", "stress", 20),
            cmd.Rule(ruling=cmd.SetStatus(character="jonah", status="shaken"), reason="x"),
        ],
        events=table(),
    )
    for _ in range(3):
        # Willpower 3 - 1 Shaken = 2 dice; an Advantage; 20+ is below 26: no save
        events = play([(sanity(0), [[1, 3]])], events=events)
    jonah = state_of(events).characters["jonah"]
    assert jonah.hardened["unnatural"] == Hardened(level=1, notches=0)
    (checked,) = given(RULESET, *events).when(sanity(2), manual=[[3, 3, 3, 3]]).events
    assert isinstance(checked, ev.SanityChecked)
    assert (checked.computed, checked.hardened, checked.gained) == (2, 1, 1)


def test_uae_18_twice_the_limit_intellect_save_or_break() -> None:
    events = play(
        [
            _set("jonah", "stress", 25),
            cmd.Rule(ruling=cmd.SetStatus(character="jonah", status="shaken"), reason="x"),
        ],
        events=table(),
    )
    made = given(RULESET, *events).when(sanity(2), manual=[[5, 3, 3, 3], [3, 3, 3]]).events
    save = made[1]
    assert isinstance(save, ev.LimitChecked)
    # 27 is 1 over 26: Intellect 3 - 1 Shaken against 1 die
    assert (save.level, save.difficulty, save.passed, save.status_after) == (
        "twice",
        1,
        False,
        "broken",
    )


def test_uae_19_a18_daily_stress_recovery_below_and_at_the_limit() -> None:
    below = play([_set("jonah", "stress", 5)], events=table())
    (r,) = (
        given(RULESET, *below)
        .when(cmd.DailyRecovery(character="jonah", track="stress"), manual=[[6, 5, 3]])
        .events
    )
    assert isinstance(r, ev.Recovered) and (r.amount, r.after, r.halved) == (3, 2, False)
    at = play([_set("jonah", "stress", 13)], events=table())
    (r,) = (
        given(RULESET, *at)
        .when(cmd.DailyRecovery(character="jonah", track="stress"), manual=[[6, 5, 3]])
        .events
    )
    assert isinstance(r, ev.Recovered) and (r.amount, r.halved) == (1, True)
    full = UntoldOptions(recovery_at_limit="full")
    at = play([_set("jonah", "stress", 13)], events=table(full), options=full)
    (r,) = (
        given(RULESET, *at, options=full)
        .when(cmd.DailyRecovery(character="jonah", track="stress"), manual=[[6, 5, 3]])
        .events
    )
    assert isinstance(r, ev.Recovered) and r.amount == 3


def test_uae_25_natural_healing() -> None:
    events = play([_set("mara", "damage", 20)], events=table())
    (r,) = (
        given(RULESET, *events)
        .when(cmd.DailyRecovery(character="mara", track="wounds"), manual=[[6, 6, 5]])
        .events
    )
    assert isinstance(r, ev.Recovered) and (r.amount, r.after) == (2, 18)
    given(RULESET, *table()).when(cmd.DailyRecovery(character="mara", track="wounds")).rejected(
        match="Mara has no wounds to recover"
    )


def _severe(events: list[ev.Event], damage: int) -> list[ev.Event]:
    return play(
        [
            _set("cultist", "damage", damage),
            cmd.Rule(
                ruling=cmd.SetStatus(character="cultist", status="severely_injured"), reason="x"
            ),
        ],
        events=events,
    )


def test_uae_22_a13_severely_injured_bleeds_each_round_and_cannot_act() -> None:
    events = play(
        [cmd.EndTurn(character=c) for c in ("mara", "jonah", "cultist", "horror")],
        events=round_one(),
    )
    events = _severe(events, 14)
    made = given(RULESET, *events).when(cmd.BeginRound()).events
    assert made[1] == ev.Bled(character="cultist", damage_after=15)
    started = play([cmd.BeginRound()], events=events)
    given(RULESET, *started).when(cmd.ChooseTurn(character="cultist", speed="fast")).rejected(
        match="the Cultist is Severely Injured and cannot act"
    )


def test_uae_a13_minute_option_leaves_bleeding_to_the_narrator() -> None:
    minute = UntoldOptions(severe_bleed_interval="minute")
    events = play(
        [cmd.EndTurn(character=c) for c in ("mara", "jonah", "cultist", "horror")],
        events=round_one(options=minute),
        options=minute,
    )
    events = play(
        [
            _set("cultist", "damage", 14),
            cmd.Rule(
                ruling=cmd.SetStatus(character="cultist", status="severely_injured"), reason="x"
            ),
        ],
        events=events,
        options=minute,
    )
    assert len(given(RULESET, *events, options=minute).when(cmd.BeginRound()).events) == 1
    assert given(RULESET, *events, options=minute).when(cmd.Bleed(character="cultist")).events


def test_uae_23_above_twice_the_limit_save_or_die_on_every_damage_including_bleeding() -> None:
    events = _severe(table(), 24)
    made = given(RULESET, *events).when(cmd.Bleed(character="cultist"), manual=[[3, 3, 5]]).events
    assert made[0] == ev.Bled(character="cultist", damage_after=25)
    save = made[1]
    assert isinstance(save, ev.LimitChecked)
    assert (save.level, save.difficulty, save.passed, save.status_after) == (
        "twice",
        1,
        False,
        "dead",
    )


def test_uae_a14_both_checks_in_order_when_damage_jumps_past_both() -> None:
    events = play(
        [
            cmd.EndTurn(character="mara"),
            cmd.EndTurn(character="jonah"),
            _set("mara", "damage", 20),
            cmd.Attack(attacker="horror", target="mara", weapon="claws"),
        ],
        events=round_one(),
    )
    made = (
        given(RULESET, *events)
        .when(
            cmd.Respond(character="mara", response="defend"),
            manual=[[6, 6, 6], [3, 3], [6, 6, 6] + [3] * 18, [3, 3, 3] + [3] * 5],
        )
        .events
    )
    checks = [e for e in made if isinstance(e, ev.LimitChecked)]
    # 20 + (7 base + 6 successes - 2) = 31: 18 over 13, 5 over 26
    assert [(c.level, c.value, c.difficulty) for c in checks] == [
        ("limit", 31, 18),
        ("twice", 31, 5),
    ]
    assert checks[0].passed and not checks[1].passed


def test_bleed_refusals() -> None:
    given(RULESET, *table()).when(cmd.Bleed(character="mara")).rejected(
        match="Mara is not Severely Injured"
    )
    events = play(
        [
            cmd.Rule(
                ruling=cmd.SetCondition(character="cultist", condition="medical_care"),
                reason="bandaged",
            )
        ],
        events=_severe(table(), 14),
    )
    given(RULESET, *events).when(cmd.Bleed(character="cultist")).rejected(
        match="the Cultist has medical care and no longer bleeds"
    )


def test_uae_24_narrator_calls_stress_after_injury_and_dead_refuse() -> None:
    dead = play(
        [cmd.Rule(ruling=cmd.SetStatus(character="jonah", status="dead"), reason="x")],
        events=table(),
    )
    given(RULESET, *dead).when(sanity(1)).rejected(match="Jonah is dead")
    given(RULESET, *dead).when(cmd.DailyRecovery(character="jonah", track="stress")).rejected(
        match="Jonah is dead"
    )
