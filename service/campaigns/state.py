"""The folded state of a campaign: the party, the bestiary, the table, the encounters.

``NoCampaign`` before ``campaign.created``; then a ``Campaign``.  Sheets, conditions and
tables stay plain data here, as stored; ``service/campaigns/typed.py`` reads them with
the ruleset's types where a rule needs them.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from service.campaigns.events import Monster

Plain = dict[str, Any]


class Member(msgspec.Struct, frozen=True, kw_only=True):
    """A player character of the party.  ``condition`` None: as its sheet gives it."""

    name: str
    sheet: Plain
    condition: Plain | None = None
    away: UUID | None = None
    """The encounter the member fights in, until it is carried over or closed."""


class Statblock(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    sheet: Plain
    hit_points: str | None = None


class Carried(msgspec.Struct, frozen=True, kw_only=True):
    """One carry-over of an encounter, as ``campaign.carried_over`` recorded it."""

    version: int
    conditions: dict[str, Plain]
    previous: dict[str, Plain | None]
    table: Plain
    previous_table: Plain | None
    undone: bool = False


class Encounter(msgspec.Struct, frozen=True, kw_only=True):
    """An encounter started from the campaign, and what it carried over."""

    name: str
    members: tuple[str, ...]
    monsters: tuple[Monster, ...] = ()
    carried: tuple[Carried, ...] = ()
    closed: bool = False

    @property
    def open(self) -> bool:
        """Neither carried over nor closed: its members are away."""
        return not self.carried and not self.closed


class NoCampaign(msgspec.Struct, frozen=True, tag="none"):
    """Before ``campaign.created``."""


class Campaign(msgspec.Struct, frozen=True, kw_only=True, tag="campaign"):
    name: str
    ruleset: str
    options: Plain
    members: dict[str, Member] = {}
    statblocks: dict[str, Statblock] = {}
    table: Plain | None = None
    """None: no encounter has left anything to the table yet."""
    encounters: dict[UUID, Encounter] = {}


State = NoCampaign | Campaign


def initial_state() -> State:
    return NoCampaign()
