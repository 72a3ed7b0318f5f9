"""The folded state of an Aeonis encounter: the map in play, the sides, units and battles.

Everything is keyed by string (hex ``"q,r"``, unit id, side id) in plain dicts so a state
encodes to small JSON and ``evolve`` copies only the dict it changes.  Destroyed units
are deleted, not kept with 0 hp, so the state stays the size of what is on the board
however many turns are played.  Only Lords stay when defeated: they are captured.

A battle lives in ``battles`` under its target hex from the declaration until it is
decided, dissolved or lifted.  Sieges (and, with ``standard_battle_persistence =
"paused"``, any battle) stay there between Attack actions with ``step = "paused"``; that
entry with ``siege = True`` is the Siege marker (section 6.1).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.rulesets.aeonis_combat.fields import HexKind, UnitKind
from service.rulesets.aeonis_combat.options import AeonisOptions

Stage = Literal["setup", "action", "cleanup"]
"""``setup`` before round 1; ``action`` from Round Start to Cleanup & Checks (the Action
Phase, when attacks happen); ``cleanup`` after Cleanup & Checks until the next Round Start."""

Step = Literal[
    "defence", "ready", "attacker_retreat", "defender_retreat", "choice", "occupation", "paused"
]
"""Where a battle is, and who is to act:

- ``defence``: the defender commits / holds the walls / adds siege reinforcements;
- ``ready``: lines are formed; the attacker resolves the battle round (``aeonis.fight``);
- ``attacker_retreat`` / ``defender_retreat``: the Retreat Check, attacker first (4.4);
- ``choice``: the round is over and the battle goes on: the attacker Presses the Attack,
  ends the Attack action or (in a siege) lifts the siege;
- ``occupation``: the attacker won and picks the units that occupy the hex (5.1);
- ``paused``: between Attack actions (a siege, or any battle with persistence ``paused``).
"""

OPEN_STEPS: frozenset[Step] = frozenset(
    {"defence", "ready", "attacker_retreat", "defender_retreat", "choice", "occupation"}
)
"""Steps of a battle whose Attack action is still going on."""

LINE_CAP: dict[HexKind, int] = {"standard": 3, "city": 5, "fortress": 5}
"""Battle Line Cap per hex (section 1.2, AEC-06)."""

SIEGE_REINFORCEMENTS = 3
"""Units each side may add per siege round (section 6.4, AEC-28)."""

CAPTURE_RENOWN, CAPTURE_VP = 2, 1
"""What capturing a Lord gives the captor (section 2.1.4, AEC-10)."""


class UnitStats(msgspec.Struct, frozen=True, kw_only=True):
    attack_die: str
    defense_die: str
    hp: int


UNIT_STATS: dict[UnitKind, UnitStats] = {
    "infantry": UnitStats(attack_die="d6", defense_die="d6", hp=1),
    "cavalry": UnitStats(attack_die="d8", defense_die="d6", hp=2),
    "archers": UnitStats(attack_die="d6", defense_die="d4", hp=1),
}
"""Section 2, AEC-08.  Lords take theirs from the Lord Sheet."""


class Hex(msgspec.Struct, frozen=True, kw_only=True):
    """One hex of the map in play.  Control comes from the host game (AEC-A18)."""

    kind: HexKind = "standard"
    controller: str | None = None
    contested: bool = False
    attackable: bool = False
    """Attackable by scenario rules whoever controls it (section 3.1)."""


class LordAbility(msgspec.Struct, frozen=True, kw_only=True):
    """One ability of a Lord Sheet (2.1.1).  The sheets are not part of the text, so the
    service keeps what the sheet says as data and the GM applies the effect by ruling;
    the service enforces only what section 2.1.2 makes general: no ability while the
    Lord is captured, and the commitment an ability says it needs."""

    name: str
    timing: str
    """When the sheet says it may be used, in the sheet's words."""
    effect: str
    """What it does, for the GM to apply."""
    passive: bool = False
    """Always on while the Lord is free; nothing to use."""
    requires_committed: bool = False
    """The sheet says the Lord must be committed to a battle (2.1.2)."""
    per_round: int | None = None
    """Uses per game round, when the sheet limits them."""


