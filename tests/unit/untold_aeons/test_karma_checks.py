"""Karma (UAE-03..UAE-05, UAE-A5..UAE-A7), called checks and the Narrator's difficulty
behind the screen (UAE-06, UAE-11, UAE-12, UAE-A8), advancement (UAE-13)."""

from __future__ import annotations

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.options import UntoldOptions
from service.rulesets.untold_aeons.state import Boost
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import play, state_of, table


def _pools(players: int, narrator: int) -> list[ev.Event]:
    steps = [
        cmd.Rule(ruling=cmd.SetValue(field=field, value=value), reason="x")  # type: ignore[arg-type]
        for field, value, now in (("karma_players", players, 2), ("karma_narrator", narrator, 1))
        if value != now
    ]
    return play(steps, events=table())


def test_uae_03_pools_start_with_one_per_player_and_one_for_the_narrator() -> None:
    state = state_of(table())
    assert (state.karma_players, state.karma_narrator) == (2, 1)


def test_uae_03_04_a_player_point_moves_to_the_narrator() -> None:
    made = (
        given(RULESET, *table())
        .when(cmd.SpendKarma(by="mara", use="bonus"))
        .then(
            ev.KarmaSpent(
                by="mara",
                pool="players",
                use="bonus",
                target="mara",
                karma_players=1,
                karma_narrator=2,
            )
        )
    )
    assert made


def test_uae_05_a_narrator_point_moves_to_the_players() -> None:
    made = given(RULESET, *table()).when(cmd.SpendKarma(use="difficulty", target="mara")).events
    assert made == [
        ev.KarmaSpent(
            by=None,
            pool="narrator",
            use="difficulty",
            target="mara",
            karma_players=3,
            karma_narrator=0,
        )
    ]


def test_uae_a5_bonus_is_two_skill_dice_difficulty_two_difficulty_dice() -> None:
    events = play(
        [
            cmd.SpendKarma(by="mara", use="bonus"),
            cmd.SpendKarma(use="difficulty", target="mara"),
            cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1),
        ],
        events=table(),
    )
    assert state_of(events).boosts["mara"] == Boost(skill=2, difficulty=2)
    (rolled,) = (
        given(RULESET, *events)
        .when(cmd.RollCheck(character="mara"), manual=[[5, 3, 3, 3, 3, 3]])
        .events
    )
    assert isinstance(rolled, ev.CheckRolled) and rolled.rolls[0].notation == "3d6+3d6"
    after = (
        given(RULESET, *events)
        .when(cmd.RollCheck(character="mara"), manual=[[5, 3, 3, 3, 3, 3]])
        .state_after()
    )
    assert "mara" not in after.boosts  # used by the roll


def test_uae_a5_successes_option() -> None:
    options = UntoldOptions(karma_bonus_unit="successes")
    events = play(
        [
            cmd.SpendKarma(by="mara", use="bonus"),
            cmd.CallCheck(character="mara", label="climbing", trait="athletics", difficulty=1),
        ],
        events=table(options),
        options=options,
    )
    (rolled,) = (
        given(RULESET, *events, options=options)
        .when(cmd.RollCheck(character="mara"), manual=[[3, 6]])
        .events
    )
    assert isinstance(rolled, ev.CheckRolled) and rolled.rolls[0].notation == "1d6+1d6"
    assert rolled.rolls[0].pool is not None and rolled.rolls[0].pool.successes == 2
    assert rolled.succeeded is False  # 2 against 2


def test_uae_a6_reroll_the_own_dice_once_keeping_the_difficulty_dice() -> None:
    events = play(
        [
            cmd.CallCheck(character="jonah", label="the rite", trait="occultism", difficulty=1),
            (cmd.RollCheck(character="jonah"), [[5, 3, 5]]),
        ],
        events=table(),
    )
    made = (
        given(RULESET, *events)
        .when(cmd.SpendKarma(by="jonah", use="reroll"), manual=[[6, 1]])
        .events
    )
    rerolled = made[1]
    assert isinstance(rerolled, ev.CheckRerolled) and rerolled.succeeded
    assert rerolled.rolls[0].notation == "2d6"
    assert rerolled.rolls[0].pool is not None and rerolled.rolls[0].pool.failures == 1
    twice = play([(cmd.SpendKarma(by="jonah", use="reroll"), [[6, 1]])], events=events)
    given(RULESET, *twice).when(cmd.SpendKarma(by="jonah", use="reroll")).rejected(
        match="Jonah's the rite has been rerolled once"
    )
    given(RULESET, *table()).when(cmd.SpendKarma(by="jonah", use="reroll")).rejected(
        match="Jonah has no roll of their own to reroll"
    )


def test_uae_a7_an_empty_pool_refuses() -> None:
    given(RULESET, *_pools(0, 1)).when(cmd.SpendKarma(by="mara", use="bonus")).rejected(
        match="the players' karma pool is empty"
    )
    given(RULESET, *_pools(1, 0)).when(cmd.SpendKarma(use="bonus", target="cultist")).rejected(
        match="the Narrator's karma pool is empty"
    )


