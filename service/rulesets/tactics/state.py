"""The folded state of a TACTICS encounter.

Combatants with their sheet (attributes, armour, shields, weapons, Maneuvers), wounds
with the source and scene of each, the zone map with its features, the GM's turn order,
and every pending Press (``pending``): declared on the attacker's turn, visible to
everyone, resolved at the start of each target's next turn in declaration order.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.rulesets.tactics.options import TacticsOptions

Band = Literal["immediate", "close", "medium", "far", "sight"]
Area = Literal["single", "splash", "small", "medium", "large", "chain", "cloud"]
Category = Literal["standard", "minion", "slow_heavy"]
Status = Literal["active", "incapacitated", "dead"]
BonusStat = Literal["agility", "soak", "precision", "damage"]
BonusDuration = Literal["turn", "until_next_turn"]
HitMode = Literal["dodge", "brace"]
"""dodge: Agility check, fail-by bonus, then soak; brace: no Agility roll (TAC-21)."""
FeatureKind = Literal["cover", "cloud", "other"]
Stage = Literal["react", "resolving", "acting"]


class Weapon(msgspec.Struct, frozen=True, kw_only=True):
    """A weapon or offensive ability on the sheet: what a Press with it declares."""

    damage: int
    precision: int
    range: Band = "close"
    area: Area = "single"
    chain: int = 0
    """Chain effects: the most targets one Press may hit (TAC-23)."""
    radius: int = 1
    """Large explosions: zones within this many steps of the centre are in the radius."""


class Maneuver(msgspec.Struct, frozen=True, kw_only=True):
    """A Maneuver on the sheet with its GM- or data-defined bonus (TAC-04, TAC-A6)."""

    stat: BonusStat | None = None
    amount: int = 0
    duration: BonusDuration = "until_next_turn"
    """turn: to the end of the turn it is taken in; until_next_turn: to the end of the
    creature's next turn (so cover taken now helps when Presses resolve next turn)."""
    covers: Literal["all", "one"] = "all"
    """As a React: whether the bonus applies to every pending Press or to the one named."""


class Bonus(msgspec.Struct, frozen=True, kw_only=True):
    maneuver: str
    stat: BonusStat
    amount: int
    until_turn: int
    """Ends when the creature's turn with this number ends."""
    press: str | None = None
    """Only against this pending Press (a React covering one)."""


class Wound(msgspec.Struct, frozen=True, kw_only=True):
    """A batch of wounds with where and when it came from (TAC-A10)."""

    amount: int
    source: str
    scene: int


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    side: str = ""
    category: Category = "standard"
    precision: int = 0
    endurance: int = 0
    agility: int = 0
    acumen: int = 0
    armour: int = 0
    toughness: int = 1
    max_shields: int = 0
    shields: int = 0
    weapons: dict[str, Weapon] = {}
    maneuvers: dict[str, Maneuver] = {}
    zone: str | None = None
    wounds: tuple[Wound, ...] = ()
    status: Status = "active"
    bonuses: tuple[Bonus, ...] = ()
    # the current or last turn of this creature
    turns_taken: int = 0
    actions_left: int = 0
    presses_this_turn: int = 0
    reacted: bool = False
    rolled_this_turn: bool = False
    cooldown_tried: bool = False

    @property
    def wound_total(self) -> int:
        return sum(w.amount for w in self.wounds)


class Feature(msgspec.Struct, frozen=True, kw_only=True):
    """A zone feature: a source of cover, a cloud, anything creatures can exploit (TAC-19,
    TAC-24).  ``users`` are the creatures exploiting or inside it."""

    id: str
    name: str
    zone: str
    kind: FeatureKind
    users: tuple[str, ...] = ()


class PendingHit(msgspec.Struct, frozen=True, kw_only=True):
    """One creature a declared Press will test at the start of its next turn."""

    target: str
    mode: HitMode = "dodge"


class PendingPress(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    attacker: str
    weapon: str
    damage: int
    precision: int
    area: Area
    hits: tuple[PendingHit, ...]
    primary: str | None = None
    """A splash Press: the creature aimed at; the others are hit for being near it."""
    feature: str | None = None
    """A cloud Press: the cloud whose inhabitants it hits; leaving it voids the hit."""


class Setup(msgspec.Struct, frozen=True, tag="setup"):
    pass


class Fighting(msgspec.Struct, frozen=True, kw_only=True, tag="fighting"):
    round: int
    turn: str
    stage: Stage


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag="ended"):
    round: int | None


Phase = Setup | Fighting | Ended


class State(msgspec.Struct, frozen=True, kw_only=True):
    options: TacticsOptions
    combatants: dict[str, Combatant] = {}
    zones: dict[str, tuple[str, ...]] = {}
    """Zone id -> the zones it links to (both directions are stored)."""
    hindered: tuple[tuple[str, str], ...] = ()
    """Pairs of combatants (sorted) whose access to each other is hindered (TAC-A13)."""
    sight: tuple[tuple[str, str], ...] = ()
    """Pairs of zones (sorted) with line of sight between them (TAC-A13)."""
    features: dict[str, Feature] = {}
    order: tuple[str, ...] = ()
    pending: tuple[PendingPress, ...] = ()
    """Declared Presses not yet fully resolved, in declaration order."""
    presses_declared: int = 0
    scene: int = 1
    phase: Phase = Setup()

    def round(self) -> int | None:
        number: int | None = getattr(self.phase, "round", None)
        return number


def initial_state(options: TacticsOptions) -> State:
    return State(options=options)


def round_of(state: State) -> int | None:
    return state.round()


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)
