"""Reads of one encounter: its events, replay log and roll ledger (its verification is
api/routes/verify.py)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import MediaType, Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.http.headers import chain_head
from api.http.problems import problem
from api.routes.base import EncounterRoutes
from api.schemas import EventPage, LogPage, RollPage, event_out
from api.state import Services
from events.db import Database
from events.errors import StreamNotFound
from events.replicas import ReadFrom
from events.store import SignedHead, read_stream, signed_head
from projections.log_queries import LogEntry, log_entries, rolls
from projections.log_text import log_markdown
from projections.seen import as_players_saw
from service.loading import VersionNotReached
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
        if not viewer.is_gm:
            events = await as_players_saw(read_from.db, encounter_id, events, at=at)
        page = EventPage(
            events=[event_out(e) for e in events],
            next_after_version=_next([e.stream_version for e in events], limit),
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
