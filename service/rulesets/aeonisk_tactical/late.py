"""Why a declaration made twice, or after the Declare Phase, is refused: the rule that
forbids what the player asked for, not the phase that happens to be over.

A failed action is spent and may not be replaced (AEK-17, AEK-54: "You may not
substitute"); one Major and one Minor a round (AEK-18, AEK-19); Heroic Burn once per
combat, and after allocation only as a reaction to an attack (AEK-35); Void Surge before
the attack roll (AEK-63); the Defence Token allocation lasts the round (AEK-31); a
lapsed declaration means no action this round (AEK-32).
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical.commands import Declare
from service.rulesets.aeonisk_tactical.fields import Slot
from service.rulesets.aeonisk_tactical.plan import AnyAction, Attack, Charge, Declaration
from service.rulesets.aeonisk_tactical.state import Character, State

_SLOT_RULE: dict[Slot, str] = {
    "major": "a character has one Major action per round (section 2)",
    "minor": "a character may only perform one Minor action per round (section 2)",
}


def refuse_late(state: State, who: Character, command: Declare) -> None:
    """Raise the RuleViolation for a declaration that comes after ``who`` declared, or
    outside the Declare Phase."""
    if command.heroic_burn:
        _burn(who)
    before = state.declarations.get(who.id)
    if before is None:
        raise RuleViolation("declarations are made in the Declare Phase (section 1)")
    if before.lapsed:
        raise RuleViolation(
            f"{who.name}'s declaration lapsed when the GM closed the Declare Phase: no action "
            "this round, and no Defence Token allocated (section 4)"
        )
    _surge(state, who, command, before)
    spent = [slot for slot in ("major", "minor") if f"{who.id}:{slot}" in state.failed]
    if spent and (command.major is not None or command.minor is not None):
        raise RuleViolation(
            f"{who.name}'s {spent[0].title()} action failed and is spent: you may not "
            "substitute another action for it (section 5b)"
        )
    slots: tuple[tuple[Slot, AnyAction | None, AnyAction | None], ...] = (
        ("major", command.major, before.major),
        ("minor", command.minor, before.minor),
    )
    for slot, wanted, declared in slots:
        if wanted is not None and wanted != declared:
            _slot(state, who, slot, declared)
    if command.defence_token != before.defence_token:
        raise RuleViolation(
            f"{who.name}'s Defence Token allocation lasts for the entire round (section 4)"
        )
    raise RuleViolation(
        f"{who.name} has already declared this round, and declarations are made in the "
        "Declare Phase (section 1)"
    )


def _burn(who: Character) -> None:
    if who.burned_round is not None:
        raise RuleViolation(
            f"Heroic Burn is once per combat, and {who.name} has already burned the Defence "
            "Token (section 4)"
        )
    raise RuleViolation(
        f"{who.name} has allocated the Defence Token: a Heroic Burn is now made as a reaction "
        "to being attacked (section 4: react with heroic_burn in the Fast Phase)"
    )


def _surge(state: State, who: Character, command: Declare, before: Declaration) -> None:
    """A Void Surge added to the declared attack by declaring it again."""
    wanted, declared = command.major, before.major
    if not (isinstance(wanted, Attack | Charge) and wanted.void_surge):
        return
    if not isinstance(declared, Attack | Charge) or declared.void_surge:
        return
    if f"{who.id}:major" in state.resolved:
        raise RuleViolation(
            f"Void Surge must be declared before the attack roll (section 8), and {who.name}'s "
            "attack has been rolled"
        )
    raise RuleViolation(
        f"Void Surge is a Free Action declared before the attack roll (section 8): add it to "
        f"{who.name}'s declared attack with void_surge"
    )


def _slot(state: State, who: Character, slot: Slot, declared: AnyAction | None) -> None:
    key = f"{who.id}:{slot}"
    name = slot.title()
    if declared is not None:
        used = "used" if key in state.resolved else f"declared ({declared.__struct_config__.tag})"
        raise RuleViolation(f"{who.name}'s {name} is {used}: {_SLOT_RULE[slot]}")
    raise RuleViolation(
        f"{who.name} declared no {name} action this round: actions are stated when the "
        "character declares, in ascending Initiative, and none can be added later (section 1)"
    )
