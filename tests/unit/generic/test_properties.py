"""Properties over random command sequences played with server dice.

Whatever a table does: folding the same events gives equal states, a rejected command
leaves the state it was given untouched, every state and event survives a JSON round
trip (snapshots and the event store rely on it), and every event can be narrated.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.dice import RollingDice, ServerFaces
from service.dice.model import DiceError
from service.ruleset import RuleViolation
from service.rulesets.generic import RULESET, Command, Event, GenericOptions, State
from service.rulesets.generic import commands as c
from tests.support.generic_commands import (
    CAST,
    COMMANDS,
)
from tests.unit.deciders import fold

SCRIPTS = st.builds(
    lambda before, ends, after: [*CAST, *before, *([c.EndEncounter()] if ends else []), *after],
    st.lists(COMMANDS, max_size=40),
    st.booleans(),
    st.lists(COMMANDS, max_size=5),
)
"""Three combatants, then anything; sometimes the end and a few commands after it."""

OPTIONS = st.builds(
    GenericOptions,
    initiative_stat=st.none() | st.just("dex"),
    allow_negative_hp=st.booleans(),
    down_condition=st.none() | st.just("down"),
    skip_down_turns=st.booleans(),
    strict_turns=st.booleans(),
)


def play(options: GenericOptions, commands: list[Command]) -> tuple[list[Event], list[State]]:
    """Run every command with server dice, checking each rejection left the state as is."""
    state = RULESET.initial_state(options)
    events: list[Event] = []
    states = [state]
    roll_number, index = 1, 0
    for command in commands:
        dice = RollingDice(ServerFaces(b"x" * 32, "client", 1, index), next_roll_number=roll_number)
        before = msgspec.json.encode(state)
        snapshot = msgspec.json.decode(before, type=State)
        try:
            new_events = RULESET.decide(state, command, dice)
        except (RuleViolation, DiceError):
            assert msgspec.json.encode(state) == before
            assert state == snapshot
            continue
        roll_number, index = dice.next_roll_number, dice.next_index or index
        for event in new_events:
            assert isinstance(RULESET.narrate(state, event), str)
            state = RULESET.evolve(state, event)
            states.append(state)
        events.extend(new_events)
    return events, states


SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_folding_is_deterministic(options: GenericOptions, commands: list[Command]) -> None:
    events, states = play(options, commands)
    assert fold(RULESET, events, options) == fold(RULESET, events, options) == states[-1]


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_states_and_events_round_trip_through_json(
    options: GenericOptions, commands: list[Command]
) -> None:
    events, states = play(options, commands)
    for state in states:
        assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
    for event in events:
        assert msgspec.json.decode(msgspec.json.encode(event), type=Event) == event


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_invariants_hold(options: GenericOptions, commands: list[Command]) -> None:
    """hp within bounds (a GM may remove "down" at 0 hp, so that is no invariant), the
    turn holder in the order, the order naming each combatant once."""
    _, states = play(options, commands)
    for state in states:
        for combatant in state.combatants.values():
            assert options.allow_negative_hp or combatant.hp >= 0
        phase = state.phase
        if hasattr(phase, "turn"):
            assert state.in_order(phase.turn)
        ids = [entry.combatant for entry in state.order]
        assert len(ids) == len(set(ids)) and set(ids) <= set(state.combatants)
