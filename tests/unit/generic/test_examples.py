"""The examples shown in OpenAPI and GET /rulesets/generic: complete, valid and true.

Complete, valid (one per type, JSON round trips, request constraints) and narrated for
every ruleset in ``tests/unit/test_ruleset_conformance.py``.  True, here: the event
examples fold into a consistent state, and they are what ``decide`` makes of the
command examples.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from service.dice.model import RollRecord
from service.rulesets.generic import RULESET, Command, Event
from service.rulesets.generic.commands import Adjudicate, Damage, NextTurn, SetValue
from service.rulesets.generic.examples import (
    COMMANDS,
    EVENTS,
    EXAMPLES,
    STORY_SO_FAR,
    example_stories,
)
from service.rulesets.generic.state import Ended, State
from tests.unit.deciders import fold, given

COMMAND_EXAMPLES = [e for e in EXAMPLES if isinstance(e, RULESET.command_types)]
EVENT_EXAMPLES = [e for e in EXAMPLES if isinstance(e, RULESET.event_types)]


def _tag(example: msgspec.Struct) -> str:
    tag = type(example).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


def test_the_ruleset_shows_these_examples() -> None:
    assert RULESET.examples == EXAMPLES == (*COMMANDS, *EVENTS)
    assert len(EXAMPLES) == len(COMMAND_EXAMPLES) + len(EVENT_EXAMPLES)


def test_the_conformance_suite_replays_the_examples_after_the_story_so_far() -> None:
    assert example_stories() == ((fold(RULESET, STORY_SO_FAR), EVENTS),)


def test_the_event_examples_fold_after_the_story_so_far() -> None:
    state = fold(RULESET, STORY_SO_FAR)
    for event in EVENTS:
        assert RULESET.narrate(state, event)
        state = RULESET.evolve(state, event)
    assert isinstance(state, State)
    assert state.phase == Ended(round=2)
    assert list(state.combatants) == ["aria", "borin"]
    assert all(not c.conditions for c in state.combatants.values())
    assert [e.combatant for e in state.order] == ["aria", "borin"]
    assert [(o.roll_id, o.outcome) for o in state.outcomes] == [
        ("r4", "hit"),
        ("r6", "failure"),
    ]


def _as_manual(events: list[Event]) -> list[Event]:
    """The events with their rolls marked as manual, as ``given().when()`` rolls them."""

    def manual(record: RollRecord) -> RollRecord:
        return replace(record, source="manual", epoch=None, index=None)

    return [
        replace(e, rolls=tuple(manual(r) for r in e.rolls)) if hasattr(e, "rolls") else e
        for e in events
    ]


def test_the_event_examples_are_what_decide_makes_of_the_command_examples() -> None:
    """The story played with ``decide``: each command example (and the commands the
    examples leave out) with the faces the story rolls gives the event examples in order.
    Rolls differ only in being manual here instead of server dice."""
    hidden: list[Event] = []
    shown: list[Event] = []
    history: list[Event] = list(STORY_SO_FAR)
    next_roll_number = 3

    def play(command: Command, faces: Sequence[Sequence[int]] = (), *, show: bool = True) -> None:
        nonlocal next_roll_number
        events = given(RULESET, *history).when(command, faces, next_roll_number=next_roll_number)
        produced = events.events
        (shown if show else hidden).extend(produced)
        history.extend(produced)
        next_roll_number += len(faces)

    add, initiative, attack, next_turn, check, blind, overrule, unblind, heal = COMMANDS[:9]
    burn, flee, end = COMMANDS[9:]
    play(add)
    play(initiative, [[11]])
    play(attack, [[12], [2]])
    play(next_turn)
    play(check, [[15], [11]])
    play(blind)
    play(overrule)
    play(unblind)
    play(heal, [[1, 2]])
    shield = SetValue(combatant="grak", field="stat:ac", value=15)
    play(Adjudicate(ruling=shield, reason="Grak snatched up a fallen guard's shield"))
    play(NextTurn(), show=False)
    play(NextTurn())
    play(flee)
    play(end)

    assert shown == _as_manual(list(EVENTS))
    assert [_tag(e) for e in hidden] == ["generic.turn_started"]
    assert isinstance(burn, Damage)
    burnt = given(RULESET, *STORY_SO_FAR, *EVENTS[:10]).when(burn, [[4]], next_roll_number=9)
    assert [_tag(e) for e in burnt.events] == ["generic.damaged"]
