"""What players and spectators see of an Aeonisk encounter (service/secrecy.py).

``player_state`` is the state with health per the table's ``Audience`` setting and
without what it remembers of rolls (``recent`` outcomes, Initiative totals).  What a
secret event shows (``SHOWN_WHEN_SECRET``, ``narrate_secret``) is ``narrate_secret``'s,
re-exported here.
"""

from __future__ import annotations

import msgspec

from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS, Band, Stance
from service.rulesets.aeonisk_tactical.narrate_secret import SHOWN_WHEN_SECRET, narrate_secret
from service.rulesets.aeonisk_tactical.options import AeoniskOptions
from service.rulesets.aeonisk_tactical.plan import Declaration
from service.rulesets.aeonisk_tactical.rules import resolution_order
from service.rulesets.aeonisk_tactical.state import (
    Bonding,
    Breakaway,
    Character,
    HeldToken,
    Obscurement,
    Pairing,
    ParryMade,
    PendingSuppress,
    Phase,
    State,
    TacticalToken,
    Watch,
    Weapon,
)
from service.secrecy import Audience, HealthView, health_view


class PlayerSheet(msgspec.Struct, frozen=True, kw_only=True):
    """The character sheet: shown only to an audience that sees the character's exact
    health (a PC, or every NPC at a table with ``npc_health = "exact"``)."""

    attributes: dict[str, int] = {}
    skills: dict[str, int] = {}
    soak: int = 0
    void: int = 0
    bonds: tuple[str, ...] = ()
    weapons: dict[str, Weapon] = {}
    defence: Pairing | None = None
    static_defence: int | None = None
    parry: Pairing | None = None
    stun: int = 0
    shocks: int = 0


class PlayerCharacter(msgspec.Struct, frozen=True, kw_only=True):
    """A character as players see them.

    ``health`` maps Wounds to current/maximum: maximum is ``FATAL_WOUNDS`` (5, where the
    Health check starts, AEK-68), current is ``5 - Wounds`` floored at 0, and 0 for a dead
    character.  So "unhurt" is no Wound, "bloodied" 3+ Wounds, "down" 5+ Wounds or dead.
    Stun and Shocks are in ``sheet``, for those who see exact numbers only.

    Left out: ``initiative`` (a roll total; ``PlayerState.order`` keeps the order), and
    the one-shot bonuses ``cover_mod``, ``energy_bonus``, ``backlash`` and
    ``charge_foe``, which are used up by the next hit or roll, so whether they are still
    there tells a secret roll's outcome.
    """

    id: str
    name: str
    side: str
    pc: bool
    health: HealthView
    prone: bool = False
    stance: Stance = "normal"
    zone: str | None = None
    reaction_used: bool = False
    token_on: str | None = None
    burned_round: int | None = None
    tactical: HeldToken | None = None
    hunkered_round: int | None = None
    charged_round: int | None = None
    watch: Watch | None = None
    sheet: PlayerSheet | None = None


class PlayerState(msgspec.Struct, frozen=True, kw_only=True):
    """The Aeonisk state for players: no Initiative totals, no remembered outcomes."""

    options: AeoniskOptions
    characters: dict[str, PlayerCharacter] = {}
    order: tuple[str, ...] = ()
    """Living characters with Initiative in resolution order (the totals are dropped)."""
    bands: dict[str, Band] = {}
    tokens: dict[str, TacticalToken] = {}
    phase: Phase
    declarations: dict[str, Declaration] = {}
    resolved: tuple[str, ...] = ()
    reacted: tuple[str, ...] = ()
    bondings: tuple[Bonding, ...] = ()
    parries: tuple[ParryMade, ...] = ()
    high_ground: tuple[str, ...] = ()
    ley_node: tuple[str, ...] = ()
    breakaway: Breakaway | None = None
    suppressed: PendingSuppress | None = None
    obscured: tuple[Obscurement, ...] = ()
    initiative_due: tuple[str, ...] = ()


def _health(audience: Audience, c: Character) -> HealthView:
    current = 0 if not c.alive else max(0, FATAL_WOUNDS - c.wounds)
    return health_view(audience, c.id, current, FATAL_WOUNDS)


def _character(audience: Audience, c: Character) -> PlayerCharacter:
    sheet = (
        PlayerSheet(
            attributes=dict(c.attributes),
            skills=dict(c.skills),
            soak=c.soak,
            void=c.void,
            bonds=c.bonds,
            weapons=dict(c.weapons),
            defence=c.defence,
            static_defence=c.static_defence,
            parry=c.parry,
            stun=c.stun,
            shocks=c.shocks,
        )
        if audience.shows_exact_health(c.id)
        else None
    )
    return PlayerCharacter(
        id=c.id,
        name=c.name,
        side=c.side,
        pc=c.pc,
        health=_health(audience, c),
        prone=c.prone,
        stance=c.stance,
        zone=c.zone,
        reaction_used=c.reaction_used,
        token_on=c.token_on,
        burned_round=c.burned_round,
        tactical=c.tactical,
        hunkered_round=c.hunkered_round,
        charged_round=c.charged_round,
        watch=c.watch,
        sheet=sheet,
    )


def player_state(state: State, audience: Audience) -> PlayerState:
    """``state`` for ``audience``: health per ``PlayerCharacter``'s mapping, Initiative as
    an order of ids, ``recent`` roll outcomes and one-shot roll bonuses dropped."""
    return PlayerState(
        options=state.options,
        characters={cid: _character(audience, c) for cid, c in state.characters.items()},
        order=tuple(c.id for c in resolution_order(state)),
        bands=dict(state.bands),
        tokens=dict(state.tokens),
        phase=state.phase,
        declarations=dict(state.declarations),
        resolved=state.resolved,
        reacted=state.reacted,
        bondings=state.bondings,
        parries=state.parries,
        high_ground=state.high_ground,
        ley_node=state.ley_node,
        breakaway=state.breakaway,
        suppressed=state.suppressed,
        obscured=state.obscured,
        initiative_due=state.initiative_due,
    )


__all__ = [
    "SHOWN_WHEN_SECRET",
    "PlayerCharacter",
    "PlayerSheet",
    "PlayerState",
    "narrate_secret",
    "player_state",
]
