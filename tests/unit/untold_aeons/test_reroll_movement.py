"""Karma "reroll dice" on every roll a player makes (UAE-04, UAE-A6) and the paces of
movement (UAE-02): walking, the sustained run, the sprint."""

from __future__ import annotations

import msgspec

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.options import UntoldOptions
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import play, round_one, state_of

REROLL = cmd.SpendKarma(by="mara", use="reroll")
CLAW = cmd.Attack(attacker="horror", target="mara", weapon="claws")
SHOT = cmd.Attack(attacker="mara", target="cultist", weapon="revolver")


def _ruled(character: str, field: str, value: int) -> cmd.Rule:
    return cmd.Rule(
        ruling=cmd.SetValue(character=character, field=field, value=value),  # type: ignore[arg-type]
        reason="earlier",
    )


def npc_turns() -> list[ev.Event]:
    return play([cmd.EndTurn(character="mara"), cmd.EndTurn(character="jonah")], events=round_one())


def rerolled(events: list[ev.Event]) -> ev.RollRerolled:
    return next(e for e in events if isinstance(e, ev.RollRerolled))


def reroll(history: list[ev.Event], faces: list[list[int]]) -> list[ev.Event]:
    """Mara's karma reroll (roll ids from r100, apart from the history's)."""
    return given(RULESET, *history).when(REROLL, manual=faces, next_roll_number=100).events


def test_uae_04_a6_the_defender_rerolls_a_lost_dodge_and_the_damage_is_taken_back() -> None:
    # Mara's Dodge (Dexterity 3) 0 successes against the claws' 1: hit, 6 damage.
    clawed = play(
        [CLAW, (cmd.Respond(character="mara", response="dodge"), [[5, 2, 2], [2, 2, 2]])],
        events=npc_turns(),
    )
    assert state_of(clawed).characters["mara"].damage == 6
    made = reroll(clawed, [[6, 5, 3]])
    spent, again = made
    assert isinstance(spent, ev.KarmaSpent) and spent.use == "reroll"
    assert isinstance(again, ev.RollRerolled)
    # 3 successes against the Horror's kept 1: the Dodge wins; Mara is still prone.
    assert again.label == "Dodge against the Horror" and again.result == "defended"
    assert [r.notation for r in again.rolls] == ["3d6"] and len(again.sequence) == 2
    (mara,) = again.after
    assert (mara.character, mara.damage, mara.conditions) == ("mara", 0, ("prone",))
    after = state_of([*clawed, *made])
    assert after.characters["mara"].damage == 0 and after.karma_players == 1


def test_uae_04_a6_the_attacker_rerolls_a_missed_shot_and_the_wound_check_follows() -> None:
    # Revolver at 10 yards: difficulty 2 (UAE-32). The Cultist has 10 damage (limit 12).
    events = play([_ruled("cultist", "damage", 10), SHOT], events=round_one())
    missed = play(
        [(cmd.Respond(character="cultist", response="none"), [[3, 3, 3, 5, 2]])], events=events
    )
    assert next(e for e in missed if isinstance(e, ev.AttackResolved)).result == "miss"
    made = reroll(missed, [[6, 5, 1], [3, 3, 3, 3, 3, 3]])
    again = rerolled(made)
    shot, check = again.rolls
    # Own dice again, the difficulty dice [5, 2] kept: 3 successes, 1 failure, an
    # Advantage: a critical hit, base 2 x 2 + 3 = 7, less Toughness 2 - Piercing 1: 6.
    assert shot.notation == "3d6" and shot.pool is not None and shot.pool.failures == 1
    # 16 damage is above the limit: the wound check is asked for now (UAE-21) and fails.
    assert check.purpose == "the Cultist's wound check above the limit"
    assert again.result == ("hit: the Cultist takes 6; the Cultist's wounds check failed")
    (cultist,) = again.after
    assert (cultist.damage, cultist.status) == (16, "severely_injured")
    assert state_of([*missed, *made]).characters["cultist"].status == "severely_injured"


