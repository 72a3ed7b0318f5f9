"""Example commands and events of Untold Aeons, for front-end developers.

``EXAMPLES`` holds one instance of every command and event type. They are played
through ``decide`` and ``evolve`` with chosen faces (numbered like server dice of
fairness epoch 1), so every example is exactly what the service stores.

The story, in a flooded crypt: Mara and Jonah against a Cultist and a Horror. Round 1:
Jonah spends karma and fires a Rapid Fire burst at the Horror, Mara Defends against the
Cultist's dagger and shoots him as he dives for cover, the Horror's claws find Mara as
she Dodges. The Narrator calls a sanity check that leaves Jonah Shaken. Round 2: Mara
gets up and Fights Back, the Cultist is Severely Injured; Jonah rerolls his Defend with
karma and holds the Horror off. Round 3: he bleeds; a check with the difficulty behind
the screen, the Narrator's karma (a phobia, +2 for the Horror), a karma reroll of a
check, rulings, recovery, advancement and the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import RollingDice
from service.dice.faces import ScriptedFaces
from service.dice.model import Modifier
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons.commands import Command
from service.rulesets.untold_aeons.decide import decide
from service.rulesets.untold_aeons.events import Event
from service.rulesets.untold_aeons.evolve import evolve
from service.rulesets.untold_aeons.options import UntoldOptions
from service.rulesets.untold_aeons.state import State, Weapon, initial_state

__all__ = ["CHARACTERS", "COMMANDS", "EVENTS", "EXAMPLES", "example_stories"]

EPOCH = 1

REVOLVER = Weapon(base=2, range=20, piercing=1)
KNIFE = Weapon(base=1, plus=True)
TOMMY_GUN = Weapon(base=2, range=30, rapid_fire=3)
DAGGER = Weapon(base=1, plus=True)
CLAWS = Weapon(base=2, plus=True, piercing=1)

CHARACTERS = (
    cmd.AddCharacter(
        id="mara",
        name="Mara",
        side="investigators",
        dexterity=3,
        toughness=3,
        willpower=3,
        intellect=3,
        skills={"firearms": 3, "brawl": 2, "perception": 2},
        weapons={"revolver": REVOLVER, "knife": KNIFE},
    ),
    cmd.AddCharacter(
        id="jonah",
        name="Jonah",
        side="investigators",
        dexterity=4,
        toughness=2,
        willpower=3,
        intellect=3,
        skills={"firearms": 2, "occultism": 2},
        weapons={"tommy gun": TOMMY_GUN},
    ),
    cmd.AddCharacter(
        id="cultist",
        name="the Cultist",
        side="cultists",
        pc=False,
        dexterity=2,
        toughness=2,
        willpower=2,
        intellect=2,
        skills={"brawl": 2},
        weapons={"dagger": DAGGER},
    ),
    cmd.AddCharacter(
        id="horror",
        name="the Horror",
        side="cultists",
        pc=False,
        dexterity=3,
        toughness=5,
        willpower=5,
        intellect=1,
        skills={"brawl": 3},
        weapons={"claws": CLAWS},
    ),
)


class Story:
    def __init__(self, options: UntoldOptions | None = None) -> None:
        self.state: State = initial_state(options or UntoldOptions())
        self.faces = ScriptedFaces(default=3, epoch=EPOCH)
        self.dice = RollingDice(self.faces, next_roll_number=1)
        self.commands: list[Command] = []
        self.events: list[Event] = []

    def __call__(self, command: Command, faces: Sequence[int] = ()) -> tuple[Event, ...]:
        self.faces.pending = list(faces)
        events = tuple(decide(self.state, command, self.dice))
        self.faces.ensure_all_used()
        for event in events:
            self.state = evolve(self.state, event)
        self.commands.append(command)
        self.events.extend(events)
        return events


def _rule(ruling: cmd.Ruling, reason: str) -> cmd.Rule:
    return cmd.Rule(ruling=ruling, reason=reason)


def play() -> Story:
    s = Story()
    for character in CHARACTERS:
        s(character)
    s(cmd.SetDistance(a="mara", b="cultist", yards=10))
    s(cmd.SetDistance(a="jonah", b="horror", yards=15))
    # Round 1
    s(cmd.BeginRound(initiating_side="investigators"))
    s(cmd.ChooseTurn(character="mara", speed="slow"))
    s(cmd.ChooseTurn(character="jonah", speed="fast"))
    s(cmd.ChooseTurn(character="cultist", speed="fast"))
    s(cmd.ChooseTurn(character="horror", speed="slow"))
    s(cmd.SpendKarma(by="jonah", use="bonus", target="jonah"))
    s(cmd.Attack(attacker="jonah", target="horror", weapon="tommy gun", rapid_fire=True))
    s(cmd.Respond(character="horror", response="none"), [6, 6, 1, 5, 2])
    s(cmd.Attack(attacker="cultist", target="mara", weapon="dagger"))
    s(cmd.Respond(character="mara", response="defend"), [5, 1, 5, 3])
    s(cmd.Attack(attacker="mara", target="cultist", weapon="revolver"))
    s(cmd.Respond(character="cultist", response="dive"), [6, 5, 1, 5, 2, 3])
    s(cmd.Move(character="mara", yards=3))
    s(cmd.Attack(attacker="horror", target="mara", weapon="claws"))
    s(cmd.Respond(character="mara", response="dodge"), [6, 6, 2, 5, 2, 2])
    s(cmd.EndTurn(character="horror"))
    s(_rule(cmd.SetValue(character="jonah", field="stress", value=12), "last night's dreams"))
    s(
        cmd.SanityCheck(
            character="jonah", cause="the Horror's face", difficulty=3, category="unnatural"
        ),
        [5, 1, 3, 6, 5, 2, 2, 3, 1, 5, 5, 6, 2, 2],
    )
    # Round 2
    s(cmd.BeginRound())
    s(cmd.ChooseTurn(character="mara", speed="fast"))
    s(cmd.ChooseTurn(character="jonah", speed="slow"))
    s(cmd.ChooseTurn(character="cultist", speed="fast"))
    s(cmd.ChooseTurn(character="horror", speed="fast"))
    s(cmd.StandUp(character="mara"))
    s(cmd.Attack(attacker="cultist", target="mara", weapon="dagger"))
    s(
        cmd.Respond(character="mara", response="fight_back", weapon="knife"),
        [5, 3, 6, 1, 3, 3, 5, 2],
    )
    s(cmd.Attack(attacker="horror", target="jonah", weapon="claws"))
    s(cmd.Respond(character="jonah", response="defend"), [2, 2, 2, 4])
    s(cmd.SpendKarma(by="jonah", use="reroll"), [6])
    s(cmd.SetDistance(a="jonah", b="cultist", yards=25))
    s(
        cmd.Attack(
            attacker="jonah",
            target="cultist",
            weapon="tommy gun",
            modifiers=(Modifier("bad light", 1),),
        ),
        [3, 3],
    )
    s(cmd.EndTurn(character="jonah"))
    # Round 3
    s(cmd.BeginRound())
    s(
        cmd.CallCheck(
            character="mara",
            label="spotting the sigil",
            trait="perception",
            difficulty=2,
            behind_screen=True,
        )
    )
    s(cmd.RollCheck(character="mara"), [5, 3])
    s(cmd.RollDifficulty(character="mara"), [1, 3])
    s(cmd.CallCheck(character="jonah", label="recalling the rite", trait="occultism", difficulty=1))
    s(cmd.RollCheck(character="jonah"), [5, 5])
    s(cmd.SpendKarma(use="trigger", target="jonah", note="a phobia of deep water"))
    s(cmd.SpendKarma(use="bonus", target="horror"))
    s(cmd.SpendKarma(by="jonah", use="reroll"), [6])
    s(cmd.SpendKarma(by="mara", use="deus_ex_machina", note="a lantern in her coat"))
    s(
        _rule(
            cmd.Effect(character="jonah", effect="freezes at the water's edge this round"),
            "his Drawback while Shaken",
        )
    )
    s(_rule(cmd.SetCondition(character="horror", condition="partial_cover"), "behind a pillar"))
    s(_rule(cmd.SetStatus(character="jonah", status="not_shaken"), "Mara talks him down"))
    s(cmd.Bleed(character="cultist"))
    s(cmd.DailyRecovery(character="jonah", track="stress"), [5, 6, 1])
    s(_rule(cmd.SetValue(character="mara", field="xp", value=40), "the chapter's reward"))
    s(cmd.Advance(character="mara", trait="firearms"))
    s(cmd.EndEncounter())
    return s


def _first_of_each(items: Sequence[msgspec.Struct]) -> tuple[msgspec.Struct, ...]:
    seen: dict[type, msgspec.Struct] = {}
    for item in items:
        seen.setdefault(type(item), item)
    return tuple(seen.values())


_STORY = play()
COMMANDS = _first_of_each(_STORY.commands)
EVENTS = _first_of_each(_STORY.events)
EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type."""


def example_stories() -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """The story the event examples were played in (for the conformance suite): every
    event of ``play()`` from the initial state, so each example replays in its place."""
    return ((initial_state(UntoldOptions()), tuple(_STORY.events)),)
