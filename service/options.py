"""Encounter options, checked once when the encounter is created.

Options are stored with ``encounter.created`` and read by every later command, so an
option the ruleset cannot use (``"initiative_notation": "banana"``) must be refused when
it is given, naming the option, instead of breaking each later roll with a message that
never mentions it.  The check is the engine's, the same for every ruleset: the options
Struct decoded strictly (``"7"`` is not a number), then every option whose schema
declares the ``dice-notation`` format parsed as notation.  A ruleset declares such an
option with ``NotationOption`` (or its own ``Meta`` with ``NOTATION_FORMAT``) and needs
no code of its own.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from service.dice.model import DiceError
from service.dice.notation import MAX_NOTATION_LENGTH, parse
from service.ruleset import Ruleset

NOTATION_FORMAT: dict[str, Any] = {"format": "dice-notation"}
"""JSON Schema of a string holding dice notation: documents it, and marks it for the check."""

NotationOption = Annotated[
    str,
    Meta(min_length=1, max_length=MAX_NOTATION_LENGTH, extra_json_schema=NOTATION_FORMAT),
]
"""An option (or command field) holding dice notation such as ``1d20`` or ``2d6kh1``."""


class InvalidOption(ValueError):
    """An option the ruleset cannot use: which one (``key``, or None for the options as
    a whole) and why, in words shown to the user."""

    def __init__(self, ruleset: str, key: str | None, reason: str) -> None:
        where = f"option {key!r}" if key else "options"
        super().__init__(f"{where} of ruleset {ruleset!r}: {reason}")
        self.key = key
        self.reason = reason


def check_options(ruleset: Ruleset[Any, Any, Any, Any], options: dict[str, Any]) -> Any:
    """The typed options of a new encounter, or InvalidOption naming the first bad one."""
    try:
        typed = msgspec.convert(options, ruleset.options_type, strict=True)
    except msgspec.ValidationError as exc:
        reason, _, where = str(exc).partition(" - at `$")
        key = where.rstrip("`").lstrip(".") or _unknown_key(reason)
        raise InvalidOption(ruleset.name, key, reason) from None
    for key in _notation_fields(ruleset.options_type):
        value = getattr(typed, key)
        if value is None:
            continue
        try:
            parse(value)
        except DiceError as exc:
            raise InvalidOption(
                ruleset.name, key, f"{value!r} is not dice notation ({exc})"
            ) from None
    return typed


def _unknown_key(reason: str) -> str | None:
    """msgspec names an unknown field in its message (``Object contains unknown field
    `x```), not in the path."""
    head, _, rest = reason.partition("`")
    return rest.split("`", 1)[0] if "unknown field" in head and rest else None


def _notation_fields(options_type: type[msgspec.Struct]) -> list[str]:
    info = msgspec.inspect.type_info(options_type)
    assert isinstance(info, msgspec.inspect.StructType)
    return [f.name for f in info.fields if _is_notation(f.type)]


def _is_notation(t: msgspec.inspect.Type) -> bool:
    if isinstance(t, msgspec.inspect.UnionType):
        return any(_is_notation(member) for member in t.types)
    if isinstance(t, msgspec.inspect.Metadata):
        schema = t.extra_json_schema or {}
        return schema.get("format") == NOTATION_FORMAT["format"] or _is_notation(t.type)
    return False