def test_uae_04_05_who_may_use_karma_how() -> None:
    t = table()
    given(RULESET, *t).when(cmd.SpendKarma(by="cultist", use="bonus")).rejected(
        match="the Cultist is not an investigator"
    )
    given(RULESET, *t).when(
        cmd.SpendKarma(by="mara", use="trigger", target="jonah", note="x")
    ).rejected(match="triggering a hallucination, phobia or mania is the Narrator's use")
    given(RULESET, *t).when(cmd.SpendKarma(use="reroll")).rejected(
        match="rerolls and deus ex machina are the players' uses of karma"
    )
    given(RULESET, *t).when(cmd.SpendKarma(by="mara", use="difficulty", target="jonah")).rejected(
        match="a player's karma adds \\+2 difficulty to an NPC's roll"
    )
    given(RULESET, *t).when(cmd.SpendKarma(use="difficulty", target="cultist")).rejected(
        match="the Narrator's karma adds \\+2 difficulty to a player's roll"
    )
    given(RULESET, *t).when(cmd.SpendKarma(use="bonus", target="mara")).rejected(
        match="the Narrator's karma gives \\+2 to an NPC's roll"
    )
    given(RULESET, *t).when(cmd.SpendKarma(use="bonus")).rejected(
        match="name the character whose roll this is for"
    )
    given(RULESET, *t).when(cmd.SpendKarma(by="mara", use="deus_ex_machina")).rejected(
        match="say what it is \\(note\\): the Narrator rules on it"
    )
    dead = play(
        [cmd.Rule(ruling=cmd.SetStatus(character="cultist", status="dead"), reason="x")], events=t
    )
    given(RULESET, *dead).when(
        cmd.SpendKarma(by="mara", use="difficulty", target="cultist")
    ).rejected(match="the Cultist is dead")
    ok = (
        given(RULESET, *t)
        .when(cmd.SpendKarma(by="mara", use="difficulty", target="cultist"))
        .events
    )
    assert (
        ok
        and given(RULESET, *t)
        .when(cmd.SpendKarma(use="trigger", target="jonah", note="fear of water"))
        .events
    )


def test_uae_06_08_called_check_in_the_open() -> None:
    events = play(
        [cmd.CallCheck(character="mara", label="the lock", trait="dexterity", difficulty=2)],
        events=table(),
    )
    (rolled,) = (
        given(RULESET, *events)
        .when(cmd.RollCheck(character="mara"), manual=[[5, 3, 3, 5, 3]])
        .events
    )
    assert isinstance(rolled, ev.CheckRolled)
    assert rolled.succeeded is False and rolled.rolls[0].outcome == "failure"  # a tie


def test_uae_10_a8_skill_zero_single_die_difficulty_ones_still_drawbacks() -> None:
    events = play(
        [cmd.CallCheck(character="mara", label="the rite", trait="occultism", difficulty=1)],
        events=table(),
    )
    (rolled,) = (
        given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[1, 1]]).events
    )
    assert isinstance(rolled, ev.CheckRolled) and rolled.rolls[0].pool is not None
    pool = rolled.rolls[0].pool
    assert (pool.untrained, pool.advantages, pool.drawbacks) == (True, 0, 1)


def test_uae_12_knowledge_instead_of_a_specific_knowledge_with_two_penalty_dice() -> None:
    made = (
        given(RULESET, *table())
        .when(
            cmd.CallCheck(
                character="mara", label="old Latin", trait="latin", difficulty=1, use_knowledge=True
            )
        )
        .events
    )
    assert made == [
        ev.CheckCalled(
            character="mara",
            label="old Latin",
            trait="knowledge",
            knowledge_for="latin",
            difficulty=1,
        )
    ]
    events = [*table(), *made]
    (rolled,) = (
        given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[6, 3]]).events
    )
    assert isinstance(rolled, ev.CheckRolled) and rolled.rolls[0].pool is not None
    assert rolled.rolls[0].pool.untrained  # Knowledge 1 - 2 = untrained
    assert rolled.rolls[0].pool.skill == "Knowledge 1 -2 for Latin"
    given(RULESET, *table()).when(
        cmd.CallCheck(
            character="jonah", label="x", trait="occultism", difficulty=1, use_knowledge=True
        )
    ).rejected(match="Jonah has Occultism: roll it instead")


