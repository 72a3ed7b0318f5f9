"""Invariants of the campaign decider under any sequence of carry-overs, undos, redos,
rulings and closings, sent in any order and any number of times (a process manager
retrying after a crash sends the same carry-over again)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.campaigns import Event, State, decide, evolve
from service.campaigns import events as ev
from service.campaigns.commands import (
    Adjust,
    CarryOver,
    CloseEncounter,
    Command,
    RedoCarryOver,
    StartEncounter,
    UndoCarryOver,
)
from service.campaigns.state import Campaign
from service.campaigns.typed import plain
from service.dice import ManualFaces, RollingDice
from service.ruleset import RuleViolation
from service.rulesets.generic.commands import AddCombatant, Damage
from tests.unit.campaigns.steps import Table, fold

ENCOUNTERS = (UUID(int=1), UUID(int=2))
PARTY = ("aria", "borin", "cyra", "dorn")

SETUP: tuple[Event, ...] = (
    ev.CampaignCreated(name="Road", ruleset="generic", options={"carry_conditions": True}),
    *(
        ev.MemberAdded(
            member=m, name=m.title(), sheet=plain(AddCombatant(id=m, name=m.title(), hp=30))
        )
        for m in PARTY
    ),
)


def _games(state: State, encounter: UUID, members: tuple[str, ...]) -> list[dict[str, Any]]:
    """Three states of the encounter, after 0, 5 and 12 damage to each member."""
    started = ev.EncounterStarted(encounter=encounter, name=str(encounter), members=members)
    table = Table(evolve(state, started), started)
    games = [table.game]
    for amount in (5, 7):
        for member in members:
            table.play(Damage(target=member, amount=amount))
        games.append(table.game)
    return games


def _steps() -> st.SearchStrategy[list[tuple[str, int, int]]]:
    step = st.tuples(
        st.sampled_from(["carry", "undo", "redo", "adjust", "close"]),
        st.integers(min_value=0, max_value=1),
        st.integers(min_value=0, max_value=2),
    )
    return st.lists(step, max_size=25)


def _command(kind: str, which: int, n: int, games: list[list[dict[str, Any]]]) -> Command:
    encounter = ENCOUNTERS[which]
    match kind:
        case "carry":
            return CarryOver(encounter=encounter, version=10 + n, game=games[which][n])
        case "undo":
            return UndoCarryOver(encounter=encounter, reason="test")
        case "redo":
            return RedoCarryOver(encounter=encounter, reason="test")
        case "close":
            return CloseEncounter(encounter=encounter, reason="test")
        case _:
            return Adjust(member=PARTY[n], condition={"hp": 20 + which}, reason="a rest")


def _conditions(state: State, members: tuple[str, ...] = PARTY) -> dict[str, Any]:
    """The members' conditions and the table."""
    assert isinstance(state, Campaign)
    return {m: state.members[m].condition for m in members} | {"table": state.table}


@settings(max_examples=150, deadline=None)
@given(steps=_steps())
def test_carry_over_is_exactly_once_and_undo_restores_what_was_before(
    steps: list[tuple[str, int, int]],
) -> None:
    state = fold(SETUP)
    games = []
    for encounter, members in zip(ENCOUNTERS, (PARTY[:2], PARTY[2:]), strict=True):
        start = StartEncounter(encounter=encounter, name=str(encounter), members=members)
        dice = RollingDice(ManualFaces([]), next_roll_number=1)
        (started,) = decide(state, start, dice)
        games.append(_games(state, encounter, members))
        state = evolve(state, started)
    before: dict[tuple[UUID, int], dict[str, Any]] = {}
    after: dict[tuple[UUID, int], dict[str, Any]] = {}
    carried: list[tuple[UUID, int]] = []
    fighters: dict[tuple[UUID, int], tuple[str, ...]] = {}
    for kind, which, n in steps:
        command = _command(kind, which, n, games)
        encoded = msgspec.json.encode(state)
        try:
            events = decide(state, command, RollingDice(ManualFaces([]), next_roll_number=1))
        except RuleViolation as refusal:
            assert refusal.reason
            assert msgspec.json.encode(state) == encoded, "a refusal leaves the campaign alone"
            continue
        for event in events:
            snapshot = _conditions(state)
            state = evolve(state, event)
            if isinstance(event, ev.CarriedOver):
                key = (event.encounter, event.version)
                assert key not in carried, "an encounter's version is carried over once"
                assert all(v < event.version for e, v in carried if e == event.encounter)
                carried.append(key)
                before[key], after[key] = snapshot, _conditions(state)
                fighters[key] = tuple(event.conditions)
            elif isinstance(event, ev.CarryOverUndone | ev.CarryOverRedone):
                key = (event.encounter, event.version)
                expected = before if isinstance(event, ev.CarryOverUndone) else after
                fought = (*fighters[key], "table")
                assert _pick(_conditions(state), fought) == _pick(expected[key], fought)


def _pick(conditions: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: conditions[k] for k in keys}
