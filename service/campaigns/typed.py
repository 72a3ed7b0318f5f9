"""Reading a campaign's plain data with the types its ruleset's carry-over declares.

The campaign stores sheets, conditions and tables as plain data; every rule that needs
their meaning reads them here, and a value that does not fit is refused in words.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from service.carry_over import CarryRules
from service.registry import get_ruleset
from service.ruleset import RuleViolation

T = TypeVar("T")
AnyRules = CarryRules[Any, Any, Any, Any, Any, Any]


def rules_of(name: str) -> AnyRules:
    """The ruleset's carry-over; every registered ruleset states one."""
    rules = get_ruleset(name).carry
    if rules is None:
        raise RuleViolation(f"the ruleset {name} states nothing that carries between fights")
    return rules


def read(kind: type[T], data: Any, what: str) -> T:
    """``data`` as ``kind``, or a refusal that says what is wrong with it."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise RuleViolation(f"{what} does not fit: {error}") from None


def plain(value: msgspec.Struct) -> dict[str, Any]:
    """``value`` as the JSON data it is stored as (lists, not tuples), so what the
    campaign compares is the same before and after the store."""
    data: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(value))
    return data


def condition_of(rules: AnyRules, condition: dict[str, Any] | None) -> Any | None:
    return None if condition is None else read(rules.condition_type, condition, "the condition")
