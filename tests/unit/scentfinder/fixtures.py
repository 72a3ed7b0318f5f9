"""Plain-data building blocks for the Scentfinder tests.

Three areas of the typical battle (rear, melee, front) plus one of each terrain, two PCs
(Alice, Bob), NPCs (Goblin, Ogre, Golem) and Bob's minion Wolf.  ``Table`` plays commands
one after another with manual dice and keeps the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from service.rulesets.scentfinder import RULESET, Event, ScentfinderOptions, State
from service.rulesets.scentfinder.commands import (
    Act,
    AddCombatant,
    Begin,
    Command,
    DefineArea,
    EndTurn,
    Initiative,
    InitiativeEntry,
)
from service.rulesets.scentfinder.state import Hazard, Obstacle, Spell, Weapon
from tests.unit.deciders import given

AREAS = (
    DefineArea(id="rear", name="the Rear", cover=True),
    DefineArea(id="melee", name="the Melee", adjacent=("rear",)),
    DefineArea(id="front", name="the Front", adjacent=("melee",), cover=True),
    DefineArea(id="mud", name="the Mud", adjacent=("melee",), difficult=True),
    DefineArea(
        id="lava", name="the Lava", adjacent=("melee",), hazard=Hazard(save="REF", die="1d6")
    ),
    DefineArea(
        id="beams",
        name="the Beams",
        adjacent=("melee", "front"),
        obstacle=Obstacle(skill="Agility"),
    ),
    DefineArea(id="rubble", name="the Rubble", adjacent=("rear",), uneven=True),
)


def alice(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="alice",
        name="Alice",
        hp=14,
        fp=3,
        saves={"REF": 3, "VIG": 2, "WIL": 2},
        skills=("Might", "Stealth", "Perception", "Medicine", "Arcana"),
        weapons={
            "sword": Weapon(damage="1d8", skill="Might"),
            "bow": Weapon(damage="1d6", skill="Dexterity", melee=False, range=2),
        },
        held=("sword",),
        spells={"Firebolt": Spell(actions=2, fp=1, damage="1d6", range=1, effect="burning")},
        magic_skill="Arcana",
        refocus_skill="Focus",
        healing_tools=True,
        shield=True,
        area="melee",
    )
    return replace(command, **changes)


def bob(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="bob",
        name="Bob",
        hp=12,
        weapons={"spear": Weapon(damage="1d6", skill="Might", reach=True)},
        held=("spear",),
        area="melee",
    )
    return replace(command, **changes)


def goblin(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="goblin",
        name="Goblin",
        pc=False,
        side="foes",
        hp=8,
        weapons={"dagger": Weapon(damage="1d4", skill="Dexterity")},
        held=("dagger",),
        area="melee",
        phase=3,
    )
    return replace(command, **changes)


def ogre(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="ogre",
        name="Ogre",
        pc=False,
        side="foes",
        hp=20,
        weapons={"club": Weapon(damage="1d10", skill="Might")},
        held=("club",),
        area="front",
        phase=4,
    )
    return replace(command, **changes)


def golem(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="golem",
        name="Golem",
        pc=False,
        side="foes",
        sentient=False,
        hp=30,
        area="melee",
        phase=4,
    )
    return replace(command, **changes)


def wolf(**changes: Any) -> AddCombatant:
    command = AddCombatant(
        id="wolf",
        name="Wolf",
        pc=False,
        side="party",
        minion_of="bob",
        hp=6,
        weapons={"bite": Weapon(damage="1d4", skill="Bite")},
        area="melee",
    )
    return replace(command, **changes)


def act(actor: str, action: str, **more: Any) -> Act:
    return Act(actor=actor, action=action, **more)  # type: ignore[arg-type]


END = EndTurn


class Table:
    """A running encounter: ``do`` decides a command on the current history with manual
    dice and appends its events; ``refuse`` checks a rejection."""

    def __init__(self, options: ScentfinderOptions | None = None) -> None:
        self.options = options
        self.history: list[Event] = []
        self.rolls = 0

    @property
    def state(self) -> State:
        return given(RULESET, *self.history, options=self.options).state

    def do(self, command: Command, *faces: Sequence[int]) -> list[Event]:
        when = given(RULESET, *self.history, options=self.options).when(
            command, list(faces), next_roll_number=self.rolls + 1
        )
        events = when.events
        self.rolls += sum(len(getattr(e, "rolls", ())) for e in events)
        self.history.extend(events)
        return events

    def refuse(self, command: Command, match: str) -> None:
        given(RULESET, *self.history, options=self.options).when(command).rejected(match=match)

    def who(self, ident: str) -> Any:
        return self.state.combatants[ident]

    def setup(
        self, *people: AddCombatant, initiative: Sequence[InitiativeEntry] | None = None
    ) -> Table:
        for area in AREAS:
            self.do(area)
        for person in people or (alice(), bob(), goblin(), ogre()):
            self.do(person)
        entries = initiative or (
            InitiativeEntry(combatant="alice", degree="success", value=5),
            InitiativeEntry(combatant="bob", degree="success", value=3),
        )
        self.do(Initiative(entries=tuple(entries)))
        self.do(Begin())
        return self

    def to_turn(self, ident: str) -> None:
        """End turns until ``ident``'s next turn starts (ending theirs if it is on)."""
        if self.state.current == ident:
            self.do(EndTurn(combatant=ident))
        for _ in range(20):
            if self.state.current == ident:
                return
            current = self.state.current
            assert current is not None
            self.do(EndTurn(combatant=current))
        raise AssertionError(f"never reached {ident}'s turn")


def fight(options: ScentfinderOptions | None = None, *people: AddCombatant) -> Table:
    """The standard fight: Bob (S, 3) then Alice (S, 5) in phase 2, Goblin 3, Ogre 4."""
    return Table(options).setup(*people)
