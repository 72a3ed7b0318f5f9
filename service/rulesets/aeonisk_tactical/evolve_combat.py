"""Evolve combat results: attacks and damage, moves, Suppress choices, Shock and effects
that end."""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_common import (
    name,
    reacted,
    remember,
    update,
    without,
    zoned,
)
from service.rulesets.aeonisk_tactical.state import Character, State, pair_key


def attacked(state: State, event: ev.AttackRolled) -> State:
    what = f"{name(state, event.attacker)}'s attack on {name(state, event.target)}"
    state = remember(state, event.rolls, what)
    if event.kind == "overwatch":
        state = reacted(state, event.attacker, watch=None)
    elif event.kind == "free_strike":
        state = reacted(state, event.attacker)
    if event.kind == "free_strike" and state.breakaway is not None:
        foes = without(state.breakaway.foes, event.attacker)
        state = replace(state, breakaway=replace(state.breakaway, foes=foes))
    if event.bonded_by is not None:
        bondings = tuple(
            b
            for b in state.bondings
            if (b.by, b.ally, b.attacker) != (event.bonded_by, event.target, event.attacker)
        )
        state = replace(state, bondings=bondings)
    if event.backlash_used:
        state = update(state, event.target, lambda c: replace(c, backlash=0))
    if event.parried:
        parries = tuple(
            p for p in state.parries if (p.by, p.attacker) != (event.target, event.attacker)
        )
        state = replace(state, parries=parries)
    if event.high_ground:
        state = replace(state, high_ground=without(state.high_ground, event.attacker))
    return state


def damaged(state: State, event: ev.DamageRolled) -> State:
    used = event.used
    state = update(
        state,
        event.target,
        lambda c: replace(
            c, wounds=event.wounds_after, cover_mod=0 if "cover" in used else c.cover_mod
        ),
    )
    if "energy_hub" not in used and "charge" not in used:
        return state
    return update(
        state,
        event.attacker,
        lambda c: replace(
            c,
            energy_bonus=0 if "energy_hub" in used else c.energy_bonus,
            charge_foe=None if "charge" in used else c.charge_foe,
        ),
    )


def moved(state: State, event: ev.Moved) -> State:
    bands = dict(state.bands)
    for change in event.changes:
        bands[pair_key(event.character, change.other)] = change.after
    state = replace(state, bands=bands)
    if event.zone is not None:
        zone = event.zone
        state = zoned(
            update(state, event.character, lambda c: replace(c, zone=zone)), event.character
        )
    return state


def suppression_chosen(state: State, event: ev.SuppressionChosen) -> State:
    if event.choice == "hunker_down":
        hunkered = state.round
        return update(state, event.character, lambda c: replace(c, hunkered_round=hunkered))
    if not event.lost_cover:
        return state
    held = state.characters[event.character].tactical
    tokens = {k: t for k, t in state.tokens.items() if held is None or k != held.token}
    state = replace(state, tokens=tokens)
    return update(state, event.character, lambda c: replace(c, tactical=None))


def shocked(character: Character, initiative: int | None) -> Character:
    character = replace(character, shocks=character.shocks + 1)
    return character if initiative is None else replace(character, initiative=initiative)


_EFFECT_FIELDS = {
    "hunker_down": "hunkered_round",
    "charge": "charged_round",
    "charge_bonus": "charge_foe",
}


def effects_ended(character: Character, effects: tuple[str, ...]) -> Character:
    for effect in effects:
        if effect == "cover":
            character = replace(character, cover_mod=0)
        elif effect in _EFFECT_FIELDS:
            character = replace(character, **{_EFFECT_FIELDS[effect]: None})
    return character
