"""The folded state of a Scentfinder encounter.

Areas and their links, combatants with their sheet, pools and conditions, the round and
whose turn it is, and the one test waiting for the GM's degree.  Everything is frozen;
``evolve`` builds new values.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.rulesets.scentfinder.fields import ConditionKind, Expiry, SaveName
from service.rulesets.scentfinder.options import ScentfinderOptions


class Hazard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Hazardous terrain (Save, dx): the Save it calls for and its damage die (SCF-17)."""

    save: SaveName
    die: str


class Obstacle(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Obstacle ([skill]): the skill a Shift through it tests and how it is modified."""

    skill: str
    modifier: Literal["none", "favoured", "impaired"] = "none"


class Area(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    difficult: bool = False
    hazard: Hazard | None = None
    obstacle: Obstacle | None = None
    uneven: bool = False
    cover: bool = False


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon on the sheet: its damage die, the skill it attacks with, whether it is a
    melee weapon and has reach, and how many areas away it hits (SCF-A21)."""

    damage: str
    skill: str = "Might"
    melee: bool = True
    reach: bool = False
    range: int = 0


class Spell(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A spell on the sheet: its cost in actions ([1]/[2]/[3]/[6]), FP, damage die."""

    actions: Literal[1, 2, 3, 6] = 1
    fp: int = 0
    damage: str | None = None
    range: int = 1
    effect: str | None = None


class Condition(msgspec.Struct, frozen=True, kw_only=True):
    """One counted instance of a condition on its bearer (SCF-57, SCF-58)."""

    id: str
    kind: ConditionKind
    expiry: Expiry = "turns"
    remaining: int | None = None
    source: str | None = None
    against: str | None = None
    """Whom it concerns: the enemy a Favour applies against, the feinter a Stun is
    against, the taunter, the holder of a grapple, the hider a seeker can target."""
    scope: str | None = None
    """What the modifier applies to, in words ("attacks against Goblin", "Hiding")."""
    circumstance: bool = False
    area: str | None = None
    spell: str | None = None
    sustainable: bool = False
    skips: int = 0
    save: SaveName | None = None
    intense: bool = False
    note: str | None = None
    origin: str | None = None
    """The action that put it there ("Flank", "Disarm", "Sneak"), named on the tests it
    bears on."""


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    pc: bool = True
    side: str = "party"
    sentient: bool = True
    minion_of: str | None = None
    hp: int = 0
    max_hp: int = 0
    fp: int = 0
    max_fp: int = 0
    saves: dict[str, int] = {}
    skills: tuple[str, ...] = ()
    weapons: dict[str, Weapon] = {}
    held: tuple[str, ...] = ()
    hands: int = 2
    spells: dict[str, Spell] = {}
    magic_skill: str | None = None
    refocus_skill: str | None = None
    healing_tools: bool = False
    shield: bool = False
    area: str | None = None
    start_area: str | None = None
    phase: int | None = None
    init_value: int | None = None
    rank: int = 0
    index: int = 0
    actions: int = 0
    reaction: int = 0
    granted: int = 0
    """Actions a minion may spend during its commander's turn (SCF-26, SCF-A22)."""
    had_turn: bool = False
    """A turn has started for them (a Delay before the first one takes it back)."""
    turn_before: bool = False
    """Whether they had had a turn before the current one started (SCF-10, SCF-A11)."""
    reaction_before: int = 0
    """Their reaction before the current turn regained one: what a Delay keeps (SCF-A11)."""
    acted: bool = False
    """Took an action this turn (Delay only at turn start)."""
    attacked_with: tuple[str, ...] = ()
    conditions: tuple[Condition, ...] = ()
    persistent: tuple[int, ...] = ()
    deaths_door: bool = False
    dd_action_loss: int = 0
    readied: str | None = None
    out: bool = False

    def has(self, kind: str, against: str | None = None) -> bool:
        return any(
            c.kind == kind and (against is None or c.against == against) for c in self.conditions
        )


class Pending(msgspec.Struct, frozen=True, kw_only=True):
    """A declared test waiting for the GM's degree (or a hazard waiting for its Save)."""

    kind: Literal["test", "hazard"] = "test"
    actor: str
    action: str
    target: str | None = None
    skill: str | None = None
    weapon: str | None = None
    spell: str | None = None
    area: str | None = None
    condition: str | None = None
    via: str = "turn"
    save: SaveName | None = None
    die: str | None = None


Stage = Literal["setup", "combat", "ended"]


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: ScentfinderOptions = ScentfinderOptions()
    stage: Stage = "setup"
    areas: dict[str, Area] = {}
    links: tuple[tuple[str, str], ...] = ()
    combatants: dict[str, Combatant] = {}
    round: int = 0
    current: str | None = None
    done: tuple[str, ...] = ()
    """Who has had their turn this round."""
    pending: Pending | None = None
    next_condition: int = 1


def initial_state(options: ScentfinderOptions) -> State:
    return State(options=options)


def round_of(state: State) -> int | None:
    return state.round if state.round > 0 else None
