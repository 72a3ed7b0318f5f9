"""Awareness for a dive checked at the answer (UAE-33), when a sanity effect is amplified
(UAE-17), the derived values in the state (UAE-02, UAE-A22), a character joining with
stress, damage and hardening already earned (UAE-20), and the wording of limits, hits
and bursts (UAE-23, UAE-34, UAE-37)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.state import Hardened
from tests.unit.deciders import given, log_lines
from tests.unit.untold_aeons.fixtures import MARA, play, round_one, state_of, table


def said(before: Sequence[ev.Event], new: Sequence[ev.Event]) -> list[str]:
    return log_lines(RULESET, before, new)


def ruled(ruling: cmd.Ruling) -> cmd.Rule:
    return cmd.Rule(ruling=ruling, reason="the Narrator says so")


def sanity(difficulty: int) -> cmd.SanityCheck:
    return cmd.SanityCheck(
        character="jonah", cause="the Horror", difficulty=difficulty, category="unnatural"
    )


def test_uae_33_awareness_is_checked_when_the_target_answers() -> None:
    shot = play(
        [
            cmd.Attack(attacker="mara", target="cultist", weapon="revolver"),
            ruled(cmd.SetCondition(character="cultist", condition="unaware")),
        ],
        events=round_one(),
    )
    violation = (
        given(RULESET, *shot)
        .when(cmd.Respond(character="cultist", response="dive"))
        .rejected(
            match="^the Cultist is unaware of the shot: a target may dive for cover only if "
            "they are aware they are being shot at$"
        )
    )
    assert violation.rule == "UAE-33"
    # Not diving is still an answer.
    made = (
        given(RULESET, *shot)
        .when(cmd.Respond(character="cultist", response="none"), manual=[[3, 3, 3, 3, 3]])
        .events
    )
    assert isinstance(made[0], ev.AttackResolved) and made[0].result == "miss"


def test_uae_17_a_sanity_effect_is_not_amplified_when_not_shaken() -> None:
    before = table()
    made = given(RULESET, *before).when(sanity(2), manual=[[6, 1, 3, 5, 3]]).events
    checked = made[0]
    assert isinstance(checked, ev.SanityChecked) and not checked.amplified
    line = said(before, made)[0]
    assert "The Advantage brings a short-term effect for 1 round: the Narrator rules on it" in line
    assert "amplified" not in line


def test_uae_17_a_sanity_effect_is_amplified_while_shaken() -> None:
    before = play(
        [
            ruled(cmd.SetValue(character="jonah", field="stress", value=14)),
            ruled(cmd.SetStatus(character="jonah", status="shaken")),
        ],
        events=table(),
    )
    made = given(RULESET, *before).when(sanity(1), manual=[[6, 1, 3]]).events
    assert isinstance(made[0], ev.SanityChecked) and made[0].amplified
    assert (
        "The Advantage is amplified and longer-lasting, Jonah being Shaken"
        in (said(before, made)[0])
    )


def test_uae_17_the_check_that_made_the_character_shaken_is_amplified() -> None:
    before = play(
        [ruled(cmd.SetValue(character="jonah", field="stress", value=12))], events=table()
    )
    made = (
        given(RULESET, *before)
        .when(sanity(3), manual=[[5, 1, 3, 6, 5, 2], [2, 3, 1, 5, 5, 6, 2, 2]])
        .events
    )
    checked, limit = made[0], made[1]
    assert isinstance(limit, ev.LimitChecked) and limit.shaken_after
    assert isinstance(checked, ev.SanityChecked) and checked.amplified
    assert "is amplified and longer-lasting, Jonah being Shaken" in said(before, made)[0]


def test_uae_02_a22_the_state_carries_stress_limit_wound_limit_and_move() -> None:
    mara = state_of(table()).characters["mara"]
    assert (mara.stress_limit, mara.wound_limit, mara.move_speed) == (13, 13, 8)
    encoded = msgspec.to_builtins(mara)
    assert (encoded["stress_limit"], encoded["wound_limit"], encoded["move_speed"]) == (13, 13, 8)


def test_uae_20_a_character_can_join_with_stress_damage_and_hardening() -> None:
    late = msgspec.structs.replace(
        MARA,
        id="ada",
        name="Ada",
        stress=4,
        damage=3,
        hardened={"violence": Hardened(level=1, notches=2)},
    )
    made = given(RULESET, *table()).when(late).events
    after = state_of([*table(), *made]).characters["ada"]
    assert (after.stress, after.damage) == (4, 3)
    assert after.hardened == {"violence": Hardened(level=1, notches=2)}
    assert said(table(), made)[0].endswith(
        "; starts with 4 stress, 3 damage, hardened Violence 1 (2 notches). Players' karma pool: 3"
    )
    three = msgspec.structs.replace(late, hardened={"violence": Hardened(level=0, notches=3)})
    given(RULESET, *table()).when(three).rejected(match="three notches raise it by 1")


def test_uae_23_the_save_is_above_twice_the_wound_limit() -> None:
    hurt = play(
        [
            ruled(cmd.SetValue(character="cultist", field="damage", value=24)),
            ruled(cmd.SetStatus(character="cultist", status="severely_injured")),
        ],
        events=round_one(),
    )
    made = (
        given(RULESET, *hurt)
        .when(
            cmd.Attack(attacker="mara", target="cultist", weapon="revolver"),
            manual=[[5, 3, 3, 3, 3], [3, 3, 3, 3]],
        )
        .events
    )
    lines = said(hurt, made)
    assert "The Cultist is above twice the wound limit: save or die (26 is 2 over 24)" in (
        " ".join(lines)
    ), lines
    assert "(2 base + 1 success = 3, -1 Toughness: 2)" in lines[1]


def test_uae_34_the_rapid_fire_lines_say_the_penalty_die_the_cap_and_the_hits() -> None:
    burst = cmd.Attack(attacker="jonah", target="horror", weapon="tommy gun", rapid_fire=True)
    before = play([cmd.SpendKarma(by="jonah", use="bonus")], events=round_one())
    declared = given(RULESET, *before).when(burst).events
    assert log_lines(RULESET, before, declared)[0] == (
        "Jonah fires the tommy gun at the Horror with a Rapid Fire burst (1 penalty die, up "
        "to 3 hits): difficulty 2 = 2 range (15 yards, weapon range 30)"
    )
    after = [*before, *declared]
    made = (
        given(RULESET, *after)
        .when(cmd.Respond(character="horror", response="none"), manual=[[6, 6, 6, 3, 3]])
        .events
    )
    line = log_lines(RULESET, after, made)[0]
    assert "Jonah hits the Horror 3 times (" in line and "3 hits the" not in line
