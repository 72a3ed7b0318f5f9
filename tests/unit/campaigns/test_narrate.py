"""The campaign's log, one line per event, read as the GM reads it."""

from __future__ import annotations

from service.campaigns import Event, State, evolve, initial_state, narrate
from service.campaigns import events as ev
from service.campaigns.commands import Adjust, CarryOver, UndoCarryOver
from tests.unit.campaigns.party import FIRST, first_fight
from tests.unit.campaigns.steps import given


def _lines(events: tuple[Event, ...]) -> list[str]:
    state: State = initial_state()
    lines = []
    for event in events:
        lines.append(narrate(state, event))
        state = evolve(state, event)
    return lines


def test_the_log_tells_the_party_the_bestiary_and_the_encounter() -> None:
    events, _ = first_fight()
    assert _lines(events) == [
        'The campaign "The Sunless Road" begins, played with the generic rules.',
        "Aria joins the party.",
        "Borin joins the party.",
        "Goblin enters the bestiary (hit points 2d6).",
        '"Ambush at the ford" begins with Aria and Borin, against Goblin 1 (7 hp), '
        "Goblin 2 (2 hp) and Goblin 3 (11 hp).",
    ]


def test_the_log_tells_what_carried_over_and_what_the_gm_ruled() -> None:
    events, table = first_fight()
    carried = given(*events).when(CarryOver(encounter=FIRST, version=11, game=table.game)).events
    rest = Adjust(member="borin", condition={"hp": 28}, reason="a night at the inn")
    ruled = given(*events, *carried).when(rest).events
    undo = UndoCarryOver(encounter=FIRST, reason="the wrong fight")
    refused = given(*events, *carried, *ruled).when(undo)
    refused.rejected("Borin's condition changed since")
    lines = _lines((*events, *carried, *ruled))
    assert lines[-2:] == [
        '"Ambush at the ford" at version 11 carries over: Aria: hp 15, conditions [poisoned]; '
        "Borin: hp 0, conditions [].",
        "GM ruling on Borin: hp 0 -> 28, because a night at the inn.",
    ]
    undone = ev.CarryOverUndone(encounter=FIRST, version=11, reason="the wrong fight")
    assert _lines((*events, *carried, undone))[-1] == (
        'The carry-over of "Ambush at the ford" (version 11) is undone: the wrong fight.'
    )
