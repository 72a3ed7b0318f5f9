"""Helpers the ``evolve`` modules share: copy one character (or each), mark a Reaction
used, drop an item, a character's name, and the decided rolls kept for overrides."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from service.dice.model import RollRecord
from service.rulesets.aeonisk_tactical.rules import zone_band
from service.rulesets.aeonisk_tactical.state import Character, RecentRoll, State, pair_key

RECENT_ROLLS = 50


def update(state: State, character_id: str, change: Callable[[Character], Character]) -> State:
    if character_id not in state.characters:
        return state
    characters = dict(state.characters)
    characters[character_id] = change(characters[character_id])
    return replace(state, characters=characters)


def zoned(state: State, character_id: str) -> State:
    """With a zone map, the bands between ``character_id`` and everyone else on the map,
    as the map gives them (section 11), so the state shows each pair's band.  A pair of
    zones the map leaves out has no band until the GM sets one (``set_band``)."""
    mover = state.characters.get(character_id)
    if not state.options.zone_map or mover is None or mover.zone is None:
        return state
    bands = dict(state.bands)
    for other in state.characters.values():
        if other.id == mover.id or other.zone is None:
            continue
        key = pair_key(mover.id, other.id)
        between = zone_band(state.options, mover.zone, other.zone)
        if between is None:
            bands.pop(key, None)
        else:
            bands[key] = between
    return replace(state, bands=bands)


def each(state: State, change: Callable[[Character], Character]) -> State:
    return replace(state, characters={k: change(c) for k, c in state.characters.items()})


def reacted(state: State, character_id: str, **also: object) -> State:
    """The character's Reaction is used (and any ``also`` fields set in the same copy)."""
    state = update(state, character_id, lambda c: replace(c, reaction_used=True, **also))
    return replace(state, reacted=(*state.reacted, character_id))


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(i for i in items if i != item)


def name(state: State, character_id: str) -> str:
    found = state.characters.get(character_id)
    return found.name if found else character_id


def remember(state: State, rolls: tuple[RollRecord, ...], what: str) -> State:
    """Keep decided rolls for ``override_outcome``, forgetting the oldest beyond a limit."""
    recent = [
        RecentRoll(roll_id=r.roll_id, description=what, outcome=r.outcome)
        for r in rolls
        if r.outcome is not None
    ]
    return replace(state, recent=(*state.recent, *recent)[-RECENT_ROLLS:])
