"""Rules shared by several commands: finding combatants, hp consequences, durations.

Each helper either returns what ``decide`` needs or raises ``RuleViolation`` with a
sentence a player understands, naming combatants by name.
"""

from __future__ import annotations

from service.dice.notation import parse
from service.ruleset import RuleViolation
from service.rulesets.generic.events import ConditionAdded, ConditionRemoved, Event
from service.rulesets.generic.state import Combatant, State, is_down


def combatant(state: State, combatant_id: str) -> Combatant:
    """The combatant with this id, or a violation naming the unknown id."""
    found = state.combatants.get(combatant_id)
    if found is None:
        raise RuleViolation(f"there is no combatant with id '{combatant_id}' in this encounter")
    return found


def text(value: str, what: str) -> str:
    """``value`` without surrounding spaces; it must not be empty."""
    stripped = value.strip()
    if not stripped:
        raise RuleViolation(f"{what} cannot be empty")
    return stripped


def check_notation(notation: str) -> None:
    """Refuse a bad notation before any die is rolled (DiceError names the fault).

    Used for rolls that may not happen (damage on a miss), so a typo is caught every time
    rather than only on a hit.
    """
    parse(notation)


def one_amount(amount: int | None, notation: str | None, what: str) -> None:
    """Exactly one of a fixed amount and a notation."""
    if amount is None and notation is None:
        raise RuleViolation(f"give an amount or a notation for the {what}")
    if amount is not None and notation is not None:
        raise RuleViolation(f"give an amount or a notation for the {what}, not both")
    if amount is not None and amount < 0:
        raise RuleViolation(f"the {what} amount cannot be negative ({amount})")
    if notation is not None:
        check_notation(notation)


def expires_at(state: State, duration_rounds: int | None) -> int | None:
    """The round at whose start a condition of this duration ends.

    Added during round r, a condition of d rounds ends as round r + d begins; before
    combat r counts as 1.  So "1 round" lasts to the end of the current round.
    """
    if duration_rounds is None:
        return None
    if duration_rounds < 1:
        raise RuleViolation(f"a condition lasts at least 1 round, not {duration_rounds}")
    current = state.round()
    return (1 if current is None else current) + duration_rounds


def hp_floor(state: State, hp: int) -> int:
    """hp after a loss: negative only when the encounter allows it."""
    return hp if state.options.allow_negative_hp else max(0, hp)


def hp_consequences(state: State, before: Combatant, hp_after: int) -> tuple[Event, ...]:
    """The down condition that follows an hp change: added on reaching 0 or below, removed
    when hp climbs back above 0.  Nothing when the encounter has no down condition.

    These events carry no reason even after a GM ruling: they are the rules' doing."""
    down = state.options.down_condition
    if down is None:
        return ()
    has_it = before.condition(down) is not None
    if hp_after <= 0 and not has_it:
        return (ConditionAdded(combatant=before.id, condition=down),)
    if hp_after > 0 and has_it and is_down(before):
        return (ConditionRemoved(combatant=before.id, condition=down),)
    return ()


def ensure_can_act(actor: Combatant, action: str) -> None:
    """A combatant at 0 hp or below is out of the fight."""
    if is_down(actor):
        raise RuleViolation(f"{actor.name} is at {actor.hp} hit points and cannot {action}")
