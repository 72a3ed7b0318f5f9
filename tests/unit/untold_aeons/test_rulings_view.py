"""Narrator rulings (UAE-15, UAE-17, UAE-35, UAE-36, UAE-A20), access, the replay log,
and the secrecy contract (shown_when_secret, narrate_secret, player_state)."""

from __future__ import annotations

import msgspec

from service.dice.model import Modifier
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.examples import play as story
from service.rulesets.untold_aeons.narrate import narrate, narrate_secret
from service.secrecy import Audience
from tests.unit.deciders import given, line_for
from tests.unit.untold_aeons.fixtures import play, round_one, state_of, table


def rule(ruling: cmd.Ruling, reason: str = "the Narrator says so") -> cmd.Rule:
    return cmd.Rule(ruling=ruling, reason=reason)


def test_uae_35_36_15_17_effects_of_advantages_drawbacks_and_phobias_are_rulings() -> None:
    made = (
        given(RULESET, *table())
        .when(
            rule(
                cmd.Effect(character="jonah", effect="screams and freezes for a round"),
                "a Drawback on his sanity check",
            )
        )
        .events
    )
    assert made == [
        ev.EffectRuled(
            character="jonah",
            effect="screams and freezes for a round",
            reason="a Drawback on his sanity check",
        )
    ]
    line = narrate(state_of(table()), made[0])
    assert line == (
        "The Narrator rules for Jonah: screams and freezes for a round (a Drawback "
        "on his sanity check)"
    )


def test_uae_a20_prone_and_conditions_by_ruling() -> None:
    made = (
        given(RULESET, *table())
        .when(rule(cmd.SetCondition(character="mara", condition="prone"), "the floor gives"))
        .events
    )
    assert made == [
        ev.ConditionSet(character="mara", condition="prone", on=True, reason="the floor gives")
    ]
    given(RULESET, *table()).when(
        rule(cmd.SetCondition(character="mara", condition="prone", on=False))
    ).rejected(match="Mara is not prone")


def test_ruling_refusals() -> None:
    t = table()
    given(RULESET, *t).when(
        cmd.Rule(ruling=cmd.Effect(character="mara", effect="x"), reason="  ")
    ).rejected(match="a ruling needs a reason")
    given(RULESET, *t).when(rule(cmd.SetStatus(character="mara", status="not_shaken"))).rejected(
        match="Mara is not Shaken"
    )
    given(RULESET, *t).when(rule(cmd.SetStatus(character="mara", status="active"))).rejected(
        match="Mara is already active"
    )
    given(RULESET, *t).when(rule(cmd.SetValue(character="mara", field="damage", value=0))).rejected(
        match="Mara's damage is already 0"
    )
    given(RULESET, *t).when(rule(cmd.SetValue(field="damage", value=3))).rejected(
        match="setting damage needs a character"
    )
    given(RULESET, *t).when(rule(cmd.SetValue(field="karma_narrator", value=1))).rejected(
        match="karma narrator is already 1"
    )


def test_uae_17_lowering_stress_below_the_limit_ends_shaken() -> None:
    events = play(
        [
            rule(cmd.SetValue(character="jonah", field="stress", value=15)),
            rule(cmd.SetStatus(character="jonah", status="shaken")),
        ],
        events=table(),
    )
    (made,) = (
        given(RULESET, *events)
        .when(rule(cmd.SetValue(character="jonah", field="stress", value=12)))
        .events
    )
    assert isinstance(made, ev.ValueSet) and made.shaken_after is False


def test_access_players_name_sheet_entries_gm_gives_numbers() -> None:
    acts = RULESET.acts_for
    state = state_of(table())
    assert acts(state, cmd.Attack(attacker="mara", target="cultist")) == frozenset({"mara"})
    assert (
        acts(state, cmd.Attack(attacker="mara", target="cultist", modifiers=(Modifier("fog", 1),)))
        is None
    )
    assert acts(state, cmd.SpendKarma(by="jonah", use="bonus")) == frozenset({"jonah"})
    assert acts(state, cmd.SpendKarma(use="trigger", target="jonah", note="x")) is None
    assert acts(state, cmd.RollCheck(character="mara")) == frozenset({"mara"})
    for gm in (
        cmd.CallCheck(character="mara", label="x", trait="perception", difficulty=1),
        cmd.RollDifficulty(character="mara"),
        cmd.BeginRound(),
        cmd.SanityCheck(character="mara", cause="x", difficulty=1, category="violence"),
    ):
        assert acts(state, gm) is None


def test_worked_story_narrates_like_a_narrator() -> None:
    s = story()
    state = RULESET.initial_state(RULESET.options_type())
    lines = []
    for event in s.events:
        lines.append(line_for(RULESET, state, event))
        state = RULESET.evolve(state, event)
    log = "\n".join(lines)
    for expected in (
        "Jonah rolls Firearms 2 -1 Rapid Fire +2 karma against difficulty 2 = 2 range (15 "
        "yards, weapon range 30) for the attack on "
        "the Horror: 6 6 1 vs 5 2 -> 4 successes, 1 failure, 1 Advantage: success with "
        "Advantage: 3 hits. Jonah hits the Horror 3 times (critical: 4 base + 4 successes = 8, -5 "
        "Toughness: 3; 2 base + 4 successes = 6, -5 Toughness: 1; 2 base + 4 successes = 6, "
        "-5 Toughness: 1): total damage 5",
        "Jonah is Shaken",
        "The Cultist is Severely Injured",
        "The Narrator rolls 2 difficulty dice for spotting the sigil against Perception 2",
    ):
        assert expected in log


