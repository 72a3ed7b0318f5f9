"""Reading a campaign's stream back: its events typed, its state folded.

A campaign is short (a party, a bestiary, one event or a few per encounter), so it is
folded from its first event on every read and every write, with no snapshot.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import NewEvent, RecordedEvent
from events.errors import StreamNotFound
from events.kinds import CAMPAIGN_FIRST
from events.reading import read_stream
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
    """The typed event as the store keeps it: its tag, and the rest as data."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    return NewEvent(type=data.pop("type"), data=data)


def fold(events: list[RecordedEvent]) -> State:
    state = initial_state()
    for recorded in events:
        state = evolve(state, typed(recorded))
    return state


async def load(db: Database, campaign_id: UUID, up_to: int | None = None) -> Folded:
    """The campaign ``campaign_id`` (at version ``up_to``, default its latest);
    StreamNotFound when no campaign has that id (an encounter's id included)."""
    events = await read_stream(db, campaign_id, up_to_version=up_to)
    if not events or events[0].type != CAMPAIGN_FIRST:
        raise StreamNotFound(campaign_id)
    return Folded(fold(events), events[-1].stream_version, tuple(events))


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
