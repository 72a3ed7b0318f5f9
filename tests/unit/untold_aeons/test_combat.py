"""Melee, firearms and damage: UAE-28..UAE-34, UAE-37..UAE-40, UAE-A4, UAE-A9..UAE-A12,
UAE-A19, UAE-A20."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.combat import band_difficulty
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import play, round_one, state_of

STAB = cmd.Attack(attacker="cultist", target="mara", weapon="dagger")
CLAW = cmd.Attack(attacker="horror", target="mara", weapon="claws")


def npc_turns() -> list[ev.Event]:
    """Round 1, everyone Slow; the investigators have ended their turns."""
    return play([cmd.EndTurn(character="mara"), cmd.EndTurn(character="jonah")], events=round_one())


def stabbed() -> list[ev.Event]:
    return play([STAB], events=npc_turns())


def resolved(events: list[ev.Event]) -> ev.AttackResolved:
    found = next(e for e in events if isinstance(e, ev.AttackResolved))
    return found


def test_uae_28_dodge_tie_goes_to_the_defender_who_still_falls_prone() -> None:
    events = (
        given(RULESET, *stabbed())
        .when(cmd.Respond(character="mara", response="dodge"), manual=[[5, 3], [5, 2, 2]])
        .events
    )
    r = resolved(events)
    assert (r.result, r.hits, r.prone, r.struck) == ("defended", (), ("mara",), None)


def test_uae_28_a20_dodge_lost_hits_and_prone() -> None:
    events = (
        given(RULESET, *play([CLAW], events=npc_turns()))
        .when(cmd.Respond(character="mara", response="dodge"), manual=[[6, 6, 2], [5, 2, 2]])
        .events
    )
    r = resolved(events)
    # UAE-40: claws 2+ with Toughness 5 = base 7; +4 successes = 11; Piercing 1 vs Mara's
    # Toughness 3 takes 2: 9 (UAE-37, UAE-38)
    assert r.hits == (ev.Hit(base=7, critical=False, successes=4, dealt=11, reduction=2, taken=9),)
    assert (r.prone, r.damage_after) == (("mara",), 9)


def test_uae_29_defend_tie_goes_to_the_defender() -> None:
    r = resolved(
        given(RULESET, *stabbed())
        .when(cmd.Respond(character="mara", response="defend"), manual=[[5, 1], [5, 3]])
        .events
    )
    assert (r.result, r.prone) == ("defended", ())


def test_uae_30_fight_back_tie_goes_to_the_attacker() -> None:
    r = resolved(
        given(RULESET, *stabbed())
        .when(cmd.Respond(character="mara", response="fight_back"), manual=[[5, 3], [5, 3]])
        .events
    )
    # dagger 1+ with Toughness 2: base 3 + 1 success = 4, Mara's Toughness 3: 1 taken
    assert (r.result, r.struck, r.damage_after) == ("hit", "mara", 1)


def test_uae_30_fight_back_win_hits_the_attacker_and_defender_takes_nothing() -> None:
    events = (
        given(RULESET, *stabbed())
        .when(
            cmd.Respond(character="mara", response="fight_back", weapon="knife"),
            manual=[[5, 3], [6, 1]],
        )
        .events
    )
    r = resolved(events)
    # UAE-39, UAE-A10: knife 1+ with Toughness 3 = 4, critical 8, + 2 successes = 10,
    # the Cultist's Toughness 2 takes 2: 8
    assert r.hits == (ev.Hit(base=8, critical=True, successes=2, dealt=10, reduction=2, taken=8),)
    assert (r.result, r.struck, r.damage_after) == ("fought_back", "cultist", 8)


def test_uae_31_both_zero_successes_nothing_happens() -> None:
    r = resolved(
        given(RULESET, *stabbed())
        .when(cmd.Respond(character="mara", response="fight_back"), manual=[[2, 3], [4, 4]])
        .events
    )
    assert (r.result, r.hits, r.struck) == ("nothing", (), None)


def test_uae_a4_melee_is_compared_on_own_successes_without_difficulty_dice() -> None:
    events = (
        given(RULESET, *stabbed())
        .when(cmd.Respond(character="mara", response="defend"), manual=[[6, 3], [5, 5]])
        .events
    )
    r = resolved(events)
    assert [x.notation for x in r.rolls] == ["2d6", "2d6"]
    assert r.rolls[0].opposed_by == r.rolls[1].roll_id
    assert r.result == "defended"  # 2 against 2: the defender's tie


def test_uae_a4_karma_difficulty_dice_take_failures_off_a_melee_side() -> None:
    events = play([cmd.SpendKarma(use="difficulty", target="mara")], events=stabbed())
    r = resolved(
        given(RULESET, *events)
        .when(cmd.Respond(character="mara", response="defend"), manual=[[5, 3], [5, 3, 5, 3]])
        .events
    )
    assert r.rolls[1].notation == "2d6+2d6" and r.result == "hit"  # 1 - 1 = 0 vs 1


def test_uae_a9_a_crit_needs_net_advantage_after_drawbacks() -> None:
    events = play(
        [cmd.Attack(attacker="mara", target="cultist", weapon="revolver")], events=round_one()
    )
    r = resolved(
        given(RULESET, *events)
        .when(cmd.Respond(character="cultist", response="none"), manual=[[5, 5, 1, 1, 3]])
        .events
    )
    assert r.hits == (ev.Hit(base=2, critical=False, successes=2, dealt=4, reduction=1, taken=3),)


def test_uae_32_a19_range_bands() -> None:
    assert band_difficulty(3, 20, True) == 1
    assert band_difficulty(1, 20, False) == 2
    assert band_difficulty(20, 20, False) == 2  # exactly at the range: the lower band
    assert band_difficulty(21, 20, False) == 3
    assert band_difficulty(40, 20, False) == 3
    assert band_difficulty(45, 20, False) == 4  # etc.


def test_uae_32_shot_difficulty_with_modifiers() -> None:
    events = play(
        [
            cmd.Rule(
                ruling=cmd.SetCondition(character="cultist", condition="moving"), reason="runs"
            ),
            cmd.Rule(
                ruling=cmd.SetCondition(character="cultist", condition="partial_cover"),
                reason="pew",
            ),
        ],
        events=round_one(),
    )
    declared = (
        given(RULESET, *events)
        .when(
            cmd.Attack(
                attacker="mara",
                target="cultist",
                weapon="revolver",
                modifiers=(Modifier("lantern light", -1),),
            )
        )
        .events
    )
    assert declared == [
        ev.AttackDeclared(
            attacker="mara",
            target="cultist",
            weapon="revolver",
            ranged=True,
            difficulty=3,
            modifiers=(
                Modifier("range (10 yards, weapon range 20)", 2),
                Modifier("moving target", 1),
                Modifier("partial cover", 1),
                Modifier("lantern light", -1),
            ),
        )
    ]


def test_uae_33_dive_adds_half_dexterity_rounded_up_and_leaves_prone() -> None:
    events = play(
        [cmd.Attack(attacker="mara", target="cultist", weapon="revolver")], events=round_one()
    )
    r = resolved(
        given(RULESET, *events)
        .when(cmd.Respond(character="cultist", response="dive"), manual=[[6, 5, 1, 5, 2, 3]])
        .events
    )
    assert r.rolls[0].pool is not None and r.rolls[0].pool.difficulty_dice == 3  # 2 + 1
    # critical: 2 x 2 + 3 successes = 7, Toughness 2 - Piercing 1: 6 (UAE-39)
    assert r.hits == (ev.Hit(base=4, critical=True, successes=3, dealt=7, reduction=1, taken=6),)
    assert r.prone == ("cultist",)


def test_uae_33_an_unaware_target_cannot_dive_and_the_shot_resolves_at_once() -> None:
    events = play(
        [
            cmd.Rule(
                ruling=cmd.SetCondition(character="cultist", condition="unaware"),
                reason="he never saw her",
            )
        ],
        events=round_one(),
    )
    made = (
        given(RULESET, *events)
        .when(
            cmd.Attack(attacker="mara", target="cultist", weapon="revolver"),
            manual=[[5, 3, 3, 3, 3]],
        )
        .events
    )
    assert [type(e) for e in made] == [ev.AttackDeclared, ev.AttackResolved]
    assert resolved(made).response == "none" and resolved(made).result == "hit"


def test_uae_34_a12_rapid_fire_penalty_die_hits_up_to_mos_and_n_crit_per_advantage() -> None:
    burst = cmd.Attack(attacker="jonah", target="horror", weapon="tommy gun", rapid_fire=True)
    events = play([burst], events=round_one())
    r = resolved(
        given(RULESET, *events)
        .when(cmd.Respond(character="horror", response="none"), manual=[[6, 5, 2]])
        .events
    )
    # Firearms 2 - 1 penalty die = 1 die against 2: 6 vs 5 2: 2 - 1 = MoS 1: one hit
    assert r.rolls[0].notation == "1d6+2d6" and len(r.hits) == 1
    # base 2 + 2 successes = 4 against Toughness 5: 0 taken, never below 0 (UAE-A11)
    assert r.hits[0].taken == 0 and r.damage_after == 0


def test_uae_34_rapid_fire_never_more_than_n() -> None:
    burst = cmd.Attack(attacker="jonah", target="horror", weapon="tommy gun", rapid_fire=True)
    events = play([cmd.SpendKarma(by="jonah", use="bonus"), burst], events=round_one())
    r = resolved(
        given(RULESET, *events)
        .when(cmd.Respond(character="horror", response="none"), manual=[[6, 6, 6, 3, 3]])
        .events
    )
    assert len(r.hits) == 3  # MoS 6, N 3
    assert [h.critical for h in r.hits] == [False, False, False]


def test_attack_refusals() -> None:
    events = round_one()
    given(RULESET, *events).when(
        cmd.Attack(attacker="mara", target="cultist", weapon="shotgun")
    ).rejected(match="Mara has no 'shotgun' on the sheet")
    given(RULESET, *events).when(cmd.Attack(attacker="mara", target="mara")).rejected(
        match="Mara cannot attack themselves"
    )
    given(RULESET, *events).when(
        cmd.Attack(attacker="mara", target="cultist", weapon="revolver", rapid_fire=True)
    ).rejected(match="the revolver has no Rapid Fire")
    given(RULESET, *events).when(
        cmd.Attack(attacker="mara", target="cultist", modifiers=(Modifier("x", 1),))
    ).rejected(match="difficulty modifiers are for shots")
    given(RULESET, *events).when(
        cmd.Attack(attacker="jonah", target="cultist", weapon="tommy gun")
    ).rejected(match="the Narrator has not set the distance between Jonah and the Cultist")
    dead = play(
        [cmd.Rule(ruling=cmd.SetStatus(character="cultist", status="dead"), reason="x")],
        events=events,
    )
    given(RULESET, *dead).when(cmd.Attack(attacker="mara", target="cultist")).rejected(
        match="the Cultist is dead"
    )


def test_respond_refusals() -> None:
    events = stabbed()
    given(RULESET, *events).when(cmd.Respond(character="jonah", response="defend")).rejected(
        match="no attack is waiting for Jonah's answer"
    )
    given(RULESET, *events).when(cmd.Respond(character="mara", response="dive")).rejected(
        match="diving for cover answers gunfire; against a melee attack choose Dodge, Defend "
        "or Fight Back"
    )
    given(RULESET, *events).when(
        cmd.Respond(character="mara", response="fight_back", weapon="axe")
    ).rejected(match="Mara has no 'axe' on the sheet")
    given(RULESET, *events).when(
        cmd.Respond(character="mara", response="fight_back", weapon="revolver")
    ).rejected(match="Fight Back is a Brawl roll")
    given(RULESET, *events).when(cmd.EndTurn(character="cultist")).rejected(
        match="Mara must first answer the Cultist's attack"
    )
    shot = play(
        [cmd.Attack(attacker="mara", target="cultist", weapon="revolver")], events=round_one()
    )
    given(RULESET, *shot).when(cmd.Respond(character="cultist", response="dodge")).rejected(
        match="Mara is shooting: the Cultist can dive for cover or not"
    )


def test_uae_21_damage_over_the_limit_rolls_the_wound_check() -> None:
    events = play(
        [cmd.Rule(ruling=cmd.SetValue(character="mara", field="damage", value=13), reason="x")],
        events=stabbed(),
    )
    made = (
        given(RULESET, *events)
        .when(
            cmd.Respond(character="mara", response="defend"), manual=[[5, 3], [3, 3], [5, 3, 3, 6]]
        )
        .events
    )
    check = next(e for e in made if isinstance(e, ev.LimitChecked))
    assert (check.track, check.level, check.value, check.threshold, check.difficulty) == (
        "wounds",
        "limit",
        14,
        13,
        1,
    )
    assert (check.passed, check.status_after) == (False, "severely_injured")


def test_hits_of_an_attack_resolved_are_in_the_state() -> None:
    events = play(
        [(cmd.Respond(character="mara", response="defend"), [[6, 3], [3, 3]])], events=stabbed()
    )
    assert state_of(events).characters["mara"].damage == 2
