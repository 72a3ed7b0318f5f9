"""Evolve the roster: a character added or removed, and a value the GM set on one."""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_common import zoned
from service.rulesets.aeonisk_tactical.state import Character, State


def added(state: State, event: ev.CharacterAdded) -> State:
    character = Character(
        id=event.character,
        name=event.name,
        side=event.side,
        pc=event.pc,
        attributes=dict(event.attributes),
        skills=dict(event.skills),
        soak=event.soak,
        void=event.void,
        bonds=event.bonds,
        weapons=dict(event.weapons),
        defence=event.defence,
        static_defence=event.static_defence,
        zone=event.zone,
        parry=event.parry,
    )
    return zoned(
        replace(state, characters={**state.characters, character.id: character}), character.id
    )


def removed(state: State, gone: str) -> State:
    characters = {k: c for k, c in state.characters.items() if k != gone}
    tokens = {
        k: (replace(t, holder=None) if t.holder == gone else t) for k, t in state.tokens.items()
    }
    bands = {k: b for k, b in state.bands.items() if gone not in k.split("|")}
    declarations = {k: d for k, d in state.declarations.items() if k != gone}
    return replace(
        state, characters=characters, tokens=tokens, bands=bands, declarations=declarations
    )


def set_value(character: Character, event: ev.ValueSet) -> Character:
    field = event.field
    if field.startswith("attribute:"):
        key = field.removeprefix("attribute:")
        return replace(character, attributes={**character.attributes, key: event.value})
    if field.startswith("skill:"):
        key = field.removeprefix("skill:")
        return replace(character, skills={**character.skills, key: event.value})
    return replace(character, **{field: event.value})
