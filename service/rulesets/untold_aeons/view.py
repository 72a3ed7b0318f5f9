"""What players see: of a secret event (``SHOWN_WHEN_SECRET``) and of the state
(``player_state``).

A command that made a hidden roll (the Narrator's difficulty dice behind the screen,
UAE-11, or any roll the Narrator makes in secret) is secret until revealed: players see
who acted, on whom and what was attempted, never counts, outcomes, damage, stress or
status after it.

Health for players (``service.secrecy.health_view``): wounds here are a threshold, not a
pool running down (UAE-A22), so the view maps damage onto twice the wound limit:
current = 2 x limit - damage, maximum = 2 x limit. A character reads "wounded" once
hurt, "bloodied" from the wound limit on (where the Severely-Injured check starts) and
"down" at twice the limit (save or die). Stress is shown the same way, against twice
the Stress Limit, and only as exactly as health.
"""

from __future__ import annotations

import msgspec

from service.rulesets.untold_aeons.events import EVENT_TYPES
from service.rulesets.untold_aeons.state import Character, Slot, Speed, State, Weapon
from service.secrecy import Audience, HealthView, health_view

_WHO = frozenset({"character"})
_ALL_PUBLIC = {
    # events no roll decides: every field may be shown
    "untold-aeons.character_added": None,
    "untold-aeons.distance_set": None,
    "untold-aeons.round_started": None,
    "untold-aeons.turn_chosen": None,
    "untold-aeons.turns_ordered": None,
    "untold-aeons.moved": None,
    "untold-aeons.stood_up": None,
    "untold-aeons.turn_ended": None,
    "untold-aeons.check_called": None,
    "untold-aeons.advanced": None,
    "untold-aeons.value_set": None,
    "untold-aeons.condition_set": None,
    "untold-aeons.status_set": None,
    "untold-aeons.effect_ruled": None,
    "untold-aeons.encounter_ended": None,
}

SHOWN_WHEN_SECRET: dict[str, frozenset[str]] = {
    "untold-aeons.attack_declared": frozenset(
        {"attacker", "target", "weapon", "ranged", "rapid_fire"}
    ),
    "untold-aeons.attack_resolved": frozenset({"attacker", "target", "weapon", "response"}),
    "untold-aeons.limit_checked": frozenset({"character", "track"}),
    "untold-aeons.bled": _WHO,
    "untold-aeons.check_rolled": frozenset({"character", "label"}),
    "untold-aeons.skill_dice_rolled": frozenset({"character", "label", "difficulty"}),
    "untold-aeons.difficulty_rolled": frozenset({"character", "label"}),
    "untold-aeons.check_rerolled": frozenset({"character", "label"}),
    "untold-aeons.roll_rerolled": frozenset({"character", "label"}),
    "untold-aeons.sanity_checked": frozenset({"character", "cause", "category"}),
    "untold-aeons.notch_gained": _WHO,
    "untold-aeons.karma_spent": frozenset({"by", "pool", "use", "target", "note"}),
    "untold-aeons.recovered": frozenset({"character", "track"}),
}
for _type in EVENT_TYPES:
    _tag = str(_type.__struct_config__.tag)
    if _tag not in SHOWN_WHEN_SECRET:
        assert _tag in _ALL_PUBLIC, _tag
        SHOWN_WHEN_SECRET[_tag] = frozenset(
            f for f in _type.__struct_fields__ if f not in ("rolls",)
        )


class PlayerSheet(msgspec.Struct, frozen=True, kw_only=True):
    """What a player acts from: their investigator's skills and weapons by name.  Shown
    for player characters only: an NPC's stat block stays the Narrator's."""

    skills: dict[str, int]
    weapons: dict[str, Weapon]


class PlayerCharacter(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str
    pc: bool
    health: HealthView
    stress: HealthView
    shaken: bool
    status: str
    conditions: tuple[str, ...]
    turn: Speed | None = None
    done: bool = False
    sheet: PlayerSheet | None = None


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """The state as the table sees it: no sheets of NPCs, no karma boosts pending, no
    Narrator's difficulty dice, no remembered faces of checks."""

    round: int | None
    phase: str
    initiating_side: str | None
    karma_players: int
    karma_narrator: int
    characters: dict[str, PlayerCharacter]
    slots: tuple[Slot, ...]
    waiting_for_defence: str | None
    checks_called: dict[str, str]
    """Who has a check to roll: character -> the check's label."""


def _character(state: State, who: Character, audience: Audience) -> PlayerCharacter:
    wounds = 2 * who.wound_limit
    stress = 2 * who.stress_limit
    return PlayerCharacter(
        id=who.id,
        name=who.name,
        side=who.side,
        pc=who.pc,
        health=health_view(audience, who.id, wounds - who.damage, wounds),
        stress=health_view(audience, who.id, stress - who.stress, stress),
        shaken=who.shaken,
        status=who.status,
        conditions=who.conditions,
        turn=state.turns.get(who.id),
        done=who.id in state.done,
        sheet=PlayerSheet(skills=who.skills, weapons=who.weapons)
        if who.id in audience.player_combatants
        else None,
    )


def player_state(state: State, audience: Audience) -> PlayerState:
    return PlayerState(
        round=state.round,
        phase=state.phase,
        initiating_side=state.initiating_side,
        karma_players=state.karma_players,
        karma_narrator=state.karma_narrator,
        characters={k: _character(state, c, audience) for k, c in state.characters.items()},
        slots=state.slots,
        waiting_for_defence=state.pending.target if state.pending else None,
        checks_called={k: v.label for k, v in state.called.items()},
    )
