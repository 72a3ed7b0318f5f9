"""Plain-data building blocks for the Aeonisk ruleset's tests.

Characters as ``add_character`` commands, and ``Table``: a running encounter that plays
commands one after another with manual dice (via ``tests.unit.deciders``), keeping the
history and numbering rolls r1, r2 ... across the whole test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from service.dice.model import RollRecord
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import RULESET, AeoniskOptions, Command, Event, State
from service.rulesets.aeonisk_tactical.commands import (
    AddCharacter,
    Declare,
    NextPhase,
    React,
    SetBand,
)
from service.rulesets.aeonisk_tactical.fields import Band
from service.rulesets.aeonisk_tactical.state import Pairing, Weapon
from tests.unit.deciders import given, line_for

__all__ = ["RULESET", "Table", "alice", "goblin", "gunner", "kaelia", "nyx", "rolls_of"]

PISTOL = Weapon(bonus=4, rate_of_fire=1, ranged=True)
RIFLE = Weapon(bonus=6, rate_of_fire=3, ranged=True)
BLADE = Weapon(bonus=3)


def alice(**changes: Any) -> AddCharacter:
    """A PC: Agility 4 (Initiative 16 + d20), Melee 4, Firearms 3, Athletics 3."""
    command = AddCharacter(
        id="alice",
        name="Alice",
        side="crew",
        attributes={"agility": 4, "strength": 3, "health": 3, "perception": 3},
        skills={"melee": 4, "firearms": 3, "athletics": 3},
        soak=12,
        weapons={"pistol": PISTOL, "blade": BLADE},
        defence=Pairing(attribute="agility", skill="athletics"),
        static_defence=15,
    )
    return replace(command, **changes)


def goblin(**changes: Any) -> AddCharacter:
    """An NPC: Agility 2 (Initiative 8 + d20), Melee 3."""
    command = AddCharacter(
        id="goblin",
        name="Goblin",
        side="raiders",
        pc=False,
        attributes={"agility": 2, "strength": 2, "health": 2},
        skills={"melee": 3, "athletics": 2},
        soak=8,
        weapons={"knife": Weapon(bonus=2), "smg": RIFLE},
        defence=Pairing(attribute="agility", skill="athletics"),
    )
    return replace(command, **changes)


def kaelia(**changes: Any) -> AddCharacter:
    """The snippet's Kaelia: defence Will x Agility (3 x 3 = 9), Bonded to Nyx."""
    command = AddCharacter(
        id="kaelia",
        name="Kaelia",
        side="crew",
        attributes={"agility": 3, "strength": 2, "health": 3, "will": 3, "empathy": 3},
        skills={"athletics": 2, "firearms": 3, "charm": 2},
        soak=10,
        void=3,
        bonds=("nyx",),
        weapons={"pistol": PISTOL},
        defence=Pairing(attribute="will", skill="agility"),
    )
    return replace(command, **changes)


def nyx(**changes: Any) -> AddCharacter:
    """Kaelia's Bonded ally: Empathy 4 x Charm 3 for Bond Rally."""
    command = AddCharacter(
        id="nyx",
        name="Nyx",
        side="crew",
        attributes={"agility": 3, "strength": 2, "health": 2, "will": 4, "empathy": 4},
        skills={"athletics": 2, "charm": 3, "firearms": 2, "ritual": 3},
        soak=10,
        void=5,
        bonds=("kaelia",),
        weapons={"pistol": PISTOL},
        defence=Pairing(attribute="agility", skill="athletics"),
    )
    return replace(command, **changes)


def gunner(**changes: Any) -> AddCharacter:
    """The catwalk gunner: Perception 4 x Firearms 3 = 12, a rifle of Rate of Fire 3."""
    command = AddCharacter(
        id="gunner",
        name="Gunner",
        side="raiders",
        pc=False,
        attributes={"agility": 2, "strength": 3, "health": 3, "perception": 4},
        skills={"firearms": 3, "athletics": 2},
        soak=10,
        weapons={"rifle": RIFLE, "knife": Weapon(bonus=2)},
        defence=Pairing(attribute="agility", skill="athletics"),
    )
    return replace(command, **changes)


class Table:
    """A running encounter: each ``do`` decides one command on the state so far."""

    def __init__(self, options: AeoniskOptions | None = None) -> None:
        self.options = options
        self.history: list[Event] = []
        self.next_roll = 1

    @property
    def state(self) -> State:
        return given(RULESET, *self.history, options=self.options).state

    def do(self, command: Command, *faces: Sequence[int]) -> list[Event]:
        when = given(RULESET, *self.history, options=self.options).when(
            command, faces, next_roll_number=self.next_roll
        )
        events = when.events
        self.history.extend(events)
        self.next_roll += sum(len(getattr(e, "rolls", ())) for e in events)
        return events

    def refuse(self, command: Command, match: str, *faces: Sequence[int]) -> RuleViolation:
        return (
            given(RULESET, *self.history, options=self.options)
            .when(command, faces, next_roll_number=self.next_roll)
            .rejected(match)
        )

    def setup(self, *characters: AddCharacter, bands: dict[tuple[str, str], Band]) -> None:
        for c in characters:
            self.do(c)
        for (a, b), band in bands.items():
            self.do(SetBand(a=a, b=b, band=band))

    def start_round(self, *initiative_d20: int) -> list[Event]:
        """next_phase from Setup or Cleanup: one d20 per living character, as added."""
        return self.do(NextPhase(), *([face] for face in initiative_d20))

    def declare(self, *declarations: Declare, reactions: Sequence[React] = ()) -> None:
        """The given declarations in order, then the Fast Phase with ``reactions``, then
        the Slow Phase begins."""
        for declaration in declarations:
            self.do(declaration)
        self.do(NextPhase())
        for reaction in reactions:
            self.do(reaction)
        self.do(NextPhase())

    def narrated(self, events: Sequence[Event]) -> list[str]:
        """The log lines of the last ``events`` (which must end the history)."""
        state = given(
            RULESET, *self.history[: len(self.history) - len(events)], options=self.options
        ).state
        lines = []
        for event in events:
            lines.append(line_for(RULESET, state, event))
            state = RULESET.evolve(state, event)
        return lines


def rolls_of(events: Sequence[Event]) -> list[RollRecord]:
    return [r for e in events for r in getattr(e, "rolls", ())]
