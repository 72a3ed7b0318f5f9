"""given / when / then for the campaign decider, with manual dice, and a small table
that plays an encounter of the campaign through its ruleset.

    given(*events).when(command, manual=[[3, 4]]).then(*expected)
    given(*events).when(command).rejected(match="already carried over")
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from service.campaigns import Command, Event, State, decide, evolve, initial_state, opening
from service.campaigns.events import EncounterStarted
from service.campaigns.state import Campaign
from service.dice import ManualFaces, RollingDice
from service.registry import get_ruleset
from service.ruleset import RuleViolation


def fold(events: Sequence[Event]) -> State:
    state = initial_state()
    for event in events:
        state = evolve(state, event)
    return state


class When:
    def __init__(self, state: State, command: Command, manual: Sequence[Sequence[int]]) -> None:
        self.state = state
        self.command = command
        self.dice = RollingDice(ManualFaces(manual), next_roll_number=1)

    @property
    def events(self) -> list[Event]:
        events = list(decide(self.state, self.command, self.dice))
        self.dice.ensure_all_used()
        return events

    def then(self, *expected: Event) -> list[Event]:
        events = self.events
        assert events == list(expected), f"got {events!r}"
        return events

    def state_after(self) -> State:
        state = self.state
        for event in self.events:
            state = evolve(state, event)
        return state

    def rejected(self, match: str) -> RuleViolation:
        before = msgspec.json.encode(self.state)
        try:
            events = decide(self.state, self.command, self.dice)
        except RuleViolation as violation:
            assert re.search(match, violation.reason), violation.reason
            assert msgspec.json.encode(self.state) == before
            return violation
        raise AssertionError(f"expected a refusal matching {match!r}, got {events!r}")


class Given:
    def __init__(self, events: Sequence[Event]) -> None:
        self.history = tuple(events)
        self.state = fold(events)

    def when(self, command: Command, manual: Sequence[Sequence[int]] = ()) -> When:
        return When(self.state, command, manual)


def given(*events: Event) -> Given:
    return Given(events)


class Table:
    """An encounter of a campaign, played through its ruleset: opened with the
    campaign's opening commands, then driven by any ruleset command with manual dice."""

    def __init__(self, campaign: State, started: EncounterStarted, options: Any = None) -> None:
        assert isinstance(campaign, Campaign)
        self.ruleset = get_ruleset(campaign.ruleset)
        options = self.ruleset.options_type() if options is None else options
        self.state: Any = self.ruleset.initial_state(options)
        self.version = 1
        self.opening = opening(campaign, started, self.state)
        for command in self.opening:
            self.play(command)

    def play(self, command: Any, manual: Sequence[Sequence[int]] = ()) -> list[Any]:
        dice = RollingDice(ManualFaces(manual), next_roll_number=self.version)
        events = list(self.ruleset.decide(self.state, command, dice))
        dice.ensure_all_used()
        for event in events:
            self.state = self.ruleset.evolve(self.state, event)
        self.version += len(events)
        return events

    @property
    def game(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self.state)
        return data
