"""Characters, derived values, rounds and Fast / Slow turns: UAE-01, UAE-02, UAE-12,
UAE-26, UAE-27, UAE-A1, UAE-A2."""

from __future__ import annotations

import msgspec
import pytest

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.options import UntoldOptions
from service.rulesets.untold_aeons.state import Slot, Weapon
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import MARA, play, round_one, state_of, table


def test_uae_01_02_character_added_with_derived_values() -> None:
    (added,) = given(RULESET).when(MARA).events
    assert isinstance(added, ev.CharacterAdded)
    assert (added.stress_limit, added.wound_limit, added.move_speed) == (13, 13, 8)
    assert added.karma_players == 1  # UAE-03: one point per player


def test_uae_01_investigators_distribute_twelve_points() -> None:
    too_many = msgspec.structs.replace(MARA, dexterity=4)
    given(RULESET).when(too_many).rejected(
        match="an investigator distributes 12 points between the 4 characteristics; Mara has 13"
    )
    outside = msgspec.structs.replace(MARA, dexterity=6, toughness=0)
    given(RULESET).when(outside).rejected(match="characteristics are 1-5: Mara's dexterity, tough")


def test_uae_01_npcs_are_exempt_and_the_option_switches_it_off() -> None:
    horror = msgspec.structs.replace(MARA, id="x", pc=False, toughness=8)
    assert given(RULESET).when(horror).events
    off = UntoldOptions(creation_points=None)
    assert given(RULESET, options=off).when(msgspec.structs.replace(MARA, toughness=8)).events


def test_add_character_refusals() -> None:
    given(RULESET, *play([MARA])).when(MARA).rejected(match="already a character 'mara'")
    bad = msgspec.structs.replace(MARA, weapons={"gun": Weapon(range=0)})
    given(RULESET).when(bad).rejected(match="the gun's range must be at least 1 yard")
    bad = msgspec.structs.replace(MARA, weapons={"gun": Weapon(range=5, rapid_fire=0)})
    given(RULESET).when(bad).rejected(match="the gun's Rapid Fire N must be at least 1")


def test_uae_12_standard_skills_start_at_1_professional_skills_must_be_learned() -> None:
    mara = state_of(play([MARA])).characters["mara"]
    assert mara.rating("stealth") == 1 and mara.rating("firearms") == 3
    assert mara.rating("occultism") is None


def test_set_distance_refusals() -> None:
    events = table()
    given(RULESET, *events).when(cmd.SetDistance(a="mara", b="mara", yards=1)).rejected(
        match="between two different characters"
    )
    given(RULESET, *events).when(cmd.SetDistance(a="mara", b="nobody", yards=1)).rejected(
        match="there is no character 'nobody'"
    )


def test_uae_27_round_one_needs_the_initiating_side() -> None:
    given(RULESET, *table()).when(cmd.BeginRound()).rejected(
        match="round 1 needs the initiating side"
    )
    given(RULESET, *table()).when(cmd.BeginRound(initiating_side="elves")).rejected(
        match="no character is on the side 'elves'"
    )


def test_uae_26_27_order_fast_initiating_fast_defending_slow_initiating_slow_defending() -> None:
    events = play([cmd.BeginRound(initiating_side="investigators")], events=table())
    for who, speed in (("mara", "slow"), ("jonah", "fast"), ("cultist", "fast")):
        events = play([cmd.ChooseTurn(character=who, speed=speed)], events=events)  # type: ignore[arg-type]
    given(RULESET, *events).when(cmd.ChooseTurn(character="horror", speed="slow")).then(
        ev.TurnChosen(character="horror", speed="slow"),
        ev.TurnsOrdered(
            slots=(
                Slot(speed="fast", side="investigators", initiating=True, characters=("jonah",)),
                Slot(speed="fast", side="cultists", initiating=False, characters=("cultist",)),
                Slot(speed="slow", side="investigators", initiating=True, characters=("mara",)),
                Slot(speed="slow", side="cultists", initiating=False, characters=("horror",)),
            )
        ),
    )


def test_uae_26_choosing_refusals() -> None:
    events = play([cmd.BeginRound(initiating_side="investigators")], events=table())
    chosen = play([cmd.ChooseTurn(character="mara", speed="fast")], events=events)
    given(RULESET, *chosen).when(cmd.ChooseTurn(character="mara", speed="slow")).rejected(
        match="Mara has already chosen a Fast turn this round"
    )
    given(RULESET, *chosen).when(cmd.EndTurn(character="mara")).rejected(
        match=r"round 1: everyone first chooses a Fast or Slow turn \(waiting for Jonah, the "
        "Cultist, the Horror\\)"
    )
    given(RULESET, *table()).when(cmd.ChooseTurn(character="mara", speed="fast")).rejected(
        match="turn types are chosen at the start of a round"
    )
    given(RULESET, *table()).when(cmd.EndTurn(character="mara")).rejected(
        match="the fight has not started: the Narrator begins round 1"
    )
    given(RULESET, *chosen).when(cmd.BeginRound()).rejected(
        match="round 1 has not finished choosing turns"
    )


def test_uae_27_within_a_slot_anyone_of_it_acts_and_later_slots_wait() -> None:
    events = round_one({"mara": "fast", "jonah": "fast"})
    given(RULESET, *events).when(cmd.EndTurn(character="cultist")).rejected(
        match=r"it is the Fast turns of the initiating side \(investigators\); the Cultist "
        "took a Slow turn and acts in a later slot"
    )
    assert given(RULESET, *events).when(cmd.EndTurn(character="jonah")).events  # Jonah first
    after = play([cmd.EndTurn(character="mara")], events=events)
    given(RULESET, *after).when(cmd.EndTurn(character="mara")).rejected(
        match="Mara's turn this round is over"
    )


