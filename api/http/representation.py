"""``Prefer: return=representation`` (RFC 7240) on a write: the answer also carries the
state after it and its log lines, as the caller may see them.

A UI that shows the table after each command would otherwise send two more requests
(the state and the log) and could read a later version than its own command's if
another write came in between.  Here both are read at the command's own version: the
state as ``GET /encounters/{id}?at=N`` gives it to this caller (a player's through the
player view, without what unrevealed secret rolls decided) and the log lines of the
command's events as ``GET .../log`` gives them (a player's with secret rolls redacted).

The stored answer (what an idempotent replay returns) stays the plain one; the
representation is added on the way out, so a replay with the header gets it too.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Response
from litestar.params import HeaderParameter

from api.http.headers import MAX_FREE_TEXT
from api.http.responses import json_bytes, read_answer_head
from api.http.writes import answer_headers
from api.state import Services
from projections.audience import players_audience
from projections.log_queries import LogEntry, log_entries
from projections.player_view import (
    audience_of,
    encounter_as_seen,
    player_combatants,
    public_encounter,
)
from projections.redaction import redact_health
from service.commands import CommandResult
from service.loading import load_at
from service.registry import RULESETS, codec_for
from service.ruleset import tag_of
from service.tokens import Viewer

Prefer = Annotated[
    str | None,
    HeaderParameter(
        name="Prefer",
        max_length=MAX_FREE_TEXT,
        description="`return=representation` (RFC 7240): the answer also carries `state`, "
        "the encounter after the command, and `log`, its log lines, as the caller may see "
        "them; `Preference-Applied` confirms it.",
    ),
]

APPLIED = "return=representation"


def wants_representation(prefer: str | None) -> bool:
    """Whether the Prefer header asks for ``return=representation`` (RFC 7240 section
    4.2: names are case-insensitive, values may be quoted, parameters follow a ``;``)."""
    if not prefer:
        return False
    for preference in prefer.split(","):
        token = preference.split(";", 1)[0]
        name, _, value = token.partition("=")
        if name.strip().lower() == "return" and value.strip().strip('"').lower() == (
            "representation"
        ):
            return True
    return False


class _Answer(msgspec.Struct):
    """A stored answer's fields, kept as they are; only ``events`` is counted."""

    encounter_id: UUID
    version: int
    events: list[msgspec.Raw]


async def answer(
    stored: bytes, prefer: str | None, services: Services, viewer: Viewer
) -> Response[CommandResult]:
    """The command's answer: as stored, or with ``state`` and ``log`` when preferred."""
    headers = answer_headers(stored)
    if not viewer.is_gm:
        stored = await _health_as_players_read(services, stored)
    if not wants_representation(prefer):
        return json_bytes(stored, headers=headers)
    head = read_answer_head(stored)
    plain = msgspec.json.decode(stored, type=_Answer)
    state = await _state(services, viewer, head.encounter_id, head.version)
    log = await _log(services, viewer, head.encounter_id, head.version, len(plain.events))
    body = msgspec.json.encode(
        {**msgspec.json.decode(stored), "state": msgspec.Raw(state), "log": log}
    )
    headers["Preference-Applied"] = APPLIED
    headers["Vary"] = "Prefer"
    return json_bytes(body, headers=headers)


_RULESET_OF_TAG = {tag_of(t): r for r in RULESETS.values() for t in r.event_types}
"""Which ruleset an event tag is of: an answer without a health field needs no query."""


async def _health_as_players_read(services: Services, stored: bytes) -> bytes:
    """A player's own answer with the health numbers players may not see left out of its
    events (docs/secrecy.md, "NPC health"): a player's attack on an NPC must not tell the
    player its hit points after.  Read after the write, only for answers whose events
    carry health."""
    body = msgspec.json.decode(stored)
    events = body.get("events") if isinstance(body, dict) else None
    if not events:
        return stored
    ruleset = next(
        (_RULESET_OF_TAG[e["type"]] for e in events if e["type"] in _RULESET_OF_TAG), None
    )
    if ruleset is None or not any(e["type"] in ruleset.health_fields for e in events):
        return stored
    audience = await players_audience(services.pool, read_answer_head(stored).encounter_id, ruleset)
    changed = False
    for event in events:
        data = redact_health(ruleset, event["type"], event["data"], audience)
        changed |= data is not event["data"]
        event["data"] = data
    return msgspec.json.encode(body) if changed else stored


async def _state(services: Services, viewer: Viewer, encounter_id: UUID, version: int) -> bytes:
    """The encounter right after ``version``, as this caller reads it."""
    db = services.pool
    if viewer.is_gm:
        encounter = await load_at(db, encounter_id, version)
        return codec_for(encounter.ruleset).encode_state(encounter)
    encounter = await public_encounter(db, encounter_id, version, at=version)
    audience = audience_of(encounter, await player_combatants(db, encounter_id))
    return encounter_as_seen(codec_for(encounter.ruleset), encounter, audience)


async def _log(
    services: Services, viewer: Viewer, encounter_id: UUID, version: int, count: int
) -> list[LogEntry]:
    if count == 0:
        return []
    return await log_entries(
        services.pool,
        encounter_id,
        after_version=version - count,
        limit=count,
        up_to_version=version,
        gm=viewer.is_gm,
    )
