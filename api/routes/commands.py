"""Writes to an encounter: ruleset commands, dice reveals and GM notes.

All honour If-Match (the stream version the client read) and Idempotency-Key (the same
key appends once and replays the first response): see ``api.http.writes``.
"""

from __future__ import annotations

from uuid import UUID

from litestar import Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.http.auth import PLAYERS_WRITE, REVOCATION_CHECKED_ON_WRITE, require_gm
from api.http.representation import Prefer, answer
from api.http.writes import request_limits
from api.routes.base import EncounterRoutes
from api.schemas import AddNote, CommandBody, RevealRolls, RevealSeed
from api.state import Services
from service.commands import CommandEnvelope, CommandResult, Write
from service.core_events import NoteAdded
from service.tokens import Viewer


class EncounterWrites(EncounterRoutes):
    """Writes to one encounter: ruleset commands, dice reveals and notes."""

    tags = ("commands",)

    @post(
        "/commands",
        operation_id="postCommand",
        opt={REVOCATION_CHECKED_ON_WRITE: True, PLAYERS_WRITE: True},
        status_code=200,
        summary="Issue a ruleset command",
    )
    async def post_command(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[CommandBody],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Decides the command under the encounter's rules and appends the resulting events.

        422 with the rule's reason when the rules forbid it (nothing is appended), 409 when
        If-Match is stale, 403 when a player's token is not bound to whom the command acts
        for, 200 with the appended events otherwise.
        """
        envelope = CommandEnvelope(
            command=data.command, manual_dice=data.manual_dice, hidden=data.hidden
        )
        player = None if viewer.is_gm else viewer.combatants
        limits = request_limits(services.settings)
        stored = await services.pipeline.execute(encounter_id, envelope, player, limits, **write)
        return await answer(stored, prefer, services, viewer)

    @post(
        "/dice/reveal",
        operation_id="revealSeed",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Reveal the dice seed and open a new epoch",
    )
    async def reveal_seed(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[RevealSeed | None] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Publishes the current epoch's secret seed, so every server roll of that epoch can be
        recomputed, and commits to a fresh seed for the rolls that follow. GM only."""
        require_gm(viewer, "reveal the dice seed")
        next_seed = data.next_client_seed if data else None
        stored = await services.pipeline.reveal_seed(encounter_id, next_seed, **write)
        return await answer(stored, prefer, services, viewer)

    @post(
        "/rolls/reveal",
        operation_id="revealRolls",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Show the table secret GM rolls",
    )
    async def reveal_rolls(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[RevealRolls],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `dice.rolls_revealed`: players see these rolls' results from now on, in the
        log, the roll ledger, the events and live updates. GM only."""
        require_gm(viewer, "reveal secret rolls")
        stored = await services.pipeline.reveal_rolls(encounter_id, data.roll_ids, **write)
        return await answer(stored, prefer, services, viewer)

    @post(
        "/notes",
        operation_id="addNote",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Add a GM note to the record",
    )
    async def add_note(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[AddNote],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `encounter.note_added`. A `gm_only` note is redacted for players in the log,
        the events and live updates. GM only."""
        require_gm(viewer, "add notes")
        note = NoteAdded(text=data.text, gm_only=data.gm_only)
        return await answer(
            await services.pipeline.add_note(encounter_id, note, **write), prefer, services, viewer
        )
