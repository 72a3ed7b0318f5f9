"""Invariants under random dice: folding is deterministic, a refused command appends
nothing (and leaves the state alone), every decided roll counts its pool consistently."""

from __future__ import annotations

import contextlib

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.dice import ManualFaces, RollingDice
from service.dice.faces import ServerFaces
from service.dice.model import DiceError
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from tests.unit.deciders import fold
from tests.unit.untold_aeons.fixtures import round_one

COMMANDS: list[cmd.Command] = [
    cmd.Attack(attacker="mara", target="cultist", weapon="revolver"),
    cmd.Attack(attacker="jonah", target="horror", weapon="tommy gun", rapid_fire=True),
    cmd.Attack(attacker="cultist", target="mara", weapon="dagger"),
    cmd.Attack(attacker="horror", target="jonah", weapon="claws"),
    cmd.Respond(character="mara", response="dodge"),
    cmd.Respond(character="mara", response="fight_back", weapon="knife"),
    cmd.Respond(character="jonah", response="defend"),
    cmd.Respond(character="cultist", response="dive"),
    cmd.Respond(character="horror", response="none"),
    cmd.Move(character="mara", yards=5),
    cmd.Move(character="jonah", yards=30, sprint=True),
    cmd.StandUp(character="mara"),
    cmd.EndTurn(character="mara"),
    cmd.EndTurn(character="jonah"),
    cmd.EndTurn(character="cultist"),
    cmd.EndTurn(character="horror"),
    cmd.BeginRound(),
    cmd.ChooseTurn(character="mara", speed="fast"),
    cmd.ChooseTurn(character="jonah", speed="slow"),
    cmd.ChooseTurn(character="cultist", speed="fast"),
    cmd.ChooseTurn(character="horror", speed="slow"),
    cmd.SanityCheck(character="jonah", cause="the Horror", difficulty=4, category="unnatural"),
    cmd.SpendKarma(by="mara", use="bonus"),
    cmd.SpendKarma(use="difficulty", target="jonah"),
    cmd.DailyRecovery(character="jonah", track="stress"),
    cmd.Bleed(character="cultist"),
]


def _seed(n: int) -> ServerFaces:
    return ServerFaces(seed=n.to_bytes(32, "big"), client_seed="prop", epoch=1, next_index=0)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, len(COMMANDS) - 1), max_size=40), st.integers(0, 2**200))
def test_folding_is_deterministic_and_refusals_append_nothing(picks: list[int], seed: int) -> None:
    events = list(round_one())
    state = fold(RULESET, events)
    dice = RollingDice(_seed(seed), next_roll_number=1)
    for i in picks:
        before = msgspec.json.encode(state)
        try:
            made = RULESET.decide(state, COMMANDS[i], dice)
        except (RuleViolation, DiceError):
            assert msgspec.json.encode(state) == before
            continue
        assert made, COMMANDS[i]
        for event in made:
            for record in getattr(event, "rolls", ()):
                if record.pool is not None:
                    p = record.pool
                    assert p.succeeded in (None, p.successes > p.failures)
                    assert p.net_advantages * p.net_drawbacks == 0
            state = RULESET.evolve(state, event)
        events.extend(made)
    assert fold(RULESET, events) == state
    assert fold(RULESET, events) == fold(RULESET, events)
    for character in state.characters.values():
        assert character.damage >= 0 and character.stress >= 0
    assert state.karma_players >= 0 and state.karma_narrator >= 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=20, max_size=20))
def test_a_refused_command_with_manual_dice_changes_nothing(faces: list[int]) -> None:
    events = round_one()
    state = fold(RULESET, events)
    before = msgspec.json.encode(state)
    dice = RollingDice(ManualFaces([faces]), next_roll_number=1)
    with contextlib.suppress(RuleViolation):
        RULESET.decide(state, cmd.Respond(character="mara", response="dodge"), dice)
    assert msgspec.json.encode(state) == before
    assert dice.records == ()
