"""given / when / then for any ruleset's decider, with manual dice.

    given(RULESET, *events).when(command, manual=[[14], [3, 5]]).then(*expected)
    given(RULESET, *events).when(command).rejected(match="not Bob's")
    events = given(RULESET, *events).when(command, manual=[[20]]).events

``given`` folds ``ruleset.initial_state(options)`` with ``evolve``; ``when`` runs
``decide`` with ``RollingDice(ManualFaces(manual), next_roll_number=...)``, so roll ids
are r1, r2 ... unless ``next_roll_number`` says otherwise, and fails the test when manual
faces are left unused (a test that gives dice the command never rolls is a wrong test).
Manual faces sent with a command that rolls nothing are refused as the service refuses
them (``refuse_dice_not_rolled``), so ``rejected`` sees that refusal too.
Nothing here knows a particular ruleset: the other rule systems reuse it as is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import msgspec

from service.dice import ManualFaces, RollingDice
from service.dice.model import Dice
from service.health_text import render_health
from service.ruleset import Ruleset, RuleViolation, refuse_dice_not_rolled
from service.secrecy import Audience

StateT = TypeVar("StateT", bound=msgspec.Struct)
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)


def line_for(
    ruleset: Ruleset[Any, Any, Any, Any],
    state: Any,
    event: Any,
    audience: Audience | None = None,
) -> str:
    """The log line of ``event`` as ``audience`` reads it (None: the GM, every number)."""
    return render_health(ruleset.narrate(state, event), audience)


def fold(
    ruleset: Ruleset[StateT, CommandT, EventT, OptionsT],
    events: Sequence[EventT],
    options: OptionsT | None = None,
) -> StateT:
    """The state after ``events``, from the initial state with ``options`` (or defaults)."""
    state = ruleset.initial_state(options if options is not None else ruleset.options_type())
    for event in events:
        state = ruleset.evolve(state, event)
    return state


class Given(Generic[StateT, CommandT, EventT, OptionsT]):
    """A state built from past events, ready for one command."""

    def __init__(
        self,
        ruleset: Ruleset[StateT, CommandT, EventT, OptionsT],
        events: Sequence[EventT],
        options: OptionsT | None,
    ):
        self.ruleset = ruleset
        self.history = tuple(events)
        self.state = fold(ruleset, events, options)

    def when(
        self,
        command: CommandT,
        manual: Sequence[Sequence[int]] = (),
        *,
        dice: Dice | None = None,
        next_roll_number: int = 1,
    ) -> When[StateT, CommandT, EventT, OptionsT]:
        """The command, with manual faces (one list per roll) or any other ``dice``."""
        if dice is None:
            dice = RollingDice(ManualFaces(manual), next_roll_number=next_roll_number)
        return When(self, command, dice)


class When(Generic[StateT, CommandT, EventT, OptionsT]):
    """One command against a given state; decided lazily by ``events``/``then``/``rejected``."""

    def __init__(
        self, given: Given[StateT, CommandT, EventT, OptionsT], command: CommandT, dice: Dice
    ) -> None:
        self.given = given
        self.command = command
        self.dice = dice

    @property
    def events(self) -> list[EventT]:
        """The events ``decide`` returns (a rejection propagates as the exception)."""
        events = list(self.given.ruleset.decide(self.given.state, self.command, self.dice))
        refuse_dice_not_rolled(self.dice, self.command)
        if isinstance(self.dice, RollingDice):
            self.dice.ensure_all_used()
        return events

    def then(self, *expected: EventT) -> list[EventT]:
        """Assert the exact events and return them."""
        events = self.events
        assert events == list(expected), _diff(events, list(expected))
        return events

    def state_after(self) -> StateT:
        """The state after the given events and the ones this command causes."""
        state = self.given.state
        for event in self.events:
            state = self.given.ruleset.evolve(state, event)
        return state

    def rejected(self, match: str) -> RuleViolation:
        """Assert a RuleViolation whose message matches ``match`` (``re.search``) and that
        the given state was left exactly as it was."""
        state = self.given.state
        before = msgspec.json.encode(state)
        try:
            events = self.given.ruleset.decide(state, self.command, self.dice)
            refuse_dice_not_rolled(self.dice, self.command)
        except RuleViolation as violation:
            assert re.search(match, violation.reason), (
                f"rejected with {violation.reason!r}, which does not match {match!r}"
            )
            assert msgspec.json.encode(state) == before, "decide changed the state it was given"
            return violation
        raise AssertionError(f"expected a rejection matching {match!r}, got {events!r}")


def given(
    ruleset: Ruleset[StateT, CommandT, EventT, OptionsT],
    *events: EventT,
    options: OptionsT | None = None,
) -> Given[StateT, CommandT, EventT, OptionsT]:
    """Start a decider test from the state these events build."""
    return Given(ruleset, events, options)


def log_lines(
    ruleset: Ruleset[StateT, CommandT, EventT, OptionsT],
    before: Sequence[EventT],
    new: Sequence[EventT],
    options: OptionsT | None = None,
) -> list[str]:
    """The replay log's lines of ``new`` as the GM reads them, each narrated in the state
    it happened in."""
    state = fold(ruleset, before, options)
    lines = []
    for event in new:
        lines.append(render_health(ruleset.narrate(state, event), None))
        state = ruleset.evolve(state, event)
    return lines


def _diff(actual: list[Any], expected: list[Any]) -> str:
    lines = ["events differ:"]
    for i in range(max(len(actual), len(expected))):
        a = actual[i] if i < len(actual) else "<none>"
        e = expected[i] if i < len(expected) else "<none>"
        lines.append(f"  [{i}] {'==' if a == e else '!='}\n    got      {a!r}\n    expected {e!r}")
    return "\n".join(lines)


def play(
    ruleset: Ruleset[StateT, CommandT, EventT, OptionsT],
    state: StateT,
    commands: Sequence[CommandT],
    manual: Sequence[Sequence[int]] = (),
) -> StateT:
    """Decide and fold ``commands`` in order from ``state``, rolling ``manual`` faces (one
    list per roll, across all the commands); every face must be used."""
    dice = RollingDice(ManualFaces(manual), next_roll_number=1)
    for command in commands:
        for event in ruleset.decide(state, command, dice):
            state = ruleset.evolve(state, event)
    dice.ensure_all_used()
    return state
