"""The events of a campaign stream: stable ``campaign.*`` tags, stored as they are.

A campaign stores the ruleset's Structs (sheets, conditions, tables) as plain data, the
way an encounter's fork stores its state: the campaign reads them back with the types
the ruleset's carry-over declares (``service/campaigns/typed.py``), so these events do
not change when a ruleset adds a rule system.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from service.dice.model import RollRecord

Plain = dict[str, Any]
"""A ruleset Struct as plain data (``msgspec.to_builtins``)."""


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every campaign event: frozen, keyword-only, tagged on ``type``."""


class CampaignCreated(_Event, frozen=True, kw_only=True, tag="campaign.created"):
    """The first event of a campaign: its name, the one ruleset its encounters run, and
    the ruleset's carry-over options (what the rules text leaves to the table)."""

    name: str
    ruleset: str
    options: Plain


class MemberAdded(_Event, frozen=True, kw_only=True, tag="campaign.member_added"):
    """A player character joins the party with its sheet (the ruleset's command that adds
    a character); its condition is the sheet's until a fight or a ruling changes it."""

    member: str
    name: str
    sheet: Plain


class MemberRemoved(_Event, frozen=True, kw_only=True, tag="campaign.member_removed"):
    member: str
    reason: str


class StatblockAdded(_Event, frozen=True, kw_only=True, tag="campaign.statblock_added"):
    """A statblock of the bestiary: a sheet to copy into encounters, and the notation its
    hit points may be rolled with instead of the sheet's number."""

    statblock: str
    name: str
    sheet: Plain
    hit_points: str | None = None


class StatblockRemoved(_Event, frozen=True, kw_only=True, tag="campaign.statblock_removed"):
    statblock: str


class Monster(msgspec.Struct, frozen=True, kw_only=True):
    """One copy of a statblock in an encounter: "Goblin 2", with its hit points when they
    were rolled (None: the sheet's own)."""

    statblock: str
    id: str
    name: str
    hit_points: int | None = None


class EncounterStarted(_Event, frozen=True, kw_only=True, tag="campaign.encounter_started"):
    """An encounter runs from the campaign: the members who join (away until it is
    carried over or closed) and the monsters copied from the bestiary, with the rolls of
    the hit points rolled."""

    encounter: UUID
    name: str
    members: tuple[str, ...]
    monsters: tuple[Monster, ...] = ()
    rolls: tuple[RollRecord, ...] = ()


class CarriedOver(_Event, frozen=True, kw_only=True, tag="campaign.carried_over"):
    """What an encounter at ``version`` left to the campaign: the new condition of each
    member who fought in it, each one's condition before (None: the sheet's), and the
    table's, both as the ruleset's carry-over states them."""

    encounter: UUID
    version: int
    conditions: dict[str, Plain]
    previous: dict[str, Plain | None]
    table: Plain
    previous_table: Plain | None


class CarryOverUndone(_Event, frozen=True, kw_only=True, tag="campaign.carry_over_undone"):
    """The GM takes a carry-over back: the members and the table return to ``previous``.
    The carry-over stays recorded, so it is never made twice; a redo applies it again."""

    encounter: UUID
    version: int
    reason: str


class CarryOverRedone(_Event, frozen=True, kw_only=True, tag="campaign.carry_over_redone"):
    encounter: UUID
    version: int
    reason: str


class EncounterClosed(_Event, frozen=True, kw_only=True, tag="campaign.encounter_closed"):
    """The GM lets an encounter go without carrying anything over (abandoned, a
    what-if): its members are back with the condition they had."""

    encounter: UUID
    reason: str


class Adjusted(_Event, frozen=True, kw_only=True, tag="campaign.adjusted"):
    """A GM ruling on a member's condition (``member``) or on the table (None): a rest,
    a healer between fights, a mistake put right.  ``condition`` None: back to the
    sheet's own."""

    member: str | None
    condition: Plain | None
    previous: Plain | None
    reason: str


Event = (
    CampaignCreated
    | MemberAdded
    | MemberRemoved
    | StatblockAdded
    | StatblockRemoved
    | EncounterStarted
    | CarriedOver
    | CarryOverUndone
    | CarryOverRedone
    | EncounterClosed
    | Adjusted
)

EVENT_TYPES: tuple[type[Event], ...] = (
    CampaignCreated,
    MemberAdded,
    MemberRemoved,
    StatblockAdded,
    StatblockRemoved,
    EncounterStarted,
    CarriedOver,
    CarryOverUndone,
    CarryOverRedone,
    EncounterClosed,
    Adjusted,
)
