"""Lord abilities (2.1.1, 2.1.2, AEC-13): what a Lord Sheet lists, and using it.

The text names Lord Sheets but contains none, so an ability is data the table enters
from its sheet: a name, a timing and an effect in the sheet's words.  The service cannot
apply an effect it was never told, so a use is recorded (and logged) for the GM to apply
by ruling.  What the text does say is enforced: abilities are available only "while your
Lord is not captured" (passive ones too, 2.1.4), and an ability that "requires your Lord
to be committed to a battle" says so (``requires_committed``).  A per-round limit on the
sheet is counted over the game round and reset at Round Start.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat.commands import (
    LordAbilitySpec,
    SetLordAbilities,
    UseLordAbility,
)
from service.rulesets.aeonis_combat.events import Event, LordAbilitiesSet, LordAbilityUsed
from service.rulesets.aeonis_combat.rules import battle_at, hex_of, label, side_of
from service.rulesets.aeonis_combat.state import LordAbility, State


def abilities(specs: Sequence[LordAbilitySpec]) -> tuple[LordAbility, ...]:
    """A Lord Sheet's abilities as the state keeps them; names are unique."""
    names = [spec.name for spec in specs]
    for name in names:
        if names.count(name) > 1:
            raise RuleViolation(f"the Lord Sheet lists the ability '{name}' twice")
    return tuple(
        LordAbility(
            name=spec.name,
            timing=spec.timing,
            effect=spec.effect,
            passive=spec.passive,
            requires_committed=spec.requires_committed,
            per_round=spec.per_round,
        )
        for spec in specs
    )


def set_abilities(state: State, command: SetLordAbilities) -> tuple[Event, ...]:
    """``aeonis.set_lord_abilities`` (GM): the sheet's abilities, replaced."""
    side_of(state, command.side)
    return (LordAbilitiesSet(side=command.side, abilities=abilities(command.abilities)),)


def use(state: State, command: UseLordAbility) -> tuple[Event, ...]:
    """``aeonis.use_ability``: refused in the words of 2.1.2 / 2.1.4 and of the sheet."""
    side = side_of(state, command.side)
    lord = label(state, side.lord)
    ability = next((a for a in side.sheet.abilities if a.name == command.ability), None)
    if ability is None:
        listed = ", ".join(a.name for a in side.sheet.abilities) or "none"
        raise RuleViolation(
            f"{side.sheet.name}'s Lord Sheet has no ability '{command.ability}' (it lists: "
            f"{listed})"
        )
    if side.lord_captured_by is not None:
        raise RuleViolation(
            f"{lord} is captured: {side.name} cannot use Lord abilities while its Lord is "
            "captured (sections 2.1.2, 2.1.4)"
        )
    if ability.passive:
        raise RuleViolation(
            f"{ability.name} is passive: it applies while {side.sheet.name} is not captured "
            "and is never used (the GM applies it by ruling)"
        )
    if command.hex is not None:
        hex_of(state, command.hex)
    if ability.requires_committed:
        if command.hex is None:
            raise RuleViolation(
                f"{ability.name} requires {side.sheet.name} to be committed to a battle "
                "(section 2.1.2): name the battle's hex"
            )
        battle = battle_at(state, command.hex)
        if side.lord not in battle.committed(command.side):
            raise RuleViolation(
                f"{ability.name} requires {side.sheet.name} to be committed to a battle "
                f"(section 2.1.2), and {lord} is not committed to the battle at {command.hex}"
            )
    uses = side.abilities_used.get(ability.name, 0) + 1
    if ability.per_round is not None and uses > ability.per_round:
        raise RuleViolation(
            f"{ability.name} may be used {_times(ability.per_round)} per round (the Lord "
            f"Sheet: {ability.timing}); {side.name} has used it {_times(uses - 1)} in round "
            f"{state.round}"
        )
    return (
        LordAbilityUsed(
            side=command.side,
            lord=side.lord,
            ability=ability.name,
            timing=ability.timing,
            effect=ability.effect,
            hex=command.hex,
            note=command.note,
            uses=uses,
        ),
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
