"""A campaign's stored events as typed events and back, its state folded from them, and
its log: pure, so the write side and the read side (projections/campaign_seen.py) share
them.  A campaign is short (a party, a bestiary, one event or a few per encounter), so it
is folded from its first event on every read and every write, with no snapshot."""

from __future__ import annotations

from typing import Any

import msgspec

from events.committed_health import commit, pointer
from events.envelope import NewEvent, RecordedEvent
from service.campaigns import Event, State, evolve, initial_state, narrate

ENCOUNTER_STARTED = "campaign.encounter_started"


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
    """The typed event as the store keeps it: its tag, and the rest as data.  Hit points
    rolled for monster copies, and their rolls, are bound into the chain by salted
    commitments (events/committed_health.py), as an encounter's health is: players read
    the event without them, and must not test the few candidates against its hash."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    kind = data.pop("type")
    if kind == ENCOUNTER_STARTED and data.get("rolls"):
        monsters = data["monsters"]
        rolled = [i for i, m in enumerate(monsters) if m.get("hit_points") is not None]
        data = commit(
            data,
            [pointer(("rolls",)), *(pointer(("monsters", i, "hit_points")) for i in rolled)],
        )
    return NewEvent(type=kind, data=data)


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
