"""Example commands and events of the TACTICS ruleset, for the API documentation.

Not written by hand: a short story is played through ``decide`` and ``evolve`` with
chosen dice faces (recorded as server dice of fairness epoch 1), and the first command
and event of each type are kept.  The story: Rex (a player) and Vex (a shielded
mercenary) on a freighter's deck, a drone Minion on the bridge.  Rex aims and fires his
pistol twice at Vex (the second Press with the Press penalty); at the start of her turn
Vex Reacts with a dodge roll, takes the first shot on her shields and dodges the second;
she fires back, Rex takes wounds on his turn; Vex passes her cool-down check; the GM
rules, and the encounter ends.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import RollingDice
from service.dice.faces import ScriptedFaces
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics.commands import Command
from service.rulesets.tactics.decide import decide
from service.rulesets.tactics.events import Event
from service.rulesets.tactics.evolve import evolve
from service.rulesets.tactics.options import TacticsOptions
from service.rulesets.tactics.state import Maneuver, State, Weapon, initial_state

__all__ = ["COMMANDS", "EVENTS", "EXAMPLES", "EXAMPLE_OPTIONS"]

EXAMPLE_OPTIONS = TacticsOptions(press_penalty_step=2)
"""Options for examples and tests: the defaults plus the Press penalty the text lacks."""

EPOCH = 1


class _Story:
    def __init__(self) -> None:
        self.state: State = initial_state(EXAMPLE_OPTIONS)
        self.faces = ScriptedFaces(default=10, epoch=EPOCH)
        self.dice = RollingDice(self.faces, next_roll_number=1)
        self.commands: list[Command] = []
        self.events: list[Event] = []

    def __call__(self, command: Command, faces: Sequence[int] = ()) -> None:
        self.faces.pending = list(faces)
        events = decide(self.state, command, self.dice)
        self.faces.ensure_all_used()
        for event in events:
            self.state = evolve(self.state, event)
        self.commands.append(command)
        self.events.extend(events)


PISTOL = Weapon(damage=14, precision=13, range="close")
RIFLE = Weapon(damage=12, precision=14, range="far")
DODGE = Maneuver(stat="agility", amount=3, duration="turn")
AIM = Maneuver(stat="precision", amount=1, duration="turn")
COVER = Maneuver(stat="soak", amount=2)


def _play() -> tuple[list[Command], list[Event]]:
    play = _Story()
    play(cmd.AddZone(id="deck"))
    play(cmd.AddZone(id="bridge", links=("deck",)))
    play(
        cmd.AddCombatant(
            id="rex",
            name="Rex",
            side="crew",
            endurance=1,
            agility=2,
            armour=2,
            weapons={"pistol": PISTOL},
            maneuvers={"aim": AIM, "take cover": COVER, "dodge roll": DODGE},
            zone="deck",
        )
    )
    play(
        cmd.AddCombatant(
            id="vex",
            name="Vex",
            side="mercs",
            endurance=2,
            agility=1,
            armour=3,
            shields=2,
            weapons={"rifle": RIFLE},
            maneuvers={"dodge roll": DODGE},
            zone="deck",
        )
    )
    play(
        cmd.AddCombatant(
            id="drone", name="Drone", side="mercs", category="minion", agility=1, zone="deck"
        )
    )
    play(cmd.AddFeature(id="crates", name="cargo crates", zone="deck", kind="cover"))
    play(cmd.MoveInFeature(feature="crates", enter=("vex",)))
    play(cmd.PlaceCombatant(combatant="drone", zone="bridge"))
    play(cmd.SetHindered(a="rex", b="vex"))
    play(cmd.SetSight(a="deck", b="bridge"))
    play(cmd.SetTurnOrder(order=("rex", "vex", "drone")))
    play(cmd.StartCombat())
    play(cmd.TakeManeuver(combatant="rex", maneuver="aim"))
    play(cmd.Press(combatant="rex", weapon="pistol", target="vex"))
    play(cmd.Press(combatant="rex", weapon="pistol", target="vex"))
    play(cmd.EndTurn(combatant="rex"))
    play(cmd.React(combatant="vex", maneuver="dodge roll"))
    play(cmd.Resolve(combatant="vex"), [3, 5])  # fails, 2 shields negate the wounds
    play(cmd.Resolve(combatant="vex"), [15])  # dodged
    play(cmd.Press(combatant="vex", weapon="rifle", target="rex"))
    play(cmd.EndTurn(combatant="vex"))
    play(cmd.EndTurn(combatant="drone"))
    play(cmd.Resolve(combatant="rex"), [4, 6])
    play(cmd.Press(combatant="rex", weapon="pistol", target="vex"))
    play(cmd.EndTurn(combatant="rex"))
    play(cmd.CooldownCheck(combatant="vex", passed=True))
    play(
        cmd.Check(combatant="vex", attribute="acumen", target=12, label="Acumen against the bluff"),
        [9],
    )
    play(
        cmd.Adjudicate(
            ruling=cmd.VoidPress(press="p4"), reason="the pistol jams: the shot never leaves"
        )
    )
    play(
        cmd.Adjudicate(
            ruling=cmd.SetValue(combatant="vex", field="armour", value=2),
            reason="her plate cracked",
        )
    )
    play(
        cmd.Adjudicate(
            ruling=cmd.GrantBonus(combatant="rex", stat="soak", amount=1, label="bulkhead"),
            reason="he braces behind the bulkhead",
        )
    )
    play(cmd.Adjudicate(ruling=cmd.HealWounds(combatant="rex", wounds=2), reason="a medi-gel shot"))
    play(cmd.Adjudicate(ruling=cmd.NewScene(), reason="the freighter jumps to the next system"))
    play(
        cmd.Adjudicate(
            ruling=cmd.InflictWounds(combatant="drone", wounds=3, source="electrical fire"),
            reason="the console explodes",
        )
    )
    play(
        cmd.Adjudicate(
            ruling=cmd.SetStatus(combatant="drone", status="dead"), reason="it burns out"
        )
    )
    play(cmd.RemoveFeature(id="crates"))
    play(cmd.RemoveCombatant(id="drone"))
    play(cmd.EndEncounter())
    return play.commands, play.events


def _first_of_each(items: Sequence[msgspec.Struct]) -> tuple[msgspec.Struct, ...]:
    seen: dict[type, msgspec.Struct] = {}
    for item in items:
        seen.setdefault(type(item), item)
    return tuple(seen.values())


_COMMANDS, _EVENTS = _play()
COMMANDS = _first_of_each(_COMMANDS)
EVENTS = _first_of_each(_EVENTS)
EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type."""
