"""Example commands and events of the Aeonisk ruleset, for front-end developers.

``EXAMPLES`` holds one instance of every command and event type, shown in the OpenAPI
document and ``GET /rulesets/aeonisk``.  They are not written by hand: a short story is
played through ``decide`` and ``evolve`` with chosen dice faces (recorded as server dice
of fairness epoch 1), and the first command and event of each type are kept.  So every
example is exactly what the service stores for that request.

The story, on a cargo-hold catwalk: Kaelia and Nyx (Bonded) against a Gunner and a
Goblin.  Round 1: both Kaelia and the Goblin declare a claim on the Cover token (Kaelia
resolves first, the Goblin's claim fails), Kaelia burns her Defence Token and Nyx gives
her Bonded Defence against the Goblin, Kaelia shoots the Goblin with a Void Surge, the
Gunner suppresses Nyx, who hunkers down.  Round 2: Nyx forfeits her turn to re-roll
Initiative, opens the Vent, Kaelia charges the Gunner, the Gunner sets up Overwatch and
banks his Energy Hub, the Goblin breaks away and takes Kaelia's free strike.  Round 3:
GM rulings, a morale check, the Goblin's Health check, and the end.  A second table
places a character on a zone map; a third is a duel with Initiative rolled one die at
a time, a Parry, a Void Surge added before the roll and a Declare Phase the GM closes.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from service.dice import RollingDice
from service.dice.faces import ScriptedFaces
from service.rulesets.aeonisk_tactical import commands as cmd
from service.rulesets.aeonisk_tactical.commands import Command
from service.rulesets.aeonisk_tactical.decide import decide
from service.rulesets.aeonisk_tactical.events import Event
from service.rulesets.aeonisk_tactical.evolve import evolve
from service.rulesets.aeonisk_tactical.options import AeoniskOptions, ZoneLink
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Claim, Move, Overwatch, Suppress
from service.rulesets.aeonisk_tactical.state import Pairing, State, Weapon, initial_state

__all__ = ["COMMANDS", "EVENTS", "EXAMPLES"]

EPOCH = 1


class _Story:
    def __init__(self, options: AeoniskOptions) -> None:
        self.start: State = initial_state(options)
        self.state: State = self.start
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


_BLADE = Weapon(bonus=3)
_PISTOL = Weapon(bonus=4, rate_of_fire=1, ranged=True)
_RIFLE = Weapon(bonus=6, rate_of_fire=3, ranged=True)


def _characters() -> tuple[cmd.AddCharacter, ...]:
    return (
        cmd.AddCharacter(
            id="kaelia",
            name="Kaelia",
            side="crew",
            attributes={"agility": 3, "strength": 2, "health": 3, "will": 3},
            skills={"athletics": 2, "firearms": 3, "melee": 3},
            soak=10,
            void=3,
            bonds=("nyx",),
            weapons={"pistol": _PISTOL, "blade": _BLADE},
            defence=Pairing(attribute="will", skill="agility"),
        ),
        cmd.AddCharacter(
            id="nyx",
            name="Nyx",
            side="crew",
            attributes={"agility": 3, "strength": 2, "health": 2, "empathy": 4},
            skills={"athletics": 2, "charm": 3},
            soak=10,
            void=5,
            bonds=("kaelia",),
            weapons={"pistol": _PISTOL},
            defence=Pairing(attribute="agility", skill="athletics"),
        ),
        cmd.AddCharacter(
            id="gunner",
            name="Gunner",
            side="raiders",
            pc=False,
            attributes={"agility": 2, "strength": 3, "health": 3, "perception": 4},
            skills={"firearms": 3, "athletics": 2},
            soak=10,
            weapons={"rifle": _RIFLE},
            defence=Pairing(attribute="agility", skill="athletics"),
        ),
        cmd.AddCharacter(
            id="goblin",
            name="Goblin",
            side="raiders",
            pc=False,
            attributes={"agility": 2, "strength": 2, "health": 2},
            skills={"melee": 3, "athletics": 2},
            soak=8,
            weapons={"knife": Weapon(bonus=2)},
            defence=Pairing(attribute="agility", skill="athletics"),
        ),
    )


def _ruling(ruling: cmd.Ruling, reason: str) -> cmd.Adjudicate:
    return cmd.Adjudicate(ruling=ruling, reason=reason)


def _play() -> tuple[list[Command], list[Event]]:
    stories = _play_stories()
    return (
        [c for story in stories for c in story.commands],
        [e for story in stories for e in story.events],
    )


def _play_stories() -> tuple[_Story, ...]:
    play = _Story(AeoniskOptions(shock_init_penalty=5))
    for character in _characters():
        play(character)
    for a, b, band in (
        ("kaelia", "goblin", "engaged"),
        ("kaelia", "gunner", "near"),
        ("kaelia", "nyx", "near"),
        ("nyx", "gunner", "near"),
        ("nyx", "goblin", "near"),
        ("gunner", "goblin", "near"),
    ):
        play(cmd.SetBand(a=a, b=b, band=band))  # type: ignore[arg-type]
    play(cmd.PlaceToken(id="cover-1", kind="cover", label="a stack of ore crates"))
    play(cmd.PlaceToken(id="hub-1", kind="energy_hub", label="a sparking power conduit"))
    play(cmd.PlaceToken(id="vent-1", kind="vent", label="a steam valve"))
    # Round 1: Kaelia 22, Nyx 17, Gunner 17, Goblin 12.
    play(cmd.NextPhase(), [10, 5, 9, 4])
    stab = Attack(target="kaelia", weapon="knife", attribute="agility", skill="melee")
    play(
        cmd.Declare(
            character="goblin",
            major=stab,
            minor=Claim(token="cover-1"),  # noqa: S106
            defence_token="kaelia",  # noqa: S106
        )
    )
    suppress = Suppress(target="nyx", weapon="rifle", attribute="perception", skill="firearms")
    play(
        cmd.Declare(
            character="gunner",
            major=suppress,
            minor=Claim(token="hub-1"),  # noqa: S106
            defence_token="nyx",  # noqa: S106
        )
    )
    play(cmd.Declare(character="nyx", minor=Claim(token="vent-1"), defence_token="gunner"))  # noqa: S106
    surge = Attack(
        target="goblin", weapon="pistol", attribute="agility", skill="firearms", void_surge=True
    )
    play(
        cmd.Declare(
            character="kaelia",
            major=surge,
            minor=Claim(token="cover-1"),  # noqa: S106
            defence_token="goblin",  # noqa: S106
            stance="aggressive",
        )
    )
    play(cmd.NextPhase())
    play(cmd.React(character="kaelia", reaction=cmd.HeroicBurn()))
    play(cmd.React(character="nyx", reaction=cmd.BondedDefence(ally="kaelia", attacker="goblin")))
    play(cmd.NextPhase())
    play(cmd.Resolve(), [14, 3, 12])  # Kaelia's surge hits the Goblin
    play(cmd.Resolve())  # Kaelia claims Cover
    play(cmd.Resolve())  # Nyx claims the Vent
    play(cmd.Resolve(), [18, 2])  # the Gunner suppresses Nyx
    play(cmd.ChooseSuppression(character="nyx", choice="hunker_down"))
    play(cmd.Resolve())  # the Gunner claims the Energy Hub
    play(cmd.Resolve(), [6, 12])  # the Goblin's stab misses
    play(cmd.Resolve())  # the Goblin's claim on Cover fails
    play(cmd.NextPhase())
    # Round 2.
    play(cmd.NextPhase(), [10, 5, 9, 4])
    away = Move(bands=1, reference="kaelia", direction="away")
    play(cmd.Declare(character="goblin", major=away, defence_token="kaelia"))  # noqa: S106
    watch = Overwatch(arc=("kaelia",), weapon="rifle", attribute="perception", skill="firearms")
    play(cmd.Declare(character="gunner", minor=watch, defence_token="kaelia"))  # noqa: S106
    play(cmd.Declare(character="nyx", forfeit=True, defence_token="gunner"), [3])  # noqa: S106
    charge = Charge(target="gunner", weapon="blade", attribute="agility", skill="melee")
    play(cmd.Declare(character="kaelia", major=charge))
    play(cmd.NextPhase())
    play(cmd.React(character="gunner", reaction=cmd.SpendToken()))
    play(cmd.React(character="nyx", reaction=cmd.SpendToken(rounds=1)))
    play(cmd.NextPhase())
    play(cmd.Resolve(), [12, 4, 8])  # Kaelia charges the Gunner
    play(cmd.Resolve())  # the Gunner sets up Overwatch
    play(cmd.Resolve())  # the Goblin breaks away
    strike = cmd.FreeStrike(character="kaelia", weapon="blade", attribute="agility", skill="melee")
    play(strike, [2, 15])
    play(_ruling(cmd.ClearObscurement(), "the cargo fans kicked in"))
    play(cmd.NextPhase())
    # Round 3: rulings, a morale check, the Goblin's Health check, the end.
    play(cmd.NextPhase(), [10, 5, 9, 4])
    morale = cmd.Check(
        character="goblin", label="Morale", attribute="agility", skill="athletics", dc=20
    )
    play(morale, [3])
    morale_roll = play.dice.records[-1].roll_id
    play(_ruling(cmd.SetValue(character="goblin", field="wounds", value=4), "an old wound"))
    play(_ruling(cmd.SetProne(character="goblin", prone=True), "the deck lurches"))
    play(_ruling(cmd.InflictShock(character="gunner"), "a flashbang goes off"))
    play(
        _ruling(cmd.OverrideOutcome(roll_id=morale_roll, outcome="success"), "it was close enough")
    )
    play(_ruling(cmd.NullifyEnergy(character="gunner"), "the conduit burnt out"))
    play(_ruling(cmd.VoidSplash(characters=("goblin",)), "he crawled through the Void Slick"))
    play(_ruling(cmd.ExtraDefenceToken(character="nyx"), "her tactical visor"))
    play(cmd.Declare(character="goblin"))
    play(cmd.Declare(character="gunner", defence_token="kaelia"))  # Shocked down to 12  # noqa: S106
    play(cmd.Declare(character="nyx", defence_token="gunner"))  # noqa: S106
    stab_goblin = Attack(target="goblin", weapon="blade", attribute="agility", skill="melee")
    play(cmd.SetBand(a="kaelia", b="goblin", band="engaged"))
    play(cmd.Declare(character="kaelia", major=stab_goblin))
    play(cmd.NextPhase())
    play(cmd.NextPhase())
    play(cmd.Resolve(), [15, 2, 14, 5])  # Kaelia's blade, the Goblin's Health check
    play(cmd.RemoveCharacter(id="goblin"))
    play(cmd.EndEncounter())
    zones = _Story(AeoniskOptions(zone_map=(ZoneLink(a="catwalk", b="loading-bay", band="far"),)))
    zones(_characters()[0])
    zones(cmd.PlaceInZone(character="kaelia", zone="catwalk"))
    return play, zones, _duel()


def _duel() -> _Story:
    """Kaelia (who can Parry) and the Goblin, Engaged: Initiative one die at a time, a
    Parry against the Goblin's stab, a Void Surge added before Kaelia's shot, and a
    Declare Phase the GM closes before Kaelia declares."""
    duel = _Story(AeoniskOptions())
    kaelia, goblin = _characters()[0], _characters()[3]
    duel(msgspec.structs.replace(kaelia, parry=Pairing(attribute="agility", skill="melee")))
    duel(goblin)
    duel(cmd.SetBand(a="kaelia", b="goblin", band="engaged"))
    duel(cmd.NextPhase(initiative="one_at_a_time"))
    duel(cmd.RollInitiative(character="goblin"), [4])
    duel(cmd.RollInitiative(character="kaelia"), [10])
    stab = Attack(target="kaelia", weapon="knife", attribute="agility", skill="melee")
    duel(cmd.Declare(character="goblin", major=stab, defence_token="kaelia"))  # noqa: S106
    shot = Attack(target="goblin", weapon="pistol", attribute="agility", skill="firearms")
    duel(cmd.Declare(character="kaelia", major=shot, defence_token="goblin"))  # noqa: S106
    duel(cmd.NextPhase())
    duel(cmd.React(character="kaelia", reaction=cmd.Parry(attacker="goblin", bonus=1)))
    duel(cmd.VoidSurge(character="kaelia"))
    duel(cmd.NextPhase())
    duel(cmd.Resolve(), [14, 3, 12])  # Kaelia's surging shot
    duel(cmd.Resolve(), [6, 12])  # the Goblin's stab against Kaelia's Parry
    duel(cmd.NextPhase())
    duel(cmd.NextPhase(), [10, 4])
    duel(cmd.Declare(character="goblin", major=stab, defence_token="kaelia"))  # noqa: S106
    duel(cmd.NextPhase(close_declarations=True))  # Kaelia has not declared: she lapses
    return duel


def _first_of_each(items: Sequence[msgspec.Struct]) -> tuple[msgspec.Struct, ...]:
    seen: dict[type, msgspec.Struct] = {}
    for item in items:
        seen.setdefault(type(item), item)
    return tuple(seen.values())


_STORIES = _play_stories()
_COMMANDS = [c for story in _STORIES for c in story.commands]
_EVENTS = [e for story in _STORIES for e in story.events]
COMMANDS = _first_of_each(_COMMANDS)
EVENTS = _first_of_each(_EVENTS)
EXAMPLES: tuple[msgspec.Struct, ...] = (*COMMANDS, *EVENTS)
"""One instance of every command type, then one of every event type."""


def example_stories() -> tuple[tuple[State, tuple[Event, ...]], ...]:
    """Where the event examples happen, for the conformance suite: the main story and the
    zone-map table, each as its initial state and the events folded from it."""
    return tuple((story.start, tuple(story.events)) for story in _STORIES)
