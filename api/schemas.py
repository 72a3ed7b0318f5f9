"""HTTP request and response bodies: msgspec Structs, separate from events on purpose.

The command body's ``command`` field is the union of every ruleset's command Structs
(their tags are prefixed with the ruleset name, so the union is unambiguous); that is
what makes each command appear, with its fields and docs, in the OpenAPI document.
"""

from __future__ import annotations

import functools
import operator
from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec

from api.http.headers import MAX_VERSION
from events.envelope import RecordedEvent
from events.provenance import ProvenanceReport
from events.verify import ChainReport, HeadReport, PinReport
from projections.log_queries import LogEntry
from projections.queries import EncounterSummary
from projections.verify import ReadModelReport
from service.core_events import CORE_EVENT_TYPES
from service.fairness import DiceReport
from service.registry import all_command_types, all_event_types
from service.secrecy import NpcHealth
from service.tokens import TokenInfo

AnyCommand = functools.reduce(operator.or_, all_command_types())
AnyEvent = functools.reduce(operator.or_, (*CORE_EVENT_TYPES, *all_event_types()))

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
ClientSeed = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Faces = Annotated[
    list[Annotated[int, msgspec.Meta(ge=1, le=10_000)]], msgspec.Meta(max_length=1000)
]


class CreateEncounter(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    ruleset: Annotated[str, msgspec.Meta(examples=["generic"])]
    name: Name
    options: dict[str, Any] = {}
    """Ruleset options (see GET /rulesets/{name}); omitted keys take their defaults."""
    client_seed: ClientSeed | None = None
    """Mixed into every server roll; defaults to the encounter id. Players who want to
    be sure the server could not pick a favourable seed choose it themselves."""
    allow_player_dice: bool = False
    """Let players enter physical dice for their own commands (the GM always may)."""
    npc_health: NpcHealth = "descriptor"
    """What players and spectators see of the health of combatants no player token is
    bound to: `exact` numbers, a `descriptor` (unhurt, wounded, bloodied, down) or
    `hidden` (nothing). Player characters' numbers are always shown."""


class CommandBody(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: AnyCommand  # type: ignore[valid-type]
    manual_dice: Annotated[list[Faces], msgspec.Meta(max_length=100)] | None = None
    """Physical dice entered by the GM: one list of faces per roll the command makes,
    in order (explosion dice included). Recorded as manual, never as server rolls. Dice
    still missing are a 422 whose `dice_needed` names the next ones to roll; lists the
    command did not need are recorded as unused (`dice.unused`)."""
    hidden: bool = False
    """A secret GM roll: recorded with its result, shown to players as 'GM rolls secretly'."""


class MakeRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: AnyCommand  # type: ignore[valid-type]
    manual_dice: Annotated[list[Faces], msgspec.Meta(max_length=100)] | None = None
    """Physical dice the player asks to use: the GM's approval decides with them (or with
    dice of the GM's own)."""
    note: Annotated[str, msgspec.Meta(min_length=1, max_length=500)] | None = None
    """Why, for the GM and the log."""


class ApproveRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    manual_dice: Annotated[list[Faces], msgspec.Meta(max_length=100)] | None = None
    """Dice the GM enters instead of the request's (none: the request's, else server)."""


class RefuseRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class AmendRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    command: AnyCommand  # type: ignore[valid-type]
    """The command approving will decide, replacing the one asked for (the GM's numbers)."""
    manual_dice: Annotated[list[Faces], msgspec.Meta(max_length=100)] | None = None
    """The dice it will use; none: the encounter's dice (or the GM's at approval)."""


class ClearRequests(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=500)] = "cleared by the GM"
    """The refusal every cleared request gets in the log."""
    token_id: Annotated[str, msgspec.Meta(min_length=1, max_length=100)] | None = None
    """Only this token's requests; none: every waiting request."""


class RevealRolls(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    roll_ids: Annotated[
        list[Annotated[str, msgspec.Meta(min_length=1, max_length=50)]],
        msgspec.Meta(min_length=1, max_length=100, examples=[["r12"]]),
    ]


class MintToken(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    role: Literal["player", "gm", "spectator"] = "player"
    """`player` acts for its combatants; `gm` is a co-GM; `spectator` only reads what players
    read and follows the live stream (a table screen, a stream overlay): 403 on every write."""
    combatants: Annotated[
        list[Annotated[str, msgspec.Meta(min_length=1, max_length=100)]],
        msgspec.Meta(max_length=200, examples=[["aria"]]),
    ] = []
    """What a player may act for: combatant ids (unit or side ids in Aeonis). Only a
    player token is bound; a GM or spectator token with combatants is a 422."""
    label: Annotated[str, msgspec.Meta(max_length=200, examples=["Sam's phone"])] | None = None


class TokenList(msgspec.Struct, kw_only=True):
    tokens: list[TokenInfo]


class Bearer(msgspec.Struct, kw_only=True):
    """Who the presented token is on this encounter, so a client can offer its holder only
    what the role may do."""

    role: Literal["gm", "player", "spectator", "service"]
    token_id: str | None
    """None for the service key."""
    combatants: list[str]
    """What a player token acts for; empty for other roles."""


class AddNote(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    text: Annotated[
        str, msgspec.Meta(min_length=1, max_length=2000, examples=["The bridge is rigged."])
    ]
    gm_only: bool = False
    """Shown to players as "The GM makes a private note." and never with its text."""


class RevealSeed(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    next_client_seed: ClientSeed | None = None
    """Client seed of the new epoch; defaults to the current one."""


Reason = Annotated[str, msgspec.Meta(min_length=1, max_length=500, examples=["wrong target"])]


class UndoRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Empty: take back the last command (an undo's undo is a redo). ``steps``: the last
    n ruleset commands in effect. ``to_version``: every ruleset command after it."""

    steps: Annotated[int, msgspec.Meta(ge=1, le=1000)] | None = None
    to_version: Annotated[int, msgspec.Meta(ge=0, le=MAX_VERSION)] | None = None
    reason: Reason | None = None


class RedoRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    reason: Reason | None = None


class ForkRequest(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    at_version: Annotated[int, msgspec.Meta(ge=1, le=MAX_VERSION)] | None = None
    """The origin's version the fork starts from; defaults to its latest."""
    name: Name | None = None
    """Defaults to the origin's name with "(fork at version N)"."""
    client_seed: ClientSeed | None = None


class EncounterView(msgspec.Struct, kw_only=True):
    encounter_id: UUID
    ruleset: str
    version: int
    state: Any
    """The folded encounter: name, options, dice counters and the ruleset's state."""


class EncounterPage(msgspec.Struct, kw_only=True):
    items: list[EncounterSummary]
    next_cursor: str | None


class EventOut(msgspec.Struct, kw_only=True):
    global_position: int
    stream_version: int
    type: str
    type_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str


def event_out(event: RecordedEvent) -> EventOut:
    """The stored event as the API shows it (its stream id is in the path)."""
    return EventOut(**{f: getattr(event, f) for f in EventOut.__struct_fields__})


class EventPage(msgspec.Struct, kw_only=True):
    events: list[EventOut]
    next_after_version: int | None


class LogPage(msgspec.Struct, kw_only=True):
    entries: list[LogEntry]
    next_after_version: int | None


class RollPage(msgspec.Struct, kw_only=True):
    rolls: list[dict[str, Any]]
    next_after_version: int | None


class VerifyReport(msgspec.Struct, kw_only=True):
    ok: bool
    """False when any check below fails."""
    chain: ChainReport
    dice: DiceReport
    head: HeadReport
    """The stream head and its signature under the service's key (``signed: false``
    when the service runs without AEON_CHAIN_KEY)."""
    pin: PinReport | None = None
    """With ``?version=N&hash=H``: whether the chain still extends that head."""
    read_models: ReadModelReport | None = None
    """With ``?deep=true``: the stored state, log and roll ledger against the events."""
    provenance: ProvenanceReport | None = None
    """For an imported encounter: the archive head it arrived with and who attested it
    ("imported, attested up to version N" or "imported, unattested"); absent for an
    encounter written here from its first event."""


class OptionInfo(msgspec.Struct, kw_only=True):
    key: str
    default: Any
    description: str


class CommandExample(msgspec.Struct, kw_only=True):
    type: str
    example: AnyCommand  # type: ignore[valid-type]


class EventExample(msgspec.Struct, kw_only=True):
    type: str
    version: int
    example: AnyEvent  # type: ignore[valid-type]


class CampaignTerms(msgspec.Struct, kw_only=True):
    """A ruleset's terms for campaigns, so a front end builds the sheet form and the
    carry-over options without knowing the ruleset."""

    sheet_command: str
    """The add-a-character command: a member's or a statblock's sheet is one, as an
    encounter's GM would send it."""
    options: list[OptionInfo]
    """The carry-over options (``POST /campaigns`` ``options``), each with its default
    and the reason for it."""
    condition_schema: dict[str, Any]
    """JSON Schema of a member's condition: what of a character carries to the next
    fight (``campaign.adjust`` ``condition`` takes one)."""
    table_schema: dict[str, Any]
    """JSON Schema of the table: what belongs to no character but carries (karma pools,
    the map); a Struct without fields for a ruleset whose table carries nothing."""
    statblock_hit_points: str | None
    """Null when a statblock may give its copies' hit points a notation; else why not,
    in the rules' words."""


class RulesetInfo(msgspec.Struct, kw_only=True):
    name: str
    title: str
    summary: str
    options: list[OptionInfo]
    commands: list[CommandExample]
    events: list[EventExample]
    command_schema: dict[str, Any]
    """JSON Schema of this ruleset's command union, for clients that generate forms."""
    player_commands: list[str]
    """The command types a player token may send (each still only for its own combatants
    or side); every other command is the GM's."""
    campaign: CampaignTerms | None = None
    """What a campaign of this ruleset keeps between fights (docs/campaigns.md); null for
    a ruleset that states nothing carrying over."""


class Health(msgspec.Struct, kw_only=True):
    status: str
    checks: dict[str, str] = {}
