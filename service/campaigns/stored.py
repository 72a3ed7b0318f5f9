"""A campaign's stored events as typed events and back, its state folded from them, and
its log: pure, so the write side and the read side (projections/campaign_seen.py) share
them.  A campaign is short (a party, a bestiary, one event or a few per encounter), so it
is folded from its first event on every read and every write, with no snapshot."""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import NewEvent, RecordedEvent
from service.campaigns import Event, State, evolve, initial_state, narrate


class Folded(msgspec.Struct, frozen=True):
    """A campaign as of ``version``, with its stored events in order."""

    state: State
    version: int
    events: tuple[RecordedEvent, ...]


def typed(recorded: RecordedEvent) -> Event:
    """The stored event as the campaign's typed event."""
    event: Event = msgspec.convert({"type": recorded.type, **recorded.data}, Event)
    return event


def stored(event: Event) -> NewEvent:
    """The typed event as the store keeps it: its tag, and the rest as data.  (The write
    then binds what only the GM reads by salted commitments: service/campaigns/hidden.py.)"""
    data: dict[str, Any] = msgspec.to_builtins(event)
    return NewEvent(type=data.pop("type"), data=data)


def fold(events: list[RecordedEvent]) -> State:
    state = initial_state()
    for recorded in events:
        state = evolve(state, typed(recorded))
    return state


def log_lines(events: tuple[RecordedEvent, ...]) -> list[tuple[int, str]]:
    """The campaign's log: each event's version and its line, told from the state
    before it."""
    lines: list[tuple[int, str]] = []
    state = initial_state()
    for recorded in events:
        event = typed(recorded)
        lines.append((recorded.stream_version, narrate(state, event)))
        state = evolve(state, event)
    return lines
