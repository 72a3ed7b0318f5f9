"""Reads of one encounter: its events, replay log and roll ledger (its verification is
api/routes/verify.py)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import MediaType, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.headers import chain_head
from api.problems import problem
from api.routes.base import EncounterRoutes
from api.schemas import EventOut, EventPage, LogPage, RollPage
from api.state import Services
from events.db import Database
from events.envelope import RecordedEvent
from events.errors import StreamNotFound
from events.replicas import ReadFrom
from events.store import SignedHead, read_stream, signed_head
from projections.audience import players_audience
from projections.log_text import log_markdown
from projections.queries import LogEntry, log_entries, read_marks, rolls
from projections.redaction import redact_event, redact_health, redact_metadata
from service.loading import VersionNotReached, ruleset_of
from service.registry import get_ruleset
from service.ruleset import Ruleset
from service.secrecy import Audience
from service.tokens import Viewer

After = Annotated[
    int, QueryParameter(ge=0, description="Return entries after this stream version.")
]
Limit = Annotated[int, QueryParameter(ge=1, le=1000, description="Page size (at most 1000).")]
At = Annotated[
    int | None,
    QueryParameter(
        ge=1,
        description="Time travel: as the table saw it right after this stream version "
        "(undos appended later do not change the past).",
    ),
]


async def ensure_version(
    services: Services, encounter_id: UUID, at: int | None = None, db: Database | None = None
) -> SignedHead:
    """404 for an unknown encounter, and for a version it has not reached yet; else the
    stream's head (for the Aeon-Chain-Head header), read from ``db`` (default: the primary)."""
    try:
        head = await signed_head(services.pool if db is None else db, encounter_id)
    except StreamNotFound:
        raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.") from None
    if at is not None and at > head.version:
        raise VersionNotReached(encounter_id, at, head.version)
    return head


def head_headers(head: SignedHead) -> dict[str, str]:
    return chain_head(head.version, head.last_hash, head.signature)


def _next(versions: list[int], limit: int) -> int | None:
    return versions[-1] if len(versions) == limit else None


async def _log(
    services: Services,
    db: Database,
    viewer: Viewer,
    encounter_id: UUID,
    after_version: int,
    limit: int,
    at: int | None,
) -> tuple[SignedHead, list[LogEntry]]:
    head = await ensure_version(services, encounter_id, at, db)
    return head, await log_entries(
        db,
        encounter_id,
        after_version=after_version,
        limit=limit,
        up_to_version=at,
        gm=viewer.is_gm,
    )


async def events_as_seen(
    services: Services,
    encounter_id: UUID,
    viewer: Viewer,
    events: list[RecordedEvent],
    at: int | None = None,
    db: Database | None = None,
) -> list[EventOut]:
    """Events as ``viewer`` may see them, as of version ``at``: for players, still-secret
    rolls and GM-only notes redacted (such an event no longer matches its hash), and
    health numbers they may not see removed.  ``db``
    is where ``events`` were read (default: the primary), so the marks match them."""
    db = services.pool if db is None else db
    out = [EventOut(**{f: getattr(e, f) for f in EventOut.__struct_fields__}) for e in events]
    if viewer.is_gm or not out:
        return out
    marks = await read_marks(db, encounter_id, up_to_version=at, secrets=True)
    secret, sequels = marks.secret_versions(), marks.secret_sequels()
    ruleset = get_ruleset(await ruleset_of(db, encounter_id))
    audience = await players_audience(db, encounter_id, ruleset)
    return [
        _redacted(
            ruleset,
            e,
            marks.revealed,
            audience,
            e.stream_version in secret,
            e.stream_version in sequels,
        )
        for e in out
    ]


def _redacted(
    ruleset: Ruleset[Any, Any, Any, Any],
    event: EventOut,
    revealed: frozenset[str],
    audience: Audience,
    secret: bool,
    sequel: bool,
) -> EventOut:
    kind, data = redact_event(
        ruleset, event.type, event.data, revealed, secret=secret, sequel=sequel
    )
    data = redact_health(ruleset, kind, data, audience)
    metadata = redact_metadata(event.metadata)
    if data is event.data and metadata is event.metadata:
        return event
    return msgspec.structs.replace(event, type=kind, data=data, metadata=metadata)


