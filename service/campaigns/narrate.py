"""One line of the campaign's log per event, given the state before it.

Conditions are the ruleset's plain data, so a carry-over is told field by field as it
changed ("Aria: hp 22 -> 15"); the ruleset's own log tells how it happened.
"""

from __future__ import annotations

from typing import Any, assert_never

from service.campaigns import events as ev
from service.campaigns.state import Campaign, State


def narrate(state: State, event: ev.Event) -> str:
    if isinstance(event, ev.CampaignCreated):
        return f'The campaign "{event.name}" begins, played with the {event.ruleset} rules.'
    assert isinstance(state, Campaign)
    match event:
        case ev.CampaignCreated():
            return ""
        case ev.MemberAdded():
            return f"{event.name} joins the party."
        case ev.MemberRemoved():
            return f"{_member(state, event.member)} leaves the party: {event.reason}."
        case ev.StatblockAdded():
            rolled = f" (hit points {event.hit_points})" if event.hit_points else ""
            return f"{event.name} enters the bestiary{rolled}."
        case ev.StatblockRemoved():
            return f"{state.statblocks[event.statblock].name} leaves the bestiary."
        case ev.EncounterStarted():
            party = _names([_member(state, m) for m in event.members]) or "no member"
            monsters = [
                m.name if m.hit_points is None else f"{m.name} ({m.hit_points} hp)"
                for m in event.monsters
            ]
            against = f", against {_names(monsters)}" if monsters else ""
            return f'"{event.name}" begins with {party}{against}.'
        case ev.CarriedOver():
            name = state.encounters[event.encounter].name
            changes = [
                f"{_member(state, m)}: {_changes(event.previous.get(m), c)}"
                for m, c in event.conditions.items()
            ]
            table = _changes(event.previous_table, event.table)
            if event.table and table != "unchanged":
                changes.append(f"the table: {table}")
            told = "; ".join(changes) or "nothing changed for the party"
            return f'"{name}" at version {event.version} carries over: {told}.'
        case ev.CarryOverUndone() | ev.CarryOverRedone():
            name = state.encounters[event.encounter].name
            done = "undone" if isinstance(event, ev.CarryOverUndone) else "redone"
            return (
                f'The carry-over of "{name}" (version {event.version}) is {done}: {event.reason}.'
            )
        case ev.EncounterClosed():
            name = state.encounters[event.encounter].name
            return f'"{name}" closes without carrying anything over: {event.reason}.'
        case ev.Adjusted():
            whose = "the table" if event.member is None else _member(state, event.member)
            now = (
                "as the sheet gives"
                if event.condition is None
                else _changes(event.previous, event.condition)
            )
            return f"GM ruling on {whose}: {now}, because {event.reason}."
        case _:
            assert_never(event)


def _member(state: Campaign, member: str) -> str:
    found = state.members.get(member)
    return member if found is None else found.name


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _changes(before: dict[str, Any] | None, after: dict[str, Any]) -> str:
    """The fields that changed, ``field old -> new``; every field when there was no
    condition before (the sheet's own)."""
    told = []
    for key, value in after.items():
        if before is None:
            told.append(f"{key} {_value(value)}")
        elif before.get(key) != value:
            told.append(f"{key} {_value(before.get(key))} -> {_value(value)}")
    return ", ".join(told) if told else "unchanged"


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_value(v)}" for k, v in value.items()) + "}"
    return "none" if value is None else str(value)
