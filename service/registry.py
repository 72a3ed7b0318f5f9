"""The explicit list of rule systems this service runs.

Adding a ruleset is one line here; nothing is discovered by scanning packages.
"""

from __future__ import annotations

import functools
from typing import Any

from service.codec import EventCodec
from service.ruleset import Ruleset, tag_of
from service.rulesets import (
    aeonis_combat,
    aeonisk_tactical,
    generic,
    scentfinder,
    tactics,
    untold_aeons,
)

RULESETS: dict[str, Ruleset[Any, Any, Any, Any]] = {
    generic.RULESET.name: generic.RULESET,
    aeonisk_tactical.RULESET.name: aeonisk_tactical.RULESET,
    aeonis_combat.RULESET.name: aeonis_combat.RULESET,
    tactics.RULESET.name: tactics.RULESET,
    untold_aeons.RULESET.name: untold_aeons.RULESET,
    scentfinder.RULESET.name: scentfinder.RULESET,
}


class UnknownRuleset(LookupError):
    def __init__(self, name: str) -> None:
        known = ", ".join(sorted(RULESETS))
        super().__init__(f"unknown ruleset {name!r}; this service runs: {known}")
        self.name = name


def get_ruleset(name: str) -> Ruleset[Any, Any, Any, Any]:
    try:
        return RULESETS[name]
    except KeyError:
        raise UnknownRuleset(name) from None


@functools.cache
def codec_for(name: str) -> EventCodec:
    return EventCodec(get_ruleset(name))


def all_command_types() -> tuple[type[Any], ...]:
    return tuple(t for r in RULESETS.values() for t in r.command_types)


def all_event_types() -> tuple[type[Any], ...]:
    return tuple(t for r in RULESETS.values() for t in r.event_types)


@functools.cache
def _command_owners() -> dict[str, str]:
    return {tag_of(t): name for name, r in RULESETS.items() for t in r.command_types}


def ruleset_of_command(tag: str) -> str | None:
    """The ruleset whose command has this type tag; None for a tag no ruleset has."""
    return _command_owners().get(tag)
