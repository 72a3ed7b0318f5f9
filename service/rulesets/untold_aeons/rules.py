"""Lookups every command shares: who is who, whose turn it is, what a turn still allows.

Turns (UAE-26, UAE-27, UAE-A1): each round everyone able to act picks Fast or Slow; the
order is Fast initiating > Fast defending > Slow initiating > Slow defending, and
within a slot the side chooses (anyone of the current slot may act). A turn of the
limited type allows an action or a move, the other an action and a move.
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.untold_aeons.state import Character, Slot, Speed, State

STATUS_WORDS = {
    "severely_injured": "is Severely Injured and cannot act",
    "broken": "has broken (temporarily insane or unconscious) and cannot act",
    "dead": "is dead",
}


def character(state: State, ident: str) -> Character:
    found = state.characters.get(ident)
    if found is None:
        raise RuleViolation(f"there is no character '{ident}' in this encounter")
    return found


def able(state: State, ident: str) -> Character:
    who = character(state, ident)
    if not who.can_act:
        raise RuleViolation(f"{who.name} {STATUS_WORDS[who.status]}", rule="UAE-22")
    return who


def limited(state: State, speed: Speed) -> bool:
    """Whether a turn of this type allows an action OR a move (not both)."""
    fast_limited = state.options.fast_turn_allows == "action_or_move"
    return (speed == "fast") == fast_limited


def current_slot(state: State) -> Slot | None:
    for slot in state.slots:
        if any(_waiting(state, c) for c in slot.characters):
            return slot
    return None


def _waiting(state: State, ident: str) -> bool:
    who = state.characters.get(ident)
    return who is not None and who.can_act and ident not in state.done


def waiting(state: State) -> list[str]:
    return [c for slot in state.slots for c in slot.characters if _waiting(state, c)]


def slot_words(slot: Slot) -> str:
    side = "initiating" if slot.initiating else "defending"
    return f"the {slot.speed.title()} turns of the {side} side ({slot.side})"


def acting(state: State, ident: str, doing: str | None = None) -> Character:
    """The character, if it is their turn and nothing waits for an answer. ``doing``
    ("action" or "move") explains a turn that ended by using up what it allowed."""
    if state.phase == "setup":
        raise RuleViolation("the fight has not started: the Narrator begins round 1")
    if state.phase == "choosing":
        missing = ", ".join(
            state.characters[c].name for c in chooser_ids(state) if c not in state.turns
        )
        raise RuleViolation(
            f"round {state.round}: everyone first chooses a Fast or Slow turn "
            f"(waiting for {missing})",
            rule="UAE-26",
        )
    who = able(state, ident)
    if state.pending is not None:
        target = character(state, state.pending.target)
        attacker = character(state, state.pending.attacker)
        raise RuleViolation(f"{target.name} must first answer {attacker.name}'s attack")
    speed = state.turns.get(ident)
    if ident in state.done and doing is not None and speed is not None:
        used = ident in state.used_action or ident in state.used_move
        if limited(state, speed) and used:
            raise RuleViolation(
                f"a {speed.title()} turn allows an action or a move, not both", rule="UAE-A1"
            )
        if doing == "action" and ident in state.used_action:
            raise RuleViolation(
                f"{who.name} has already taken the action of this {speed.title()} turn",
                rule="UAE-A1",
            )
        if doing == "move" and ident in state.used_move:
            raise RuleViolation(
                f"{who.name} has already moved in this {speed.title()} turn", rule="UAE-A1"
            )
    if ident in state.done or ident not in state.turns:
        raise RuleViolation(f"{who.name}'s turn this round is over", rule="UAE-26")
    slot = current_slot(state)
    if slot is None or ident not in slot.characters:
        now = slot_words(slot) if slot else "nobody's turn"
        raise RuleViolation(
            f"it is {now}; {who.name} took a {state.turns[ident].title()} turn and acts "
            "in a later slot",
            rule="UAE-27",
        )
    return who


def chooser_ids(state: State) -> list[str]:
    return [c.id for c in state.characters.values() if c.can_act]


def check_action(state: State, who: Character) -> None:
    speed = state.turns[who.id]
    if limited(state, speed):
        if who.id in state.used_move or who.id in state.used_action:
            raise RuleViolation(
                f"a {speed.title()} turn allows an action or a move, not both", rule="UAE-A1"
            )
    elif who.id in state.used_action:
        raise RuleViolation(
            f"{who.name} has already taken the action of this {speed.title()} turn",
            rule="UAE-A1",
        )


def check_move(state: State, who: Character) -> None:
    speed = state.turns[who.id]
    if limited(state, speed):
        if who.id in state.used_move or who.id in state.used_action:
            raise RuleViolation(
                f"a {speed.title()} turn allows an action or a move, not both", rule="UAE-A1"
            )
    elif who.id in state.used_move:
        raise RuleViolation(
            f"{who.name} has already moved in this {speed.title()} turn", rule="UAE-A1"
        )


def turn_over_after(state: State, ident: str, *, action: bool, move: bool) -> bool:
    """Whether nothing is left of the turn once this action and/or move is used."""
    used_action = action or ident in state.used_action
    used_move = move or ident in state.used_move
    if limited(state, state.turns[ident]):
        return used_action or used_move
    return used_action and used_move


def order_slots(state: State, turns: dict[str, Speed], initiating: str) -> tuple[Slot, ...]:
    """UAE-27: Fast initiating, Fast defending, Slow initiating, Slow defending."""
    slots: list[Slot] = []
    for speed in ("fast", "slow"):
        for initiating_side in (True, False):
            members = tuple(
                c.id
                for c in state.characters.values()
                if c.id in turns
                and turns[c.id] == speed
                and (c.side == initiating) == initiating_side
            )
            if members:
                side = (
                    initiating
                    if initiating_side
                    else ", ".join(dict.fromkeys(state.characters[m].side for m in members))
                )
                slots.append(
                    Slot(speed=speed, side=side, initiating=initiating_side, characters=members)
                )
    return tuple(slots)