def test_uae_a6_the_last_roll_is_rerolled_a_wound_check_keeps_the_attack() -> None:
    # Mara at 12 damage (limit 13) loses a Dodge: 6 more, 18, the Toughness check with 5
    # difficulty dice fails: Severely Injured. Her last roll is that check.
    clawed = play(
        [
            _ruled("mara", "damage", 12),
            CLAW,
            (
                cmd.Respond(character="mara", response="dodge"),
                [[5, 2, 2], [2, 2, 2], [3, 3, 3, 3, 3, 3, 3, 3]],
            ),
        ],
        events=npc_turns(),
    )
    assert state_of(clawed).characters["mara"].status == "severely_injured"
    made = reroll(clawed, [[6, 3, 3]])
    again = rerolled(made)
    assert again.label == "Mara's wound check above the limit"
    assert [r.notation for r in again.rolls] == ["3d6"]
    assert again.result == "hit: Mara takes 6; Mara's wounds check passed"
    (mara,) = again.after
    assert (mara.damage, mara.status) == (18, "active")
    given(RULESET, *clawed, *made).when(REROLL).rejected(
        match="Mara's Mara's wound check above the limit has been rerolled once"
    )


def test_uae_04_a6_a_sanity_check_is_rerolled_and_the_stress_recomputed() -> None:
    # Willpower 3 against difficulty 2: a failure with 2 failures, 4 stress (UAE-14).
    checked = play(
        [
            (
                cmd.SanityCheck(
                    character="mara", cause="the drowned", difficulty=2, category="unnatural"
                ),
                [[3, 3, 3, 5, 5]],
            )
        ],
        events=round_one(),
    )
    assert state_of(checked).characters["mara"].stress == 4
    made = reroll(checked, [[6, 5, 3]])
    assert rerolled(made).result == "success: Mara gains 2 stress"
    assert state_of([*checked, *made]).characters["mara"].stress == 2


def test_uae_a6_refusals_speak_the_text() -> None:
    checked = play(
        [
            (
                cmd.SanityCheck(
                    character="mara", cause="the drowned", difficulty=2, category="unnatural"
                ),
                [[3, 3, 3, 5, 5]],
            ),
            cmd.SetDistance(a="mara", b="horror", yards=30),
        ],
        events=round_one(),
    )
    # Something else happened at the table: the sanity check is no longer open.
    given(RULESET, *checked).when(REROLL).rejected(
        match="Mara has no roll of their own to reroll: karma rerolls the dice of a roll "
        "just made, before anything else happens"
    )
    once = play(
        [
            (
                cmd.SanityCheck(
                    character="mara", cause="the drowned", difficulty=2, category="unnatural"
                ),
                [[3, 3, 3, 5, 5]],
            ),
            (REROLL, [[3, 3, 3]]),
        ],
        events=round_one(),
    )
    given(RULESET, *once).when(REROLL).rejected(
        match="Mara's the sanity check has been rerolled once: the new result stands"
    )
    # Only the character's own rolls: Jonah rolled nothing in Mara's sanity check.
    given(RULESET, *once).when(cmd.SpendKarma(by="jonah", use="reroll")).rejected(
        match="Jonah has no roll of their own to reroll"
    )


def test_uae_02_walk_sustained_run_and_sprint() -> None:
    start = round_one()  # Mara: Move Speed 5 + Dexterity 3 = 8, a Slow turn
    ran = given(RULESET, *start).when(cmd.Move(character="mara", yards=24, run=True))
    assert ran.events == [
        ev.Moved(character="mara", yards=24, run=True, limit=24),
        ev.TurnEnded(character="mara"),
    ]
    given(RULESET, *start).when(cmd.Move(character="mara", yards=25, run=True)).rejected(
        match="Mara runs at most 24 yards a round \\(Move Speed 8\\)"
    )
    given(RULESET, *start).when(
        cmd.Move(character="mara", yards=10, run=True, sprint=True)
    ).rejected(match="a character runs or sprints, not both")
    walked = play([cmd.Move(character="mara", yards=3)], events=start)
    given(RULESET, *walked).when(cmd.Move(character="mara", yards=10, run=True)).rejected(
        match="a sustained run takes the whole turn"
    )
    twice = UntoldOptions(run_multiple=2)
    given(RULESET, *round_one(options=twice), options=twice).when(
        cmd.Move(character="mara", yards=17, run=True)
    ).rejected(match="Mara runs at most 16 yards")
    sprinted = given(RULESET, *start).when(cmd.Move(character="mara", yards=40, sprint=True))
    assert sprinted.events[0] == ev.Moved(character="mara", yards=40, sprint=True, limit=40)


