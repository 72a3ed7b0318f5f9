"""Request and response bodies of the campaign routes (api/routes/campaigns.py).

The GM's commands are the campaign's own command Structs (service/campaigns/commands.py):
strict, tagged on ``type``, and only those a GM sends; a carry-over is the process
manager's, and starting an encounter has its route.  Responses are views of the folded
campaign, listing what the state keys by id.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from api.schemas import AnyCommand, ClientSeed, EventOut, Name
from events.provenance import ProvenanceReport
from events.verify import ChainReport, HeadReport, PinReport
from service.campaigns.commands import (
    AddMember,
    AddStatblock,
    Adjust,
    CloseEncounter,
    Id,
    MonsterPick,
    RedoCarryOver,
    RemoveMember,
    RemoveStatblock,
    UndoCarryOver,
)
from service.campaigns.state import Campaign
from service.secrecy import NpcHealth

Plain = dict[str, Any]


class CreateCampaignBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    ruleset: Annotated[str, msgspec.Meta(examples=["generic"])]
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    options: Plain = {}
    """The ruleset's carry-over options (GET /rulesets/{name}); omitted keys take their
    defaults."""


GmCommand = (
    AddMember
    | RemoveMember
    | AddStatblock
    | RemoveStatblock
    | UndoCarryOver
    | RedoCarryOver
    | CloseEncounter
    | Adjust
)


class StartEncounterBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An encounter of the campaign: who of the party joins, which statblocks with how
    many copies, and the usual options of a new encounter (POST /encounters)."""

    name: Name
    ground: Annotated[list[AnyCommand], msgspec.Meta(max_length=200)] = []  # type: ignore[valid-type]
    """The ruleset's commands that lay the ground before anyone arrives (areas, zones,
    hexes): sheets that stand somewhere need it there."""
    members: Annotated[tuple[Id, ...], msgspec.Meta(max_length=50)] = ()
    monsters: Annotated[tuple[MonsterPick, ...], msgspec.Meta(max_length=20)] = ()
    options: Plain = {}
    client_seed: ClientSeed | None = None
    allow_player_dice: bool = False
    npc_health: NpcHealth = "descriptor"


class CampaignTokenBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    role: Literal["player", "spectator"] = "player"
    """A player's token is bound to a member; a spectator's to none: it reads the
    campaign and its encounters as players do, and writes nothing."""
    member: Id | None = None
    """The party member the player plays: their character in every encounter."""
    label: Annotated[str, msgspec.Meta(max_length=200)] | None = None


class CampaignToken(msgspec.Struct, kw_only=True):
    token: str
    """Shown this once: only a digest of it is kept."""
    token_id: str
    """The token's public part, to revoke it by."""
    role: str
    member: str | None
    label: str | None


class CampaignTokenInfo(msgspec.Struct, kw_only=True):
    """A token of the campaign as its GM lists it: never the secret."""

    token_id: str
    role: str
    """``gm`` (the campaign's own, which cannot be revoked), ``player`` or ``spectator``."""
    member: str | None
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


class CampaignTokens(msgspec.Struct, kw_only=True):
    tokens: list[CampaignTokenInfo]


class CampaignCommandBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: GmCommand


class MemberView(msgspec.Struct, kw_only=True):
    member: str
    name: str
    sheet: Plain
    condition: Plain | None
    """What the last fight or ruling left; null: as the sheet gives it."""
    away: UUID | None
    """The encounter the member fights in, until it is carried over or closed."""


class StatblockView(msgspec.Struct, kw_only=True):
    statblock: str
    name: str
    sheet: Plain
    hit_points: str | None


class CarriedView(msgspec.Struct, kw_only=True):
    version: int
    conditions: dict[str, Plain]
    previous: dict[str, Plain | None]
    table: Plain
    previous_table: Plain | None
    undone: bool


class MonsterView(msgspec.Struct, kw_only=True):
    statblock: str
    id: str
    name: str
    hit_points: int | None


class EncounterOfCampaign(msgspec.Struct, kw_only=True):
    encounter_id: UUID
    name: str
    members: list[str]
    monsters: list[MonsterView]
    carried: list[CarriedView]
    closed: bool


class CampaignView(msgspec.Struct, kw_only=True):
    campaign_id: UUID
    version: int
    name: str
    ruleset: str
    options: Plain
    party: list[MemberView]
    bestiary: list[StatblockView]
    table: Plain | None
    """What the last fight or ruling left to the table; null: nothing yet."""
    encounters: list[EncounterOfCampaign]


def campaign_view(campaign_id: UUID, version: int, state: Campaign) -> CampaignView:
    def plain(value: msgspec.Struct) -> Plain:
        data: Plain = msgspec.to_builtins(value)
        return data

    return CampaignView(
        campaign_id=campaign_id,
        version=version,
        name=state.name,
        ruleset=state.ruleset,
        options=state.options,
        party=[
            msgspec.convert({"member": k, **plain(m)}, MemberView) for k, m in state.members.items()
        ],
        bestiary=[
            msgspec.convert({"statblock": k, **plain(s)}, StatblockView)
            for k, s in state.statblocks.items()
        ],
        table=state.table,
        encounters=[
            msgspec.convert({"encounter_id": str(k), **plain(e)}, EncounterOfCampaign)
            for k, e in state.encounters.items()
        ],
    )


class CampaignLogLine(msgspec.Struct, kw_only=True):
    version: int
    text: str


class CampaignLog(msgspec.Struct, kw_only=True):
    entries: list[CampaignLogLine]


class CampaignEvents(msgspec.Struct, kw_only=True):
    events: list[EventOut]


class CampaignVerifyReport(msgspec.Struct, kw_only=True):
    """``GET /campaigns/{id}/verify``: the campaign's chain, its head's signature, a pinned
    head and, for an imported campaign, its provenance, as an encounter's verify reports
    them (a campaign has no dice of its own and no read models to check)."""

    ok: bool
    """False when any check below fails."""
    chain: ChainReport
    head: HeadReport
    pin: PinReport | None = None
    provenance: ProvenanceReport | None = None
    """For an imported campaign: the id and head it had in the archive and who attested
    them; absent for a campaign written here from its first event."""