def test_uae_a1_a_fast_turn_allows_an_action_or_a_move_not_both() -> None:
    events = round_one({"mara": "fast"})
    moved = given(RULESET, *events).when(cmd.Move(character="mara", yards=8)).events
    assert moved == [
        ev.Moved(character="mara", yards=8, limit=8),
        ev.TurnEnded(character="mara"),
    ]
    after = play([cmd.Move(character="mara", yards=8)], events=events)
    given(RULESET, *after).when(cmd.Attack(attacker="mara", target="cultist")).rejected(
        match="a Fast turn allows an action or a move, not both"
    )


def test_uae_a1_a_slow_turn_allows_an_action_and_a_move() -> None:
    events = round_one()  # everyone Slow: Mara and Jonah act first
    moved = play([cmd.Move(character="mara", yards=3)], events=events)
    given(RULESET, *moved).when(cmd.Move(character="mara", yards=3)).rejected(
        match="Mara has already moved in this Slow turn"
    )
    attacked = play(
        [
            cmd.Attack(attacker="mara", target="cultist", weapon="revolver"),
            (cmd.Respond(character="cultist", response="none"), [[3, 3, 3, 3, 3]]),
        ],
        events=moved,
    )
    assert attacked[-1] == ev.TurnEnded(character="mara")


def test_uae_a1_option_swaps_the_turn_types() -> None:
    options = UntoldOptions(fast_turn_allows="action_and_move")
    events = round_one({"mara": "fast"}, options=options)
    moved = play([cmd.Move(character="mara", yards=3)], events=events, options=options)
    assert state_of(moved, options).done == ()
    slow = round_one(options=options)
    given(
        RULESET,
        *play([cmd.Move(character="mara", yards=3)], events=slow, options=options),
        options=options,
    ).when(cmd.StandUp(character="mara")).rejected(
        match="a Slow turn allows an action or a move, not both"
    )


def test_uae_02_move_speed_and_sprint() -> None:
    events = round_one()
    given(RULESET, *events).when(cmd.Move(character="mara", yards=9)).rejected(
        match=r"Mara moves at most 8 yards a round \(Move Speed 8\)"
    )
    sprint = given(RULESET, *events).when(cmd.Move(character="mara", yards=40, sprint=True))
    assert sprint.events[-1] == ev.TurnEnded(character="mara")
    given(RULESET, *events).when(cmd.Move(character="mara", yards=41, sprint=True)).rejected(
        match="Mara sprints at most 40 yards"
    )
    moved = play([cmd.Move(character="mara", yards=1)], events=events)
    given(RULESET, *moved).when(cmd.Move(character="mara", yards=1, sprint=True)).rejected(
        match="a sprint takes the whole turn"
    )


def test_uae_a2_per_round_choice_and_once_option() -> None:
    events = play(
        [cmd.EndTurn(character=c) for c in ("mara", "jonah", "cultist", "horror")],
        events=round_one(),
    )
    fresh = given(RULESET, *events).when(cmd.BeginRound()).events
    assert fresh == [ev.RoundStarted(round=2, initiating_side="investigators")]
    once = UntoldOptions(turn_type_choice="once")
    events = play(
        [cmd.EndTurn(character=c) for c in ("jonah", "mara", "cultist", "horror")],
        events=round_one({"jonah": "fast"}, options=once),
        options=once,
    )
    kept = given(RULESET, *events, options=once).when(cmd.BeginRound()).events
    assert kept[0] == ev.RoundStarted(round=2, initiating_side="investigators", choosing=False)
    assert isinstance(kept[1], ev.TurnsOrdered) and kept[1].slots[0].characters == ("jonah",)


def test_uae_a2_narrator_may_change_the_initiating_side() -> None:
    events = play(
        [cmd.EndTurn(character=c) for c in ("mara", "jonah", "cultist", "horror")],
        events=round_one(),
    )
    started = given(RULESET, *events).when(cmd.BeginRound(initiating_side="cultists")).events
    assert started == [ev.RoundStarted(round=2, initiating_side="cultists")]


def test_round_not_over_refusal() -> None:
    given(RULESET, *round_one()).when(cmd.BeginRound()).rejected(
        match="round 1 is not over: Mara, Jonah, the Cultist, the Horror still to act"
    )


def test_uae_33_getting_up_takes_an_action() -> None:
    events = round_one()
    given(RULESET, *events).when(cmd.StandUp(character="mara")).rejected(match="Mara is not prone")
    prone = play(
        [cmd.Rule(ruling=cmd.SetCondition(character="mara", condition="prone"), reason="slip")],
        events=events,
    )
    given(RULESET, *prone).when(cmd.Move(character="mara", yards=1)).rejected(
        match="Mara is prone: getting up takes an action"
    )
    up = given(RULESET, *prone).when(cmd.StandUp(character="mara")).events
    assert up == [ev.StoodUp(character="mara")]  # a Slow turn: the move is left
    state = given(RULESET, *prone).when(cmd.StandUp(character="mara")).state_after()
    assert not state.characters["mara"].has("prone")


@pytest.mark.parametrize("speed", ["fast", "slow"])
def test_uae_26_ending_a_turn_early(speed: str) -> None:
    events = round_one({"mara": speed})
    assert given(RULESET, *events).when(cmd.EndTurn(character="mara")).events == [
        ev.TurnEnded(character="mara")
    ]


def test_ended_encounter_refuses_all_but_rulings() -> None:
    ended = play([cmd.EndEncounter()], events=table())
    given(RULESET, *ended).when(cmd.BeginRound(initiating_side="investigators")).rejected(
        match="the encounter has ended; only the Narrator's rulings change it now"
    )
