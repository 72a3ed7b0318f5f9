"""Why a declaration made twice, or after the Declare Phase, is refused: the rules that
forbid what the player asked for, not the phase that happens to be over.  Where several
rules forbid it, the refusal names each of them.

A failed action is spent and may not be replaced (AEK-17, AEK-54: "You may not
substitute"); one Major and one Minor a round (AEK-18, AEK-19); standing from Prone is a
Minor on the next turn (AEK-55, AEK-A30); Heroic Burn once per combat, and after
allocation only as a reaction to an attack (AEK-35); Void Surge before the attack roll
(AEK-63); the Defence Token is allocated in the Declare Phase, one per character, and the
allocation lasts the round (AEK-13, AEK-30, AEK-31, AEK-37); a lapsed declaration means
no action this round (AEK-32).
"""

from __future__ import annotations

from typing import NoReturn

from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical.commands import Declare
from service.rulesets.aeonisk_tactical.fields import Slot
from service.rulesets.aeonisk_tactical.plan import (
    AnyAction,
    Attack,
    Charge,
    Declaration,
    Stand,
)
from service.rulesets.aeonisk_tactical.state import Character, Declaring, State

Reason = tuple[str, str]
"""A rule that forbids the command: what it says, and its checklist id."""

_SLOT_RULE: dict[Slot, Reason] = {
    "major": ("a character has one Major action per round (section 2)", "AEK-18"),
    "minor": ("a character may only perform one Minor action per round (section 2)", "AEK-19"),
}


def refuse_late(state: State, who: Character, command: Declare) -> NoReturn:
    """Raise the RuleViolation for a declaration that comes after ``who`` declared, or
    outside the Declare Phase, naming every rule that forbids it."""
    before = state.declarations.get(who.id)
    reasons: list[Reason] = []
    if command.heroic_burn:
        reasons.append(_burn(who))
    if before is None:
        reasons.append(("declarations are made in the Declare Phase (section 1)", "AEK-13"))
    elif before.lapsed:
        reasons.append(
            (
                f"{who.name}'s declaration lapsed when the GM closed the Declare Phase: no "
                "action this round, and no Defence Token allocated (section 4)",
                "AEK-32",
            )
        )
    else:
        reasons.extend(_actions(state, who, command, before))
    reasons.extend(_allocation(state, who, command, before))
    if not reasons:
        reasons.append(
            (
                f"{who.name} has already declared this round, and declarations are made in "
                "the Declare Phase (section 1)",
                "AEK-13",
            )
        )
    rules = ", ".join(dict.fromkeys(rule for _, rule in reasons))
    raise RuleViolation("; and ".join(text for text, _ in reasons), rule=rules)


def _actions(state: State, who: Character, command: Declare, before: Declaration) -> list[Reason]:
    """What forbids the Major and Minor actions of a declaration made again."""
    reasons: list[Reason] = []
    surge = _surge(state, who, command, before)
    if surge is not None:
        return [surge]
    wanted = [a for a in (command.major, command.minor) if a is not None]
    stands = any(isinstance(a, Stand) for a in wanted)
    if stands and who.prone:
        reasons.append(
            (
                f'"Standing from Prone costs a Minor action on your next turn": {who.name} '
                "declares Stand in a later Declare Phase (section 5b)",
                "AEK-55, AEK-A30",
            )
        )
    spent = [slot for slot in ("major", "minor") if f"{who.id}:{slot}" in state.failed]
    if spent and any(not isinstance(a, Stand) for a in wanted):
        reasons.append(
            (
                f"{who.name}'s {spent[0].title()} action failed and is spent: you may not "
                "substitute another action for it (section 5b)",
                "AEK-54",
            )
        )
        return reasons
    slots: tuple[tuple[Slot, AnyAction | None, AnyAction | None], ...] = (
        ("major", command.major, before.major),
        ("minor", command.minor, before.minor),
    )
    for slot, action, declared in slots:
        if isinstance(action, Stand) and who.prone and declared is None:
            continue  # standing's own rule says it: on the next turn
        if action is not None and action != declared:
            reasons.append(_slot(state, who, slot, declared))
    return reasons


def _allocation(
    state: State, who: Character, command: Declare, before: Declaration | None
) -> list[Reason]:
    """What forbids allocating the Defence Token now: it is a Declare-Phase act, and a
    character holds one token, allocated for the entire round."""
    if command.defence_token is None or command.heroic_burn:
        return []
    if before is not None and command.defence_token == before.defence_token:
        return []
    reasons: list[Reason] = []
    if not isinstance(state.phase, Declaring):
        reasons.append(
            (
                "the Defence Token is allocated in the Declare Phase, as the character "
                "declares (section 4)",
                "AEK-13, AEK-31",
            )
        )
    if before is not None and before.defence_token is not None:
        foe = state.characters.get(before.defence_token)
        reasons.append(
            (
                f"{who.name} holds one Defence Token, already allocated to "
                f"{foe.name if foe else before.defence_token} for the entire round (section 4)",
                "AEK-30, AEK-37",
            )
        )
    elif before is not None and isinstance(state.phase, Declaring):
        reasons.append(
            (
                f"{who.name} declared without allocating the Defence Token, and it is "
                "allocated as the character declares (section 4)",
                "AEK-31",
            )
        )
    return reasons


def _burn(who: Character) -> Reason:
    if who.burned_round is not None:
        return (
            f"Heroic Burn is once per combat, and {who.name} has already burned the Defence "
            "Token (section 4)",
            "AEK-35",
        )
    return (
        f"{who.name} has allocated the Defence Token: a Heroic Burn is now made as a reaction "
        "to being attacked (section 4: react with heroic_burn in the Fast Phase)",
        "AEK-35",
    )


def _surge(state: State, who: Character, command: Declare, before: Declaration) -> Reason | None:
    """A Void Surge added to the declared attack by declaring it again."""
    wanted, declared = command.major, before.major
    if not (isinstance(wanted, Attack | Charge) and wanted.void_surge):
        return None
    if not isinstance(declared, Attack | Charge) or declared.void_surge:
        return None
    if f"{who.id}:major" in state.resolved:
        return (
            f"Void Surge must be declared before the attack roll (section 8), and {who.name}'s "
            "attack has been rolled",
            "AEK-63",
        )
    return (
        f"Void Surge is a Free Action declared before the attack roll (section 8): add it to "
        f"{who.name}'s declared attack with void_surge",
        "AEK-63",
    )


def _slot(state: State, who: Character, slot: Slot, declared: AnyAction | None) -> Reason:
    key = f"{who.id}:{slot}"
    name = slot.title()
    if declared is not None:
        used = "used" if key in state.resolved else f"declared ({declared.__struct_config__.tag})"
        rule, rule_id = _SLOT_RULE[slot]
        return f"{who.name}'s {name} is {used}: {rule}", rule_id
    return (
        f"{who.name} declared no {name} action this round: actions are stated when the "
        "character declares, in ascending Initiative, and none can be added later (section 1)",
        "AEK-13",
    )
