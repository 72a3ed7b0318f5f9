"""What a webhook sends for one event: the event as the API shows it (``json``) or its log
line as a Discord message (``discord``).

Unless the webhook is GM-only, the event and its line are what a player read right after
that event was appended (redacted as of its own version, through the same functions as
every read path): a secret roll stays secret, a later reveal arrives as its own event,
and a retry sends the very same body.  Health numbers follow ``npc_health`` as on every
read path, for the player characters of the moment the body is made.
"""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

import msgspec

from api.schemas import EventOut, event_out
from events.db import Database
from events.envelope import RecordedEvent
from projections.log_queries import log_entries
from projections.queries import list_encounters
from projections.seen import as_players_saw
from service.loading import ruleset_of
from service.registry import get_ruleset
from service.ruleset import Ruleset

DISCORD_LIMIT = 2000
"""Characters Discord accepts in a message's content."""


class WebhookMessage(msgspec.Struct, kw_only=True):
    """The body of a ``json`` webhook request."""

    type: Literal["aeon.event"] = "aeon.event"
    webhook_id: UUID
    delivery_id: str
    encounter_id: UUID
    encounter_name: str
    version: int
    round: int | None
    text: str | None
    """The event's line of the replay log, as the webhook's audience reads it."""
    audience: Literal["gm", "players"]
    event: EventOut


class AllowedMentions(msgspec.Struct):
    parse: list[str] = []


class DiscordMessage(msgspec.Struct, kw_only=True):
    """The body of a ``discord`` webhook request (Discord's "execute webhook")."""

    content: str
    username: str = "Aeon Ledger"
    allowed_mentions: AllowedMentions = msgspec.field(default_factory=AllowedMentions)
    """No mentions: a name typed at the table never pings @everyone."""


class Shown(msgspec.Struct, frozen=True):
    """An event as the webhook's audience sees it, ready to send."""

    stream_id: UUID
    version: int
    type: str
    """Its type as the audience sees it: what the webhook's type filter matches."""
    body: bytes


class Composer:
    """Builds bodies for one webhook; remembers each encounter's name and ruleset."""

    def __init__(self, db: Database, webhook_id: UUID, fmt: str, gm: bool) -> None:
        self.db, self.webhook_id, self.format, self.gm = db, webhook_id, fmt, gm
        self._names: dict[UUID, str] = {}
        self._rulesets: dict[UUID, Ruleset[Any, Any, Any, Any]] = {}

    async def compose(self, event: RecordedEvent, delivery_id: str) -> Shown:
        stream, version = event.stream_id, event.stream_version
        if not self.gm:
            (event,) = await as_players_saw(
                self.db, stream, [event], at=version, ruleset=await self._ruleset(stream)
            )
        out = event_out(event)
        entries = await log_entries(
            self.db, stream, after_version=version - 1, limit=1, up_to_version=version, gm=self.gm
        )
        entry = entries[0] if entries and entries[0].version == version else None
        name = await self._name(stream)
        body: Any
        if self.format == "discord":
            where = f"round {entry.round}" if entry and entry.round is not None else "setup"
            line = entry.text if entry else out.type
            body = DiscordMessage(content=_clip(f"**{name}** #{version} [{where}] {line}"))
        else:
            body = WebhookMessage(
                webhook_id=self.webhook_id,
                delivery_id=delivery_id,
                encounter_id=stream,
                encounter_name=name,
                version=version,
                round=entry.round if entry else None,
                text=entry.text if entry else None,
                audience="gm" if self.gm else "players",
                event=out,
            )
        return Shown(stream, version, out.type, msgspec.json.encode(body))

    async def _ruleset(self, stream: UUID) -> Ruleset[Any, Any, Any, Any]:
        if stream not in self._rulesets:
            self._rulesets[stream] = get_ruleset(await ruleset_of(self.db, stream))
        return self._rulesets[stream]

    async def _name(self, stream: UUID) -> str:
        if stream not in self._names:
            found = await list_encounters(self.db, limit=1, only=[stream])
            self._names[stream] = found[0].name if found else str(stream)
        return self._names[stream]


def _clip(text: str) -> str:
    return text if len(text) <= DISCORD_LIMIT else text[: DISCORD_LIMIT - 1] + "…"
