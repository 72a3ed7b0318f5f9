"""Evolve the round: a new round started and a character's declaration recorded."""

from __future__ import annotations

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_common import each, update
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Declaration
from service.rulesets.aeonisk_tactical.state import Character, Declaring, State


def round_started(state: State, event: ev.RoundStarted) -> State:
    state = each(state, lambda c: replace(c, reaction_used=False, token_on=None))
    return replace(
        state,
        phase=Declaring(round=event.round),
        initiative_due=event.awaiting,
        declarations={},
        resolved=(),
        failed=(),
        reacted=(),
        bondings=(),
        parries=(),
        high_ground=(),
        ley_node=(),
        breakaway=None,
    )


def lapsed(state: State, event: ev.DeclarationLapsed) -> State:
    """Nothing declared: no action, and the Defence Token stays unallocated (AEK-32)."""
    empty = Declaration(character=event.character, lapsed=True)
    return replace(state, declarations={**state.declarations, event.character: empty})


def surged(state: State, event: ev.VoidSurgeDeclared) -> State:
    """The declared attack (or Charge) now carries the Void Surge (AEK-63)."""
    found = state.declarations.get(event.character)
    if found is None or not isinstance(found.major, Attack | Charge):
        return state
    declaration = replace(found, major=replace(found.major, void_surge=True))
    return replace(state, declarations={**state.declarations, event.character: declaration})


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
