"""What an ended encounter leaves to its campaign (``Ruleset.carry``, docs/campaigns.md).

A campaign keeps a party between fights.  Which numbers of a character outlive a fight
(hit points, Wounds, stress, Void, karma ...) is a question only the rules text answers,
so each ruleset states it here, in two directions:

- ``carry_over``: from an encounter's state, the *condition* of each character and what
  belongs to the table (karma pools, the map), as plain typed data;
- ``seed``: the ruleset's own commands that bring a character, added from its sheet, to a
  condition in a new encounter, so the seeding is decided, recorded and audited like any
  other command (a GM ruling "carried over from the campaign"), never written into a state.

Everything here is pure, like the rest of a ruleset: no I/O, no clock, no dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec
from msgspec.structs import replace

from service.ruleset import RulesetOption

StateT = TypeVar("StateT", bound=msgspec.Struct)
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
SheetT = TypeVar("SheetT", bound=msgspec.Struct)
ConditionT = TypeVar("ConditionT", bound=msgspec.Struct)
TableT = TypeVar("TableT", bound=msgspec.Struct)
CarryOptionsT = TypeVar("CarryOptionsT", bound=msgspec.Struct)

CARRIED_REASON = "carried over from the campaign"
"""The reason the seeding rulings give, so the encounter's log says where a number came
from."""


@dataclass(frozen=True, slots=True)
class CarryOver(Generic[ConditionT, TableT]):
    """What an encounter leaves: each character's condition by id, and the table's."""

    characters: Mapping[str, ConditionT]
    table: TableT


def renamed(sheet: Any, id: str, name: str) -> Any:
    """The default way to copy a sheet under another id and name (every ruleset's
    add-a-character command has the fields ``id`` and ``name``)."""
    return replace(sheet, id=id, name=name)


def fit(condition: Any) -> str | None:
    """The default: every condition may join a fight."""
    return None


def table_unchanged(state: Any, table: Any) -> tuple[Any, ...]:
    """The default for a ruleset whose text carries nothing of the table: no commands."""
    return ()


@dataclass(frozen=True, slots=True)
class CarryRules(Generic[StateT, CommandT, SheetT, ConditionT, TableT, CarryOptionsT]):
    """A ruleset's answer to "what carries from one fight to the next".

    Conditions and tables are frozen msgspec Structs so that a campaign stores them as
    plain data and reads them back with ``msgspec.convert``.  What the rules text leaves
    open is a field of ``options_type`` with its default, documented in ``option_notes``
    like the encounter options; each function's docstring names the text it follows.
    """

    sheet_type: type[SheetT]
    """The ruleset's command that adds a character with its sheet (it has ``id`` and
    ``name``): a party member's or a statblock's sheet is one of these."""
    condition_type: type[ConditionT]
    table_type: type[TableT]
    options_type: type[CarryOptionsT]
    option_notes: tuple[RulesetOption, ...]
    carry_over: Callable[[StateT, CarryOptionsT], CarryOver[ConditionT, TableT]]
    """Every character's condition and the table's, from an encounter's state (usually
    the final one).  A character just added from its sheet has its fresh condition."""
    sheet_of: Callable[[StateT, str], SheetT]
    """The sheet of a character as the encounter holds it (a character met in a fight
    joins the party), without what the condition carries: seeding it with the
    character's condition gives the character back."""
    seed: Callable[[StateT, SheetT, ConditionT], tuple[CommandT, ...]]
    """The commands that add the character of ``sheet`` to the encounter in ``state`` in
    ``condition``: the sheet (possibly with some numbers set from the condition), then
    GM rulings for what a sheet cannot say and the encounter would not give it (the
    state tells what its options give a newcomer).  A fresh condition needs only the
    sheet."""
    ended: Callable[[StateT], bool]
    """Whether the encounter is over, so its state is the one to carry over (a later
    GM ruling may give a later version to carry over again).  An encounter that never
    ends (an Aeonis game runs round after round) is carried over when the GM asks."""
    fresh_table: TableT
    """The table of a campaign no encounter has left one to yet: preparing and settling
    it changes nothing an encounter starts with, but what the members bring in may."""
    prepare_table: Callable[[StateT, TableT], tuple[CommandT, ...]] = table_unchanged
    """Commands for the table before anyone is seeded (the map the armies stand on),
    given the new encounter's state: only what it does not already have."""
    settle_table: Callable[[StateT, TableT], tuple[CommandT, ...]] = table_unchanged
    """Commands for the table after everyone is seeded (karma pools the arrivals moved),
    given the state they left: only what differs from ``table``."""
    unfit: Callable[[ConditionT], str | None] = fit
    """Why a character in this condition cannot be brought into a new fight (dead, in
    the words of the rules), or None.  Only a GM ruling changes that."""
    with_hit_points: Callable[[SheetT, int], SheetT] | None = None
    """The sheet with these hit points, for statblocks whose hit points are fixed or
    rolled; None for a ruleset without hit points."""
    no_hit_points: str = ""
    """Why, when ``with_hit_points`` is None, in the words of the rules."""
    renamed: Callable[[SheetT, str, str], SheetT] = field(default=renamed)
    """The sheet under another id and name ("Goblin 2")."""
