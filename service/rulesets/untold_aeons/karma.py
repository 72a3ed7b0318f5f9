"""What investigators and the Narrator spend: karma from either pool (each use checked
against who may make it), and xp to advance a characteristic or skill."""

from __future__ import annotations

from collections.abc import Callable

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons import rolls
from service.rulesets.untold_aeons.commands import Advance, SpendKarma
from service.rulesets.untold_aeons.rules import character
from service.rulesets.untold_aeons.state import CHARACTERISTICS, State

PLAYER_USES = ("reroll", "bonus", "difficulty", "deus_ex_machina")
NARRATOR_USES = ("trigger", "bonus", "difficulty")


Reroller = Callable[[State, str, Dice], ev.Event]
"""``reroll.reroll``: the reroll event for a spender's last roll open to a reroll."""


def spend_karma(
    state: State, command: SpendKarma, dice: Dice, reroller: Reroller
) -> tuple[ev.Event, ...]:
    if command.by is not None:
        spender = character(state, command.by)
        if not spender.pc:
            raise RuleViolation(
                f"{spender.name} is not an investigator: NPCs' karma is the Narrator's pool "
                "(by: null)",
                rule="UAE-03",
            )
        if command.use not in PLAYER_USES:
            raise RuleViolation(
                "triggering a hallucination, phobia or mania is the Narrator's use of karma",
                rule="UAE-05",
            )
        if state.karma_players == 0:
            raise RuleViolation("the players' karma pool is empty", rule="UAE-A7")
    else:
        if command.use not in NARRATOR_USES:
            raise RuleViolation(
                "rerolls and deus ex machina are the players' uses of karma", rule="UAE-04"
            )
        if state.karma_narrator == 0:
            raise RuleViolation("the Narrator's karma pool is empty", rule="UAE-A7")
    target = (
        character(state, command.target or command.by or "")
        if (command.target or command.by)
        else None
    )
    if command.use in ("bonus", "difficulty", "trigger") and target is None:
        raise RuleViolation("name the character whose roll this is for (target)")
    if target is not None and target.status == "dead" and command.use != "reroll":
        raise RuleViolation(f"{target.name} is dead")
    if command.use == "difficulty" and target is not None:
        if command.by is not None and target.pc:
            raise RuleViolation(
                "a player's karma adds +2 difficulty to an NPC's roll, not an investigator's",
                rule="UAE-04",
            )
        if command.by is None and not target.pc:
            raise RuleViolation(
                "the Narrator's karma adds +2 difficulty to a player's roll, not an NPC's",
                rule="UAE-05",
            )
    if command.use == "bonus" and command.by is None and target is not None and target.pc:
        raise RuleViolation(
            "the Narrator's karma gives +2 to an NPC's roll, not an investigator's",
            rule="UAE-05",
        )
    if command.use in ("deus_ex_machina", "trigger") and not command.note.strip():
        raise RuleViolation("say what it is (note): the Narrator rules on it", rule="UAE-04")
    rerolled = None
    if command.use == "reroll":
        assert command.by is not None
        rerolled = reroller(state, command.by, dice)
    players = state.karma_players + (-1 if command.by is not None else 1)
    narrator = state.karma_narrator + (1 if command.by is not None else -1)
    spentevent = ev.KarmaSpent(
        by=command.by,
        pool="players" if command.by is not None else "narrator",
        use=command.use,
        target=target.id if target is not None else None,
        note=command.note.strip(),
        karma_players=players,
        karma_narrator=narrator,
    )
    return (spentevent, rerolled) if rerolled is not None else (spentevent,)


def advance(state: State, command: Advance) -> tuple[ev.Event, ...]:
    who = character(state, command.character)
    trait = command.trait
    rating = who.rating(trait)
    source = command.source.strip()
    if trait in CHARACTERISTICS:
        assert rating is not None
        cost = state.options.characteristic_xp_factor * rating
    elif rating is None:
        if not source:
            raise RuleViolation(
                f"learning {rolls.title(trait)} needs a source (a teacher, books ...)",
                rule="UAE-13",
            )
        rating, cost = 0, 20
    else:
        cost = 10 * rating
    if rating >= 5:
        raise RuleViolation(f"{who.name}'s {rolls.title(trait)} is already 5", rule="UAE-13")
    if who.xp < cost:
        raise RuleViolation(
            f"{who.name} has {who.xp} xp; raising {rolls.title(trait)} from {rating} costs {cost}",
            rule="UAE-13",
        )
    return (
        ev.Advanced(
            character=who.id,
            trait=trait,
            previous=rating,
            value=rating + 1,
            cost=cost,
            xp_after=who.xp - cost,
            source=source,
        ),
    )