class LordSheet(msgspec.Struct, frozen=True, kw_only=True):
    """The Lord unit's stats from the Lord Sheet (section 2.1.1, AEC-09)."""

    name: str
    attack_die: str
    defense_die: str
    hp: int
    movement: int
    abilities: tuple[LordAbility, ...] = ()


class Side(msgspec.Struct, frozen=True, kw_only=True):
    """A player: resources, Home City and Lord."""

    name: str
    ap: int = 0
    renown: int = 0
    vp: int = 0
    home_city: str | None = None
    lord: str
    """The Lord's unit id."""
    sheet: LordSheet
    lord_captured_by: str | None = None
    """The capturing side while the Lord is captured; its abilities are disabled then."""
    abilities_used: dict[str, int] = {}
    """Lord ability name -> uses in the current game round (for ``per_round`` limits)."""


class Unit(msgspec.Struct, frozen=True, kw_only=True):
    side: str
    kind: UnitKind | Literal["lord"]
    hex: str | None
    """None while a Lord is captured (off the map) or released without a hex to go to."""
    hp: int


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """A declared attack on ``hex`` (the key of ``State.battles``)."""

    attacker: str
    defender: str
    cap: int
    siege: bool = False
    assault: bool = False
    step: Step = "defence"
    attacker_line: tuple[str, ...] = ()
    attacker_reserves: tuple[str, ...] = ()
    defender_line: tuple[str, ...] = ()
    defender_reserves: tuple[str, ...] = ()
    targets: dict[str, str] = {}
    """Standing target choices, striker -> enemy unit."""
    rounds_fought: int = 0
    """Battle rounds fought in this battle (siege rounds for a siege)."""
    pressed: bool = False
    """Press the Attack was used in the current Attack action (AEC-16)."""
    retreat_allowed: bool = False
    """A GM ruling (card, spell or motion) lets the defender retreat from a City/Fortress."""
    reinforce: dict[str, tuple[str, ...]] = {}
    """Side -> the Reserves it chose to promote in the coming round's Reinforce (4.1);
    a side absent here has not chosen (option ``reinforce_unchosen`` applies)."""

    def opponent(self, side: str) -> str:
        """The other side of this battle."""
        return self.defender if side == self.attacker else self.attacker

    def line(self, side: str) -> tuple[str, ...]:
        return self.attacker_line if side == self.attacker else self.defender_line

    def reserves(self, side: str) -> tuple[str, ...]:
        return self.attacker_reserves if side == self.attacker else self.defender_reserves

    def committed(self, side: str) -> tuple[str, ...]:
        return (*self.line(side), *self.reserves(side))

    def all_units(self) -> tuple[str, ...]:
        return (*self.committed(self.attacker), *self.committed(self.defender))


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``decide`` needs, and nothing it does not."""

    options: AeonisOptions
    round: int = 0
    """The current game round; 0 before the first Round Start."""
    stage: Stage = "setup"
    hexes: dict[str, Hex] = {}
    sides: dict[str, Side] = {}
    units: dict[str, Unit] = {}
    battles: dict[str, Battle] = {}
    decided: dict[str, str] = {}
    """Hex -> how its last battle was decided ("House Red won it"), until another attack
    is declared there: a command for that battle afterwards is refused as decided."""


def initial_state(options: AeonisOptions) -> State:
    return State(options=options)


def round_of(state: State) -> int | None:
    """The current game round for round replay; None before the first Round Start."""
    return state.round or None


def attack_die(state: State, unit: Unit) -> str:
    if unit.kind == "lord":
        return state.sides[unit.side].sheet.attack_die
    return UNIT_STATS[unit.kind].attack_die


def defense_die(state: State, unit: Unit) -> str:
    if unit.kind == "lord":
        return state.sides[unit.side].sheet.defense_die
    return UNIT_STATS[unit.kind].defense_die


def max_hp(state: State, unit: Unit) -> int:
    if unit.kind == "lord":
        return state.sides[unit.side].sheet.hp
    return UNIT_STATS[unit.kind].hp
