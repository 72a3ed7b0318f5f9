"""Evolve Tactical Tokens: one claimed (returning another) and one spent for its effect."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_common import reacted, update
from service.rulesets.aeonisk_tactical.state import HeldToken, State


def claimed(state: State, event: ev.TokenClaimed) -> State:
    tokens = dict(state.tokens)
    if event.returned is not None and event.returned in tokens:
        tokens[event.returned] = replace(tokens[event.returned], holder=None)
    token = replace(tokens[event.token], holder=event.character)
    tokens[event.token] = token
    held = HeldToken(token=token.id, kind=token.kind, claimed_round=state.round or 0)
    state = replace(state, tokens=tokens)
    return update(state, event.character, lambda c: replace(c, tactical=held))


def spent(state: State, event: ev.TokenSpent) -> State:
    tokens = {k: t for k, t in state.tokens.items() if k != event.token}
    state = reacted(replace(state, tokens=tokens), event.character, tactical=None)
    match event.kind:
        case "cover":
            return update(state, event.character, lambda c: replace(c, cover_mod=2))
        case "energy_hub":
            return update(state, event.character, lambda c: replace(c, energy_bonus=2))
        case "high_ground":
            return replace(state, high_ground=(*state.high_ground, event.character))
        case "ley_node":
            return replace(state, ley_node=(*state.ley_node, event.character))
        case "vent" | "void_slick" | "sprint_lane":
            return state  # their effects arrive as events of their own
        case _:
            assert_never(event.kind)
