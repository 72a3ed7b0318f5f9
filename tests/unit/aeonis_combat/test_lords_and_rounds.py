"""Lords and game rounds: AEC-09..13, AEC-A15, Round Start and Cleanup & Checks."""

from __future__ import annotations

from service.rulesets.aeonis_combat import Event
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    Attack,
    Cleanup,
    Defend,
    EndAttack,
    Fight,
    MoveUnits,
    SetHex,
    Stand,
    StartRound,
)
from service.rulesets.aeonis_combat.events import (
    BattleRoundFought,
    CleanupDone,
    LordCaptured,
    LordHealed,
    LordReleased,
    RoundStarted,
)
from tests.unit.aeonis_combat.fixtures import (
    BLUE_CITY,
    RULESET,
    TARGET,
    faces,
    play,
    state_after,
    world,
    world_commands,
)
from tests.unit.deciders import given


def _blue_lord_falls() -> list[Event]:
    """Blue's Lord (2 HP, d6 defence) joins the defence of 0,0 from its City and is
    struck down: a-arch 6 vs 1, then b-cav 8 vs 1."""
    history = world()
    return history + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(
                side="blue",
                hex=TARGET,
                commit=("blue-lord",),
                line=("blue-lord", "t-inf-1", "t-inf-2"),
            ),
            (
                Fight(
                    side="red",
                    hex=TARGET,
                    targets={"a-arch": "blue-lord", "b-cav": "blue-lord"},
                ),
                faces(6, 1, 8, 1, 1, 1, 1, 1),
            ),
        ],
        history=history,
    )


def test_a_lord_at_0_hp_is_captured() -> None:
    """AEC-10: removed from the map, +2 Renown and +1 VP to the captor at once."""
    events = _blue_lord_falls()
    fought = next(e for e in events if isinstance(e, BattleRoundFought))
    assert fought.captured == ("blue-lord",) and fought.destroyed == ()
    # AEC-A15: removed at once, so the fallen Lord does not counterstrike.
    assert [s.striker for s in fought.strikes] == ["a-arch", "b-cav", "t-inf-1", "t-inf-2"]
    assert LordCaptured(lord="blue-lord", by="red", renown_after=2, vp_after=1) in events
    state = state_after(events)
    lord = state.units["blue-lord"]
    assert lord.hex is None and lord.hp == 0
    assert state.sides["blue"].lord_captured_by == "red"  # abilities disabled (AEC-13)
    assert (state.sides["red"].renown, state.sides["red"].vp) == (2, 1)
    # AEC-A15: its line slot is free for the next Reinforce.
    assert state.battles[TARGET].defender_line == ("t-inf-1", "t-inf-2")


def test_a_captured_lord_cannot_commit_or_move() -> None:
    """AEC-10: 'cannot commit to battles, cannot be part of movement groups'."""
    history = _blue_lord_falls()
    history += play(
        [
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Attack(side="red", hex=TARGET, commit=("b-cav",)),
        ],
        history=history,
    )
    given(RULESET, *history).when(Defend(side="blue", hex=TARGET, commit=("blue-lord",))).rejected(
        r"Aster is captured and cannot commit to battles \(section 2.1.4\)"
    )
    given(RULESET, *history).when(
        MoveUnits(side="blue", units=("blue-lord",), to=BLUE_CITY)
    ).rejected("captured and cannot be part of movement groups")


def test_captured_lords_are_released_at_cleanup_to_their_home_city() -> None:
    """AEC-11: full HP, no AP."""
    history = _blue_lord_falls()
    history += play(
        [
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
        ],
        history=history,
    )
    events = (
        given(RULESET, *history)
        .when(Cleanup())
        .then(LordReleased(lord="blue-lord", hex=BLUE_CITY, hp=2), CleanupDone(round=1))
    )
    state = state_after(history + events)
    assert state.sides["blue"].lord_captured_by is None and state.sides["blue"].ap == 6
    assert state.units["blue-lord"].hex == BLUE_CITY and state.stage == "cleanup"


def test_a_lord_whose_home_city_is_lost_waits_for_the_gm() -> None:
    """AEC-A15: the text is silent; the Lord is released off the map."""
    history = _blue_lord_falls()
    history += play(
        [
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Adjudicate(ruling=SetHex(hex=BLUE_CITY, controller="red"), reason="it fell"),
        ],
        history=history,
    )
    events = given(RULESET, *history).when(Cleanup()).events
    assert events[0] == LordReleased(lord="blue-lord", hex=None, hp=2)


def test_lords_heal_to_full_at_round_start() -> None:
    """AEC-12: and AP is reset to ap_per_round."""
    history = world()
    history += play(
        [
            MoveUnits(side="red", units=("red-lord",), to="-1,0"),
            Attack(side="red", hex=TARGET, commit=("red-lord",)),
            Defend(side="blue", hex=TARGET),
            (Fight(side="red", hex=TARGET), faces(1, 1, 6, 1, 1, 1)),  # t-inf-1 wounds her
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Cleanup(),
        ],
        history=history,
    )
    assert state_after(history).units["red-lord"].hp == 2  # damage lasts to Round Start
    assert given(RULESET, *history).when(StartRound()).events == [
        RoundStarted(round=2, ap={"red": 6, "blue": 6}),
        LordHealed(lord="red-lord", hp=3),
    ]


def test_round_steps_keep_their_order() -> None:
    history = world()
    given(RULESET, *history).when(StartRound()).rejected("Cleanup & Checks come first")
    given(RULESET, *play(world_commands()[:-1])).when(Cleanup()).rejected("start a round first")
    attacking = history + play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=history)
    given(RULESET, *attacking).when(Cleanup()).rejected("not finished yet")


def test_round_of_is_the_game_round() -> None:
    assert RULESET.round_of(state_after(play(world_commands()[:-1]))) is None
    assert RULESET.round_of(state_after(world())) == 1


def test_a_lord_moves_within_its_movement_range() -> None:
    """AEC-09: Movement Range from the Lord Sheet (2 here)."""
    given(RULESET, *world()).when(MoveUnits(side="red", units=("red-lord",), to="0,1")).rejected(
        r"beyond Red's Lord Vess's Movement Range of 2 \(section 2.1.1\)"
    )
