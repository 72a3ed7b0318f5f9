"""Example commands and events of Scentfinder, for front-end developers.

``EXAMPLES`` holds one instance of every command and event type.  They are not written
by hand: a short story is played through ``decide`` and ``evolve`` with chosen dice
faces, and the first command and event of each type are kept, so every example is
exactly what the service stores for that request and the events replay in order.

The story, at a rope bridge: Tobin (Triumph on initiative, starting on the bridge) and
Mara against a bandit Chief and an Archer.  Tobin strikes, commands his wolf and
disarms the Chief; Mara delays, crosses the hazardous bridge and casts Binding Vines;
the GM rolls the Archer's nerve.  Round 2: Tobin feints and evades; Mara sustains her
spell and gives first help.  Round 3: Tobin is at Death's Door and Mara brings him back.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import ManualFaces, RollingDice
from service.ruleset import rolls_of
from service.rulesets.scentfinder import commands as cmd
from service.rulesets.scentfinder.commands import Command
from service.rulesets.scentfinder.decide import decide
from service.rulesets.scentfinder.events import Event
from service.rulesets.scentfinder.evolve import evolve
from service.rulesets.scentfinder.options import ScentfinderOptions
from service.rulesets.scentfinder.state import Hazard, Spell, State, Weapon, initial_state

__all__ = ["COMMANDS", "EVENTS", "EXAMPLES", "example_stories"]

Story = tuple[State, tuple[Event, ...]]


class _Story:
    def __init__(self, options: ScentfinderOptions | None = None) -> None:
        self.state: State = initial_state(options or ScentfinderOptions())
        self.start: State = self.state
        self.commands: list[Command] = []
        self.events: list[Event] = []
        self.rolls = 0

    def __call__(self, command: Command, faces: Sequence[int] = ()) -> None:
        dice = RollingDice(ManualFaces([[f] for f in faces]), next_roll_number=self.rolls + 1)
        events = decide(self.state, command, dice)
        self.commands.append(command)
        for event in events:
            self.rolls += len(rolls_of(event))
            self.events.append(event)
            self.state = evolve(self.state, event)


def _act(actor: str, action: str, **more: object) -> cmd.Act:
    return cmd.Act(actor=actor, action=action, **more)  # type: ignore[arg-type]


def _play() -> tuple[list[Command], list[Event], tuple[Story, ...]]:
    play = _Story()
    play(cmd.DefineArea(id="camp", name="the Camp", cover=True))
    play(
        cmd.DefineArea(
            id="bridge",
            name="the Rope Bridge",
            adjacent=("camp",),
            hazard=Hazard(save="REF", die="1d4"),
        )
    )
    play(cmd.DefineArea(id="ridge", name="the Ridge", adjacent=("bridge",), cover=True))
    play(
        cmd.AddCombatant(
            id="mara",
            name="Mara",
            hp=12,
            fp=2,
            max_fp=3,
            saves={"REF": 2, "VIG": 1, "WIL": 3},
            skills=("Arcana", "Medicine", "Stealth"),
            weapons={"staff": Weapon(damage="1d6")},
            spells={"Binding Vines": Spell(actions=2, fp=1, damage="1d4", range=1)},
            magic_skill="Arcana",
            refocus_skill="Focus",
            healing_tools=True,
            area="camp",
        )
    )
    play(
        cmd.AddCombatant(
            id="tobin",
            name="Tobin",
            hp=16,
            weapons={"sword": Weapon(damage="1d8")},
            held=("sword",),
            area="camp",
        )
    )
    play(
        cmd.AddCombatant(id="wolf", name="Wolf", side="party", minion_of="tobin", hp=6, area="camp")
    )
    play(
        cmd.AddCombatant(
            id="chief",
            name="Chief",
            pc=False,
            side="bandits",
            hp=18,
            weapons={"axe": Weapon(damage="1d10")},
            held=("axe",),
            area="bridge",
            phase=3,
        )
    )
    bow = Weapon(damage="1d6", skill="Dexterity", melee=False, range=2)
    play(
        cmd.AddCombatant(
            id="archer",
            name="Archer",
            pc=False,
            side="bandits",
            hp=8,
            weapons={"bow": bow},
            held=("bow",),
            area="ridge",
            phase=4,
        )
    )
    play(
        cmd.Initiative(
            entries=(
                cmd.InitiativeEntry(
                    combatant="tobin", degree="triumph", value=8, start_area="bridge"
                ),
                cmd.InitiativeEntry(combatant="mara", degree="success", value=4),
            )
        )
    )
    play(cmd.ReorderPhase(phase=2, order=("mara",)))
    play(cmd.Begin())
    # Round 1.
    play(_act("tobin", "strike", target="chief", weapon="sword"))
    play(cmd.Resolve(degree="success"), [5])
    play(_act("tobin", "command", target="wolf", degree="success"))
    play(_act("tobin", "disarm", target="chief", weapon="sword", degree="triumph", area="ridge"))
    play(cmd.EndTurn(combatant="tobin"))
    play(cmd.Delay(combatant="mara", phase=3))
    play(_act("mara", "shift", area="bridge"))
    play(cmd.Save(combatant="mara", degree="success"), [3])
    play(_act("mara", "cast_spell", spell="Binding Vines", target="chief", degree="success"), [2])
    play(cmd.EndTurn(combatant="mara"))
    play(cmd.EndTurn(combatant="chief"))
    play(cmd.GmRoll(label="the archer's nerve", notation="1d20"), [12])
    play(cmd.EndTurn(combatant="archer"))
    # Round 2.
    play(_act("tobin", "feint", target="chief", degree="success"))
    play(_act("tobin", "evade"))
    play(cmd.Save(combatant="tobin", degree="triumph"))
    play(cmd.EndTurn(combatant="tobin"))
    play(cmd.Adjudicate(reason="a burning arrow", combatant="tobin", persistent=(3,)))
    play(_act("mara", "sustain_spell", spell="Binding Vines"))
    play(_act("mara", "administer_first_help", target="tobin", degree="success"))
    play(cmd.EndTurn(combatant="mara"))
    play(cmd.EndTurn(combatant="chief"))
    play(cmd.Adjudicate(reason="the axe finds him", combatant="tobin", hp=0, deaths_door=True))
    play(cmd.EndTurn(combatant="archer"))
    # Round 3.
    play(cmd.EndTurn(combatant="tobin"))
    play(_act("mara", "administer_first_help", target="tobin", degree="triumph"))
    play(cmd.RemoveCombatant(id="archer"))
    play(cmd.EndCombat())
    house = _Story(ScentfinderOptions(degree_input="house_dice"))
    for command in play.commands[:11]:  # the same table, up to Begin
        house(command)
    house(_act("tobin", "strike", target="chief", weapon="sword"))
    house(cmd.RollTest(bonus=4, target=12), [11, 6])
    stories = ((play.start, tuple(play.events)), (house.start, tuple(house.events)))
    return [*play.commands, *house.commands], [*play.events, *house.events], stories


def _first_of_each(items: Sequence[msgspec.Struct]) -> tuple[msgspec.Struct, ...]:
    seen: dict[type, msgspec.Struct] = {}
    for item in items:
        seen.setdefault(type(item), item)
    return tuple(seen.values())


_COMMANDS, _EVENTS, _STORIES = _play()
COMMANDS = _first_of_each(_COMMANDS)
EVENTS = _first_of_each(_EVENTS)
EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type."""


def example_stories() -> tuple[Story, ...]:
    """The two stories the examples come from, as (state before, events): the bridge
    fight with the default options, and the same table with the house dice (roll_test).
    The event examples are taken from them, so they replay only within their story."""
    return _STORIES