def test_shown_when_secret_covers_every_tag_and_never_rolls() -> None:
    tags = {str(t.__struct_config__.tag) for t in RULESET.event_types}
    assert set(RULESET.shown_when_secret) == tags
    for tag, fields in RULESET.shown_when_secret.items():
        assert "rolls" not in fields, tag
    hidden_fields = {
        "hits",
        "damage_after",
        "result",
        "struck",
        "passed",
        "status_after",
        "gained",
        "stress_after",
        "succeeded",
        "amount",
        "after",
        "difficulty",
    }
    for tag in (
        "untold-aeons.attack_resolved",
        "untold-aeons.limit_checked",
        "untold-aeons.sanity_checked",
        "untold-aeons.recovered",
        "untold-aeons.check_rolled",
        "untold-aeons.difficulty_rolled",
    ):
        assert not RULESET.shown_when_secret[tag] & hidden_fields, tag


def test_narrate_secret_is_the_same_for_events_differing_only_in_hidden_fields() -> None:
    s = story()
    state = state_of(table())
    resolved = next(e for e in s.events if isinstance(e, ev.AttackResolved))
    other = msgspec.structs.replace(resolved, result="miss", hits=(), damage_after=0)
    assert narrate_secret(state, resolved) == narrate_secret(state, other)
    assert (
        narrate_secret(state, resolved)
        == "The Narrator rolls in secret for Jonah's attack on the Horror"
    )
    checked = next(e for e in s.events if isinstance(e, ev.SanityChecked))
    worse = msgspec.structs.replace(checked, gained=9, stress_after=30, succeeded=True)
    assert narrate_secret(state, checked) == narrate_secret(state, worse)
    for event in s.events:
        assert narrate_secret(state, event)


def test_secret_lines_are_never_the_narrators_and_name_no_number() -> None:
    """Every event of a secret command is told in its own words (also those no roll
    decided, like the turn ending after a hidden shot), and with no number that could be
    read as a face or a total."""
    s = story()
    state = state_of(table())
    for event in s.events:
        line = narrate_secret(state, event)
        assert line != narrate(state, event), line
        assert not any(c.isdigit() for c in line), line
        state = RULESET.evolve(state, event)


def test_narrate_uses_the_secret_line_while_a_roll_is_hidden() -> None:
    s = story()
    state = state_of(table())
    rolled = next(e for e in s.events if isinstance(e, ev.DifficultyRolled))
    hidden = msgspec.structs.replace(
        rolled, rolls=tuple(msgspec.structs.replace(r, hidden=True) for r in rolled.rolls)
    )
    assert narrate(state, hidden) == (
        "The Narrator rolls the difficulty dice for Mara's spotting the sigil behind the screen"
    )
    assert "Drawback" not in narrate(state, hidden) and "Drawback" in narrate(state, rolled)


def test_player_state_shows_health_per_audience_and_no_roll_memory() -> None:
    events = play(
        [rule(cmd.SetValue(character="cultist", field="damage", value=13))], events=round_one()
    )
    events = play(
        [
            cmd.CallCheck(character="jonah", label="the rite", trait="occultism", difficulty=1),
            (cmd.RollCheck(character="jonah"), [[5, 3, 5]]),
        ],
        events=events,
    )
    state = state_of(events)
    assert "jonah" in state.last_check
    assert RULESET.player_state is not None
    view = RULESET.player_state(state, Audience(player_combatants=frozenset({"mara", "jonah"})))
    cultist = view.characters["cultist"]
    assert cultist.health.word == "bloodied" and cultist.health.current is None
    assert view.characters["mara"].health.current == 26
    encoded = msgspec.json.encode(view).decode()
    assert "last_check" not in encoded and "difficulty_faces" not in encoded
    assert "boosts" not in encoded
    # A player character's sheet is what its player acts from; an NPC's stays hidden.
    mara = view.characters["mara"].sheet
    assert mara is not None and mara.weapons == state.characters["mara"].weapons
    assert view.characters["cultist"].sheet is None
    exact = RULESET.player_state(state, Audience(npc_health="exact"))
    assert exact.characters["cultist"].health.current == 11
    assert exact.characters["cultist"].sheet is None
    hidden = RULESET.player_state(state, Audience(npc_health="hidden"))
    assert hidden.characters["cultist"].health.word is None


def test_every_example_narrates_even_against_an_empty_table() -> None:
    empty = RULESET.initial_state(RULESET.options_type())
    events = [e for e in RULESET.examples if type(e) in RULESET.event_types]
    assert {type(e) for e in events} == set(RULESET.event_types)
    for event in events:
        assert line_for(RULESET, empty, event)
        assert RULESET.narrate_secret is not None and RULESET.narrate_secret(empty, event)
    commands = [e for e in RULESET.examples if type(e) in RULESET.command_types]
    assert {type(c) for c in commands} == set(RULESET.command_types)
