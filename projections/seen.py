"""Events as players saw them: the one redaction every path that shows players an event
goes through (``GET /events``, live streams, player-view webhooks), so what a player reads
cannot differ from one path to another.

As of version ``at``: still-secret rolls and GM-only notes are redacted (such an event no
longer matches its hash until the reveal), health numbers players may not see are
removed, and metadata keeps only what players may read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import RecordedEvent
from projections.audience import players_audience
from projections.log_queries import read_marks
from projections.redaction import redact_event, redact_health, redact_metadata
from service.loading import ruleset_of
from service.registry import get_ruleset
from service.ruleset import Ruleset
from service.secrecy import Audience


async def as_players_saw(
    db: Database,
    encounter_id: UUID,
    events: Sequence[RecordedEvent],
    *,
    at: int | None = None,
    ruleset: Ruleset[Any, Any, Any, Any] | None = None,
) -> list[RecordedEvent]:
    """``events`` of one encounter as a player saw them right after version ``at`` (now,
    without it), redacted with what ``db``, where they were read, knows of secret rolls.
    ``ruleset`` spares a lookup to a caller that already knows the encounter's."""
    if not events:
        return []
    marks = await read_marks(db, encounter_id, up_to_version=at, secrets=True)
    secret, sequels = marks.secret_versions(), marks.secret_sequels()
    if ruleset is None:
        ruleset = get_ruleset(await ruleset_of(db, encounter_id))
    audience = await players_audience(db, encounter_id, ruleset)
    return [
        _redacted(
            ruleset,
            event,
            marks.revealed,
            audience,
            secret=event.stream_version in secret,
            sequel=event.stream_version in sequels,
        )
        for event in events
    ]


def _redacted(
    ruleset: Ruleset[Any, Any, Any, Any],
    event: RecordedEvent,
    revealed: frozenset[str],
    audience: Audience,
    *,
    secret: bool,
    sequel: bool,
) -> RecordedEvent:
    kind, data = redact_event(
        ruleset, event.type, event.data, revealed, secret=secret, sequel=sequel
    )
    data = redact_health(ruleset, kind, data, audience)
    metadata = redact_metadata(event.metadata)
    if kind == event.type and data is event.data and metadata is event.metadata:
        return event
    return msgspec.structs.replace(event, type=kind, data=data, metadata=metadata)
