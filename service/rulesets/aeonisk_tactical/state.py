"""The folded state of an Aeonisk encounter.

``phase`` is a tagged union (``Setup | Declaring | Fast | Slow | Cleanup | Ended``): the
four phases of a round (section 1) are states of their own, so a command can only be
accepted in the phase the text gives it.  What lasts a round (declarations, committed
reactions, the resolved actions) is kept beside the phase and emptied when a round
starts.  Everything is frozen; ``evolve`` builds new values and never mutates a dict.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical.fields import Band, Slot, Stance, TokenKind
from service.rulesets.aeonisk_tactical.options import AeoniskOptions
from service.rulesets.aeonisk_tactical.plan import AnyAction, Declaration


class Weapon(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A weapon on the sheet: its damage bonus, Rate of Fire and whether it shoots."""

    bonus: int = 0
    rate_of_fire: int = 1
    ranged: bool = False


class Pairing(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The Attribute x Skill a roll uses (YAGS core pairs them; AEK-A34)."""

    attribute: str
    skill: str


class HeldToken(msgspec.Struct, frozen=True, kw_only=True):
    """The one Tactical Token a character holds (AEK-41) and when it was claimed."""

    token: str
    kind: TokenKind
    claimed_round: int


class BandChange(msgspec.Struct, frozen=True, kw_only=True):
    """One pair-wise band a move changes (AEK-24)."""

    other: str
    before: Band | None
    after: Band


class Watch(msgspec.Struct, frozen=True, kw_only=True):
    """An Overwatch arc set up with a Minor action in ``set_round`` (AEK-59, AEK-A24)."""

    arc: tuple[str, ...]
    weapon: str
    attribute: str
    skill: str
    set_round: int


class Character(msgspec.Struct, frozen=True, kw_only=True):
    """A YAGS character with the tactical trackers of section 9."""

    id: str
    name: str
    side: str
    pc: bool = True
    attributes: dict[str, int] = {}
    skills: dict[str, int] = {}
    soak: int = 0
    void: int = 0
    bonds: tuple[str, ...] = ()
    weapons: dict[str, Weapon] = {}
    defence: Pairing | None = None
    static_defence: int | None = None
    parry: Pairing | None = None
    """The YAGS Attribute x Skill of a Parry (the tactical text names Parry only)."""
    wounds: int = 0
    stun: int = 0
    shocks: int = 0
    status: Literal["active", "dead"] = "active"
    prone: bool = False
    stance: Stance = "normal"
    zone: str | None = None
    initiative: int | None = None
    reaction_used: bool = False
    token_on: str | None = None
    """The foe holding this character's Defence Token this round (AEK-31)."""
    burned_round: int | None = None
    """The round of the Heroic Burn; the token never refreshes after it (AEK-35)."""
    tactical: HeldToken | None = None
    cover_mod: int = 0
    """Section 9 Cover_Mod: +2 Soak against the next incoming hit (AEK-43, AEK-A33)."""
    energy_bonus: int = 0
    """Energy Hub +2 banked for the next damage or effect roll (AEK-A15)."""
    backlash: int = 0
    """Bonded Defence: -2 on this character's next defence roll (AEK-A25)."""
    hunkered_round: int | None = None
    """Hunker Down (-4 to attack and defence) imposed in this round (AEK-57)."""
    charged_round: int | None = None
    """Charged in this round: -2 to defences until the next turn (AEK-58)."""
    charge_foe: str | None = None
    """The foe whose first melee damage roll this round gets the Charge +2."""
    watch: Watch | None = None

    def attribute(self, key: str) -> int:
        return self.attributes.get(key, 0)

    @property
    def alive(self) -> bool:
        return self.status == "active"


class TacticalToken(msgspec.Struct, frozen=True, kw_only=True):
    """A token on the table (section 5); ``holder`` is who claimed it."""

    id: str
    kind: TokenKind
    label: str
    holder: str | None = None


class Bonding(msgspec.Struct, frozen=True, kw_only=True):
    """Bonded Defence committed this round: ``by`` gives ``ally`` +2 against ``attacker``."""

    by: str
    ally: str
    attacker: str


class PendingMove(msgspec.Struct, frozen=True, kw_only=True):
    """A move out of Engaged held back while the foes left behind take their free
    strikes (AEK-28: 'immediate', against a foe 'you were Engaged with').  ``slot`` is
    the declared action it belongs to (none for a Sprint Lane shift); a Charge's attack
    follows the move with the GM's ``attack_modifiers`` and ``defence_modifiers``."""

    changes: tuple[BandChange, ...] = ()
    zone: str | None = None
    slot: Slot | None = None
    attack_modifiers: tuple[Modifier, ...] = ()
    defence_modifiers: tuple[Modifier, ...] = ()


class Breakaway(msgspec.Struct, frozen=True, kw_only=True):
    """A move out of Engaged without Disengage: these foes may strike for free (AEK-28).
    ``move`` is the move still to complete (None: it already happened, as events stored
    before the strike came first record it)."""

    mover: str
    foes: tuple[str, ...]
    move: PendingMove | None = None


class ParryMade(msgspec.Struct, frozen=True, kw_only=True):
    """A Parry committed against ``attacker``'s declared attack on ``by`` (AEK-14, AEK-21):
    the defence roll of that attack uses Attribute x Skill + ``bonus`` (YAGS inputs)."""

    by: str
    attacker: str
    attribute: str
    skill: str
    bonus: int = 0


class PendingSuppress(msgspec.Struct, frozen=True, kw_only=True):
    """A suppressed target who has to choose Dive or Hunker Down (AEK-57)."""

    target: str
    by: str


class Obscurement(msgspec.Struct, frozen=True, kw_only=True):
    """An opened Vent (AEK-46): its effect is the GM's; it lasts to ``until_round``."""

    by: str
    label: str
    until_round: int


class RecentRoll(msgspec.Struct, frozen=True, kw_only=True):
    """A recent decided roll, so a GM can overrule its outcome by roll id."""

    roll_id: str
    description: str
    outcome: str


class Setup(msgspec.Struct, frozen=True, tag="setup"):
    """Characters gather, bands and tokens are placed; no round yet."""


class Declaring(msgspec.Struct, frozen=True, kw_only=True, tag="declare"):
    round: int


class Fast(msgspec.Struct, frozen=True, kw_only=True, tag="fast"):
    round: int


class Slow(msgspec.Struct, frozen=True, kw_only=True, tag="slow"):
    round: int


class Cleanup(msgspec.Struct, frozen=True, kw_only=True, tag="cleanup"):
    round: int


class Ended(msgspec.Struct, frozen=True, kw_only=True, tag="ended"):
    round: int | None


Phase = Setup | Declaring | Fast | Slow | Cleanup | Ended


class State(msgspec.Struct, frozen=True, kw_only=True):
    """Everything ``decide`` needs."""

    options: AeoniskOptions
    characters: dict[str, Character] = {}
    bands: dict[str, Band] = {}
    """Pair-wise bands (AEK-24), keyed ``a|b`` with the ids sorted.  With a zone map, the
    band the map gives between the two characters' zones (kept up to date as they move),
    or the GM's ``set_band`` for a pair of zones the map leaves out."""
    tokens: dict[str, TacticalToken] = {}
    phase: Phase = Setup()
    declarations: dict[str, Declaration] = {}
    resolved: tuple[str, ...] = ()
    """``character:slot`` of the actions resolved (or failed) this round."""
    failed: tuple[str, ...] = ()
    """``character:slot`` of the actions that failed this round (AEK-17, AEK-54)."""
    reacted: tuple[str, ...] = ()
    """Characters who used a Fast-Phase Reaction this round, in that order."""
    bondings: tuple[Bonding, ...] = ()
    parries: tuple[ParryMade, ...] = ()
    high_ground: tuple[str, ...] = ()
    """Characters whose declared attack this round is made from High-Ground."""
    ley_node: tuple[str, ...] = ()
    breakaway: Breakaway | None = None
    suppressed: PendingSuppress | None = None
    obscured: tuple[Obscurement, ...] = ()
    recent: tuple[RecentRoll, ...] = ()
    initiative_due: tuple[str, ...] = ()
    """Characters still to roll Initiative this round, one at a time as the dice land."""

    @property
    def round(self) -> int | None:
        phase = self.phase
        return None if isinstance(phase, Setup) else phase.round

    def declared(self, character: str, slot: Slot) -> AnyAction | None:
        found = self.declarations.get(character)
        if found is None or found.forfeit:
            return None
        return found.major if slot == "major" else found.minor


def initial_state(options: AeoniskOptions) -> State:
    return State(options=options)


def round_of(state: State) -> int | None:
    """The round a state is in, for round replay (``Ruleset.round_of``)."""
    return state.round


def pair_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))
