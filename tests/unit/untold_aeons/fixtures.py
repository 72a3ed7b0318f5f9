"""Shared tables for the Untold Aeons unit tests: the crypt's four characters, played
into events through ``decide`` with manual dice so tests start from real histories."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.dice import ManualFaces, RollingDice
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons.events import Event
from service.rulesets.untold_aeons.examples import CHARACTERS
from service.rulesets.untold_aeons.options import UntoldOptions
from service.rulesets.untold_aeons.state import State
from tests.unit.deciders import fold

MARA, JONAH, CULTIST, HORROR = CHARACTERS


def play(
    steps: Sequence[tuple[Any, Sequence[Sequence[int]]] | Any],
    *,
    options: UntoldOptions | None = None,
    events: Sequence[Event] = (),
) -> list[Event]:
    """Events of ``steps`` (a command, or (command, manual faces)) after ``events``."""
    out = list(events)
    state = fold(RULESET, out, options)
    number = 1
    for step in steps:
        command, faces = step if isinstance(step, tuple) else (step, ())
        dice = RollingDice(ManualFaces(faces), next_roll_number=number)
        made = RULESET.decide(state, command, dice)
        dice.ensure_all_used()
        number = dice.next_roll_number
        for event in made:
            state = RULESET.evolve(state, event)
        out.extend(made)
    return out


def table(options: UntoldOptions | None = None) -> list[Event]:
    """The four characters and their distances, before round 1."""
    return play(
        [
            *CHARACTERS,
            cmd.SetDistance(a="mara", b="cultist", yards=10),
            cmd.SetDistance(a="jonah", b="horror", yards=15),
            cmd.SetDistance(a="mara", b="horror", yards=45),
        ],
        options=options,
    )


def round_one(
    turns: dict[str, str] | None = None, options: UntoldOptions | None = None
) -> list[Event]:
    """Round 1 begun (investigators initiate), every turn chosen (default all Slow)."""
    chosen = {"mara": "slow", "jonah": "slow", "cultist": "slow", "horror": "slow"}
    chosen.update(turns or {})
    return play(
        [
            cmd.BeginRound(initiating_side="investigators"),
            *(cmd.ChooseTurn(character=c, speed=s) for c, s in chosen.items()),  # type: ignore[arg-type]
        ],
        options=options,
        events=table(options),
    )


def state_of(events: Sequence[Event], options: UntoldOptions | None = None) -> State:
    return fold(RULESET, events, options)