class EncounterReads(EncounterRoutes):
    """Reads of one encounter: its events, replay log and roll ledger."""

    tags = ("reads",)

    @get("/events", operation_id="listEvents", summary="Raw events")
    async def get_events(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        after_version: After = 0,
        limit: Limit = 500,
        at: At = None,
    ) -> Response[EventPage]:
        """The stored events in stream order, with their hash chain links. For players,
        secret GM rolls not yet revealed are redacted (such an event no longer matches its
        hash until the reveal)."""
        head = await ensure_version(services, encounter_id, at, read_from.db)
        events = await read_stream(
            read_from.db, encounter_id, after_version=after_version, up_to_version=at, limit=limit
        )
        out = await events_as_seen(services, encounter_id, viewer, events, at, read_from.db)
        page = EventPage(
            events=out, next_after_version=_next([e.stream_version for e in events], limit)
        )
        return Response(page, headers=head_headers(head))

    @get("/log", operation_id="getLog", summary="Replay log")
    async def get_log(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        after_version: After = 0,
        limit: Limit = 500,
        at: At = None,
    ) -> Response[LogPage]:
        """One line per event, as a GM would announce it, with its rolls (`/log.txt` gives the
        lines as plain text). Entries an undo took back stay, with `undone` saying when and by
        whom."""
        head, entries = await _log(
            services, read_from.db, viewer, encounter_id, after_version, limit, at
        )
        page = LogPage(
            entries=entries, next_after_version=_next([e.version for e in entries], limit)
        )
        return Response(page, headers=head_headers(head))

    @get(
        "/log.txt",
        operation_id="getLogText",
        summary="Replay log as plain text",
        media_type=MediaType.TEXT,
    )
    async def get_log_text(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        after_version: After = 0,
        limit: Limit = 500,
        at: At = None,
    ) -> Response[str]:
        """`#12   [round 2] Aria rolls 1d20+5 ...`, one line per event; an entry an undo took
        back is marked `[undone at #N]`."""
        lines = []
        head, entries = await _log(
            services, read_from.db, viewer, encounter_id, after_version, limit, at
        )
        for e in entries:
            where = f"round {e.round}" if e.round is not None else "setup"
            undone = f"[undone at #{e.undone.undo_version}] " if e.undone else ""
            lines.append(f"#{e.version:<4} [{where}] {undone}{e.text}\n")
        return Response("".join(lines), media_type=MediaType.TEXT, headers=head_headers(head))

    @get(
        "/log.md",
        operation_id="getLogMarkdown",
        summary="Replay log as Markdown",
        media_type="text/markdown",
    )
    async def get_log_markdown(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        after_version: After = 0,
        limit: Limit = 1000,
        at: At = None,
    ) -> Response[str]:
        """The log for a campaign wiki: a heading per round, one item per entry, entries an
        undo took back struck through with the version of the undo. Redacted for players
        as the other log views are."""
        head, entries = await _log(
            services, read_from.db, viewer, encounter_id, after_version, limit, at
        )
        return Response(
            log_markdown(entries), media_type="text/markdown", headers=head_headers(head)
        )

    @get("/rolls", operation_id="listRolls", summary="Roll ledger")
    async def get_rolls(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        after_version: After = 0,
        limit: Limit = 500,
        at: At = None,
    ) -> Response[RollPage]:
        """Every roll with its raw faces, modifiers, total, target, outcome, source and index;
        rolls an undo took back stay, with `undone` saying when and by whom."""
        head = await ensure_version(services, encounter_id, at, read_from.db)
        found = await rolls(
            read_from.db,
            encounter_id,
            after_version=after_version,
            limit=limit,
            up_to_version=at,
            gm=viewer.is_gm,
        )
        page = RollPage(
            rolls=found, next_after_version=_next([int(r["version"]) for r in found], limit)
        )
        return Response(page, headers=head_headers(head))