def test_uae_04_a6_a_fight_back_rerolled_into_a_win_hits_the_attacker_instead() -> None:
    stab = cmd.Attack(attacker="cultist", target="mara", weapon="dagger")
    # The Cultist's 1 success against Mara's 0: hit, dagger 1+2 = 3 + 1 = 4, less 3: 1.
    fought = play(
        [
            stab,
            (
                cmd.Respond(character="mara", response="fight_back", weapon="knife"),
                [[5, 3], [3, 3]],
            ),
        ],
        events=npc_turns(),
    )
    assert state_of(fought).characters["mara"].damage == 1
    made = reroll(fought, [[6, 5]])
    again = rerolled(made)
    # Brawl 2 again: 3 successes beat 1; the knife (1+, Toughness 3) deals 4 + 3, less
    # the Cultist's Toughness 2: 5 (UAE-30). Mara's 1 damage is taken back.
    assert again.result == "fought back: the Cultist takes 5"
    after = state_of([*fought, *made])
    assert (after.characters["mara"].damage, after.characters["cultist"].damage) == (0, 5)


def test_uae_04_a6_a_daily_recovery_is_rerolled() -> None:
    rested = play(
        [
            _ruled("mara", "stress", 5),
            (cmd.DailyRecovery(character="mara", track="stress"), [[3, 3, 3]]),
        ],
        events=round_one(),
    )
    assert state_of(rested).characters["mara"].stress == 5
    made = reroll(rested, [[6, 5, 3]])
    assert rerolled(made).result == "Mara recovers 3"
    assert state_of([*rested, *made]).characters["mara"].stress == 2


def test_uae_a6_a_called_check_is_not_the_last_roll_once_its_roller_rolls_again() -> None:
    called = play(
        [
            cmd.CallCheck(character="mara", label="the sigil", trait="perception", difficulty=1),
            (cmd.RollCheck(character="mara"), [[3, 3, 5]]),
            (
                cmd.SanityCheck(
                    character="mara", cause="the drowned", difficulty=1, category="unnatural"
                ),
                [[5, 3, 3, 3]],
            ),
            cmd.SetDistance(a="mara", b="horror", yards=30),
        ],
        events=round_one(),
    )
    given(RULESET, *called).when(REROLL).rejected(match="Mara has no roll of their own to reroll")


def test_uae_a6_a_dead_investigator_may_reroll_the_save_that_killed_them() -> None:
    # Mara, Severely Injured at 26 damage, cannot answer the claws: 1 success, 6 damage,
    # 32 is above twice her limit (26): the save or die with 6 difficulty dice fails.
    clawed = play(
        [
            _ruled("mara", "damage", 26),
            cmd.Rule(ruling=cmd.SetStatus(character="mara", status="severely_injured"), reason="x"),
            (CLAW, [[5, 3, 3], [3] * 9]),
        ],
        events=npc_turns(),
    )
    assert state_of(clawed).characters["mara"].status == "dead"
    made = reroll(clawed, [[6, 6, 3]])
    again = rerolled(made)
    assert again.label == "Mara's save or die"
    assert again.result == "hit: Mara takes 6; Mara's wounds check passed"
    mara = state_of([*clawed, *made]).characters["mara"]
    assert (mara.damage, mara.status) == (32, "severely_injured")


def test_uae_a6_uae_11_rolls_behind_the_screen_are_not_rerolled() -> None:
    clawed = play(
        [CLAW, (cmd.Respond(character="mara", response="dodge"), [[5, 2, 2], [2, 2, 2]])],
        events=npc_turns(),
    )
    secret = [
        msgspec.structs.replace(
            e, rolls=tuple(msgspec.structs.replace(r, hidden=True) for r in e.rolls)
        )
        if isinstance(e, ev.AttackResolved)
        else e
        for e in clawed
    ]
    given(RULESET, *secret).when(REROLL).rejected(
        match="Mara's Dodge against the Horror was rolled behind the screen"
    )
