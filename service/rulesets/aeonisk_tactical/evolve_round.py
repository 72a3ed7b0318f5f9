"""Evolve the round: a new round started and a character's declaration recorded."""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_common import each, update
from service.rulesets.aeonisk_tactical.state import Character, Declaring, State


def round_started(state: State, number: int) -> State:
    state = each(state, lambda c: replace(c, reaction_used=False, token_on=None))
    return replace(
        state,
        phase=Declaring(round=number),
        declarations={},
        resolved=(),
        reacted=(),
        bondings=(),
        high_ground=(),
        ley_node=(),
        breakaway=None,
    )


def declared(state: State, event: ev.Declared) -> State:
    declaration = event.declaration
    burned = state.round if declaration.heroic_burn else None

    def change(c: Character) -> Character:
        return replace(
            c,
            token_on=declaration.defence_token,
            burned_round=c.burned_round if burned is None else burned,
            stance=declaration.stance or c.stance,
        )

    state = update(state, declaration.character, change)
    return replace(state, declarations={**state.declarations, declaration.character: declaration})
