"""The commands of a campaign: what the GM asks for, and the carry-over the process
manager asks for when an encounter of the campaign ends.

Sheets, conditions and tables arrive as plain JSON objects and are read with the types
the ruleset's carry-over declares; ``decide`` refuses what does not fit them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from msgspec import Meta

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[^\s]+$", examples=["kaelia"])]
Text = Annotated[str, Meta(min_length=1, max_length=200)]
Plain = dict[str, Any]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"
):
    """Base of every campaign command: frozen, keyword-only, strict, tagged on ``type``."""


class CreateCampaign(_Command, frozen=True, kw_only=True, tag="campaign.create"):
    name: Text
    ruleset: Annotated[str, Meta(examples=["aeonisk"])]
    options: Annotated[Plain, Meta(description="The ruleset's carry-over options.")] = {}


class AddMember(_Command, frozen=True, kw_only=True, tag="campaign.add_member"):
    """A player character with its sheet: the ruleset's add-a-character command (its
    ``id`` is the member's id in every encounter)."""

    sheet: Plain


class RemoveMember(_Command, frozen=True, kw_only=True, tag="campaign.remove_member"):
    member: Id
    reason: Text


class AddStatblock(_Command, frozen=True, kw_only=True, tag="campaign.add_statblock"):
    """A statblock: the ruleset's add-a-character command, copied into encounters under
    numbered names; ``hit_points`` a notation they may be rolled with ("2d6+2")."""

    sheet: Plain
    hit_points: Annotated[str, Meta(max_length=64, examples=["2d6"])] | None = None


class RemoveStatblock(_Command, frozen=True, kw_only=True, tag="campaign.remove_statblock"):
    statblock: Id


class MonsterPick(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    statblock: Id
    count: Annotated[int, Meta(ge=1, le=50)] = 1
    hit_points: Literal["fixed", "rolled"] = "fixed"
    """fixed: the sheet's number; rolled: the statblock's notation, one roll each."""


class StartEncounter(_Command, frozen=True, kw_only=True, tag="campaign.start_encounter"):
    """An encounter of the campaign: which members join and which monsters, how many."""

    encounter: UUID
    name: Text
    members: Annotated[tuple[Id, ...], Meta(max_length=50)] = ()
    monsters: Annotated[tuple[MonsterPick, ...], Meta(max_length=20)] = ()


class CarryOver(_Command, frozen=True, kw_only=True, tag="campaign.carry_over"):
    """What the encounter's state at ``version`` leaves to the campaign (the process
    manager sends it when the encounter ends, and again after a later ruling; the GM
    when carrying it over now)."""

    encounter: UUID
    version: Annotated[int, Meta(ge=1)]
    game: Annotated[Plain, Meta(description="The encounter's ruleset state at version.")]
    automatic: bool = False
    """Sent by the process manager, not asked for by the GM: refused once the GM undid
    the encounter's last carry-over (``carrying.carry_over``)."""


class UndoCarryOver(_Command, frozen=True, kw_only=True, tag="campaign.undo_carry_over"):
    encounter: UUID
    reason: Text


class RedoCarryOver(_Command, frozen=True, kw_only=True, tag="campaign.redo_carry_over"):
    encounter: UUID
    reason: Text


class CloseEncounter(_Command, frozen=True, kw_only=True, tag="campaign.close_encounter"):
    encounter: UUID
    reason: Text


class Adjust(_Command, frozen=True, kw_only=True, tag="campaign.adjust"):
    """A GM ruling: a member's condition (``member``) or the table's (null), as the
    ruleset's carry-over types state them; ``condition`` null: back to the sheet's."""

    member: Id | None = None
    condition: Plain | None = None
    reason: Text


Command = (
    CreateCampaign
    | AddMember
    | RemoveMember
    | AddStatblock
    | RemoveStatblock
    | StartEncounter
    | CarryOver
    | UndoCarryOver
    | RedoCarryOver
    | CloseEncounter
    | Adjust
)
