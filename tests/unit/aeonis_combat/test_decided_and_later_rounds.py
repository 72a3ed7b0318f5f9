"""After a battle is decided, a Press is refused as decided (AEC-16); a defender adding
nothing in a later siege round need not answer (6.2); a battle's end is said once."""

from __future__ import annotations

from service.rulesets.aeonis_combat import RULESET
from service.rulesets.aeonis_combat.commands import (
    Adjudicate,
    Attack,
    Cleanup,
    DecideBattle,
    Defend,
    EndAttack,
    Fight,
    Press,
    Stand,
    StartRound,
)
from service.rulesets.aeonis_combat.events import BattleEnded, BattleRoundFought, DefenceDeclared
from tests.unit.aeonis_combat.fixtures import TARGET, attack_on_target, faces, play, world
from tests.unit.deciders import given

FORTRESS = {"0_0": {"kind": "fortress"}}


def test_aec_16_a_press_after_the_battle_was_won_is_refused_as_decided() -> None:
    history = attack_on_target()
    history += play(
        [Adjudicate(ruling=DecideBattle(hex=TARGET, winner="attacker"), reason="a card")],
        history=history,
    )
    refused = (
        given(RULESET, *history)
        .when(Press(side="red", hex=TARGET))
        .rejected(
            r"^the battle at 0,0 is decided \(Red won it\): Press the Attack resolves one more "
            r"round of a battle still being fought \(section 4.0\)$"
        )
    )
    assert refused.rule == "AEC-16"


def test_a_later_siege_round_needs_no_empty_defence() -> None:
    history = world(**FORTRESS)
    history += play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(side="blue", hex=TARGET),
            (Fight(side="red", hex=TARGET), faces(*[1] * 8)),
            Stand(side="red", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Cleanup(),
            StartRound(),
            Attack(side="red", hex=TARGET),
        ],
        history=history,
    )
    state = given(RULESET, *history).state
    assert state.battles[TARGET].step == "defence"
    events = given(RULESET, *history).when(Fight(side="red", hex=TARGET), faces(*[1] * 8)).events
    answered = DefenceDeclared(hex=TARGET, side="blue", line=(), reserves=(), siege=True)
    assert events[0] == answered
    assert isinstance(events[1], BattleRoundFought)
    assert RULESET.narrate(state, answered) == "Blue adds no units to the defence of 0,0"


def test_the_end_of_a_battle_for_now_is_said_once() -> None:
    ended = BattleEnded(hex=TARGET, outcome="dissolved")
    line = RULESET.narrate(given(RULESET, *attack_on_target()).state, ended)
    assert line == "The battle at 0,0 ends for now: the commitments dissolve"
    assert line.count("ends") == 1