def test_uae_11_the_narrator_rolls_the_difficulty_dice_behind_the_screen() -> None:
    events = play(
        [
            cmd.CallCheck(
                character="mara",
                label="the sigil",
                trait="perception",
                difficulty=2,
                behind_screen=True,
            )
        ],
        events=table(),
    )
    (skill,) = given(RULESET, *events).when(cmd.RollCheck(character="mara"), manual=[[5, 3]]).events
    assert isinstance(skill, ev.SkillDiceRolled) and skill.rolls[0].outcome is None
    events = play([(cmd.RollCheck(character="mara"), [[5, 3]])], events=events)
    given(RULESET, *events).when(cmd.RollCheck(character="mara")).rejected(
        match="Mara has rolled; the Narrator rolls the difficulty dice behind the screen"
    )
    (difficulty,) = (
        given(RULESET, *events)
        .when(cmd.RollDifficulty(character="mara"), manual=[[1, 3]], next_roll_number=2)
        .events
    )
    assert isinstance(difficulty, ev.DifficultyRolled)
    record = difficulty.rolls[0]
    assert record.roller is None and record.opposed_by == "r1"
    assert record.outcome == "success with Drawback"
    assert record.pool is not None and record.pool.skill_roll == "r1"


def test_uae_11_karma_difficulty_reaches_the_dice_behind_the_screen() -> None:
    events = play(
        [
            cmd.SpendKarma(use="difficulty", target="mara"),
            cmd.CallCheck(
                character="mara",
                label="the sigil",
                trait="perception",
                difficulty=1,
                behind_screen=True,
            ),
            (cmd.RollCheck(character="mara"), [[5, 3]]),
        ],
        events=table(),
    )
    (difficulty,) = (
        given(RULESET, *events)
        .when(cmd.RollDifficulty(character="mara"), manual=[[1, 3, 3]], next_roll_number=2)
        .events
    )
    assert isinstance(difficulty, ev.DifficultyRolled)
    assert difficulty.rolls[0].notation == "3d6"


def test_uae_11_refusals() -> None:
    given(RULESET, *table()).when(
        cmd.CallCheck(
            character="mara", label="x", trait="perception", difficulty=0, behind_screen=True
        )
    ).rejected(match="a difficulty-0 check has no difficulty dice to roll behind the screen")
    given(RULESET, *table()).when(cmd.RollDifficulty(character="mara")).rejected(
        match="Mara has no check with its difficulty behind the screen"
    )
    called = play(
        [
            cmd.CallCheck(
                character="mara", label="x", trait="perception", difficulty=1, behind_screen=True
            )
        ],
        events=table(),
    )
    given(RULESET, *called).when(cmd.RollDifficulty(character="mara")).rejected(
        match="Mara has not rolled the skill dice yet"
    )
    given(RULESET, *called).when(
        cmd.CallCheck(character="mara", label="y", trait="perception", difficulty=1)
    ).rejected(match="Mara already has a check to roll")
    given(RULESET, *table()).when(cmd.RollCheck(character="mara")).rejected(
        match="the Narrator has not called for a check from Mara"
    )


def test_uae_13_advancement_costs() -> None:
    rich = play(
        [cmd.Rule(ruling=cmd.SetValue(character="mara", field="xp", value=200), reason="x")],
        events=table(),
    )
    assert given(RULESET, *rich).when(cmd.Advance(character="mara", trait="firearms")).events == [
        ev.Advanced(character="mara", trait="firearms", previous=3, value=4, cost=30, xp_after=170)
    ]
    assert given(RULESET, *rich).when(cmd.Advance(character="mara", trait="willpower")).events == [
        ev.Advanced(character="mara", trait="willpower", previous=3, value=4, cost=150, xp_after=50)
    ]
    learned = (
        given(RULESET, *rich)
        .when(cmd.Advance(character="mara", trait="occultism", source="her uncle's books"))
        .events
    )
    assert learned == [
        ev.Advanced(
            character="mara",
            trait="occultism",
            previous=0,
            value=1,
            cost=20,
            xp_after=180,
            source="her uncle's books",
        )
    ]
    given(RULESET, *rich).when(cmd.Advance(character="mara", trait="occultism")).rejected(
        match="learning Occultism needs a source"
    )
    given(RULESET, *table()).when(cmd.Advance(character="mara", trait="firearms")).rejected(
        match="Mara has 0 xp; raising Firearms from 3 costs 30"
    )
    maxed = play(
        [
            cmd.Rule(ruling=cmd.SetValue(character="mara", field="xp", value=200), reason="x"),
            cmd.Advance(character="mara", trait="firearms"),
            cmd.Advance(character="mara", trait="firearms"),
        ],
        events=table(),
    )
    given(RULESET, *maxed).when(cmd.Advance(character="mara", trait="firearms")).rejected(
        match="Mara's Firearms is already 5"
    )


def test_uae_13_worked_example_a_skill_from_1_to_5_costs_100_xp() -> None:
    events = play(
        [cmd.Rule(ruling=cmd.SetValue(character="mara", field="xp", value=100), reason="x")],
        events=table(),
    )
    for _ in range(4):
        events = play([cmd.Advance(character="mara", trait="stealth")], events=events)
    mara = state_of(events).characters["mara"]
    assert (mara.skills["stealth"], mara.xp) == (5, 0)
