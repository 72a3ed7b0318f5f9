"""What the replay log's lines are built from: names, rolls announced
(``service.dice.announce``), Initiative results, and the longer parts of a declaration,
an action and a Tactical Token spent."""

from __future__ import annotations

from typing import assert_never

from service.dice.announce import announce, announce_hidden
from service.dice.model import RollRecord
from service.health_text import health_part
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.fields import FATAL_WOUNDS, TOKEN_NAMES, title
from service.rulesets.aeonisk_tactical.plan import (
    AnyAction,
    Attack,
    BondRally,
    Charge,
    Claim,
    Declaration,
    Disengage,
    Move,
    Overwatch,
    Reload,
    Stand,
    Suppress,
    Swap,
    Task,
)
from service.rulesets.aeonisk_tactical.state import State
from service.secrecy import health_word


class Names:
    def __init__(self, state: State) -> None:
        self._state = state

    def __call__(self, ident: str | None) -> str:
        if ident is None:
            return "GM"
        found = self._state.characters.get(ident)
        return found.name if found else ident


def rolls(state: State, rolls: tuple[RollRecord, ...]) -> str:
    """The rolls said aloud; a defence names the attack total it stands against."""
    name = Names(state)
    by_id = {r.roll_id: r for r in rolls}
    return "; ".join(
        announce_hidden(r)
        if r.hidden
        else announce(r, name=name(r.roller), opposing=by_id.get(r.opposed_by or ""))
        for r in rolls
    )


def init(event: ev.InitiativeRolled, character: str, state: State) -> str:
    rolled = next((r for r in event.results if r.character == character), None)
    if rolled is None:
        found = state.characters.get(character)
        return str(found.initiative if found else "?")
    return (
        f"{rolled.total} (natural 1: all skill checks halved, all actions Slow)"
        if rolled.natural_one
        else str(rolled.total)
    )


def declared(state: State, d: Declaration) -> str:
    n = Names(state)
    who = n(d.character)
    if d.forfeit:
        parts = ["forfeits the turn to re-roll Initiative"]
    else:
        major = action(state, d.major) if d.major else "none"
        minor = action(state, d.minor) if d.minor else "none"
        parts = [
            f"Minor: {minor}; Major: {major}"
            if d.minor_first
            else f"Major: {major}; Minor: {minor}"
        ]
    if d.defence_token is None:
        parts.append("no Defence Token allocated (every attacker gains Flanking)")
    else:
        burn = " with a Heroic Burn (-4)" if d.heroic_burn else ""
        parts.append(f"Defence Token on {n(d.defence_token)}{burn}")
    if d.defence != "active":
        parts.append(f"{d.defence} defence")
    if d.stance is not None:
        parts.append(f"stance {d.stance}")
    return f"{who} declares: " + "; ".join(parts)


def action(state: State, action: AnyAction) -> str:
    n = Names(state)
    match action:
        case Attack():
            extra = "".join(
                [
                    ", running" if action.running else "",
                    ", with a Void Surge" if action.void_surge else "",
                ]
            )
            return f"attack {n(action.target)} with {action.weapon}{extra}"
        case Charge():
            return f"charge {n(action.target)} with {action.weapon}"
        case Suppress():
            return f"suppress {n(action.target)} with {action.weapon}"
        case Move():
            to = "closer to" if action.direction == "closer" else "away from"
            where = f"to {action.zone}" if action.zone else f"{to} {n(action.reference)}"
            terrain = f" through {title(action.terrain)}" if action.terrain else ""
            return f"shift {action.bands} band{'s' if action.bands != 1 else ''} {where}{terrain}"
        case Task():
            return f"{action.label} (DC {action.dc})"
        case Reload():
            return f"reload {action.weapon}"
        case Claim():
            return f"claim {_token(state, action.token)}"
        case Swap():
            return f"swap for {_token(state, action.token)}"
        case Overwatch():
            return f"set up Overwatch over {', '.join(n(a) for a in action.arc)}"
        case Stand():
            return "stand up from Prone"
        case Disengage():
            return f"disengage from {n(action.foe)}"
        case BondRally():
            return f"Bond Rally for {n(action.ally)}"


def _token(state: State, token_id: str) -> str:
    token = state.tokens.get(token_id)
    return f"the {TOKEN_NAMES[token.kind]} token" if token else token_id


def spend(event: ev.TokenSpent, n: Names) -> str:
    match event.kind:
        case "cover":
            return "+2 Soak against the next incoming attack"
        case "high_ground":
            return "+2 to this round's attack, ignoring the Near range penalty"
        case "energy_hub":
            return "+2 banked for the next damage or effect roll"
        case "vent":
            return "the area is obscured"
        case "ley_node":
            return "+2 to this round's Dreamwork or Ritual roll"
        case "void_slick":
            return f"{n(event.target)} must make an Agility save or fall Prone"
        case "sprint_lane":
            return "an extra band shift right now"
        case _:
            assert_never(event.kind)


def breakaway_closed(state: State, event: ev.BreakawayClosed) -> str:
    """The end of a Breakaway window: the foes who let the chance pass, or that every
    foe took its strike (then no chance passed)."""
    name = Names(state)
    window = state.breakaway
    waiting = window.foes if window is not None and window.mover == event.mover else ()
    if not waiting:
        return f"Every free strike at {name(event.mover)} has been taken"
    foes = ", ".join(name(f) for f in waiting)
    return f"The chance of a free strike at {name(event.mover)} has passed for {foes}"


def damage_verdict(state: State, event: ev.DamageRolled) -> str:
    """What a hit did: the Wounds it is worth for everyone (the damage roll is public), its
    Soak and the Wounds after for readers who may see the target's numbers, the word for
    them under ``npc_health = "descriptor"`` (service/health_text.py)."""
    target = state.characters[event.target]
    plural = "s" if event.wounds != 1 else ""
    wounds = f"{event.wounds} Wound{plural}" if event.wounds else "no Wound"
    over = event.damage - event.soak
    exact = (
        f"{over} over Soak {event.soak}: {wounds}"
        if event.wounds
        else f"below Soak {event.soak}: {wounds}"
    ) + f" ({target.name} {target.wounds} -> {event.wounds_after} Wounds)"
    word = health_word(max(0, FATAL_WOUNDS - event.wounds_after), FATAL_WOUNDS)
    return health_part(event.target, exact, f"{wounds} ({target.name} {word})", wounds)
