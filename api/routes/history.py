"""The GM's safety net (design section 4): undo, redo, fork and round replay.

Undo and redo are commands like any other: they honour If-Match and Idempotency-Key and
append one event; nothing is deleted.  Round replay and fork only read the origin.
"""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, Parameter

from api.http.auth import REVOCATION_CHECKED_ON_WRITE, require_gm
from api.http.problems import problem
from api.http.representation import Prefer, answer
from api.routes.base import EncounterRoutes
from api.routes.encounters import created_response
from api.schemas import ForkRequest, RedoRequest, UndoRequest
from api.state import Services
from events.replicas import ReadFrom
from events.store import stream_head
from projections.log_queries import read_marks
from projections.round_replay import RoundReplay
from projections.round_replay import replay_round as replay_round_of
from service.commands import CommandResult, CreatedEncounter, Write
from service.loading import load_public
from service.tokens import Viewer


class EncounterHistory(EncounterRoutes):
    """Undo, redo, fork and round replay of one encounter."""

    tags = ("history",)

    @post(
        "/undo",
        operation_id="undo",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Undo the last command, the last n, or everything after a version",
    )
    async def undo(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[UndoRequest | None] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `history.undone`: the commands stay in the stream and in the log and roll
        ledger, marked undone; the state no longer includes them. Undoing an undo redoes it.
        422 when there is nothing to undo or the request reaches past the start."""
        require_gm(viewer, "undo")
        body = data or UndoRequest()
        response = await services.pipeline.undo(
            encounter_id, steps=body.steps, to_version=body.to_version, reason=body.reason, **write
        )
        return await answer(response, prefer, services, viewer)

    @post(
        "/redo",
        operation_id="redo",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Redo what the last undo took back",
    )
    async def redo(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[RedoRequest | None] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `history.redone`: the same events, with the same dice, are in effect again.
        409 when a command came in after the undo, or nothing was undone."""
        require_gm(viewer, "redo")
        reason = data.reason if data else None
        response = await services.pipeline.redo(encounter_id, reason=reason, **write)
        return await answer(response, prefer, services, viewer)

    @post(
        "/fork",
        operation_id="fork",
        status_code=201,
        summary="Start a what-if branch from a version",
    )
    async def fork(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[ForkRequest | None] = None,
    ) -> Response[CreatedEncounter]:
        """A new encounter whose state starts as this one's at `at_version`, linked back to it
        (`forked_from`), with its own dice commitment and GM token (`gm_token`, shown once).
        The origin is not changed, so If-Match does not apply."""
        require_gm(viewer, "fork the encounter")
        body = data or ForkRequest()
        db = services.pool
        version = body.at_version or (await stream_head(db, encounter_id)).version
        secret = (
            await read_marks(db, encounter_id, up_to_version=version, secrets=True)
        ).secret_versions()
        public_game = None
        if secret:
            public_game = msgspec.to_builtins(
                (await load_public(db, encounter_id, version, secret)).game
            )
        opened = await services.pipeline.fork(
            encounter_id,
            at_version=version,
            public_game=public_game,
            name=body.name,
            client_seed=body.client_seed,
            actor=write["actor"],
            idempotency_key=write.get("idempotency_key"),
            request_hash=write.get("request_hash", ""),
        )
        return created_response(opened, services)

    @get(
        "/rounds/{number:int}",
        operation_id="replayRound",
        summary="Step through one round",
    )
    async def replay_round(
        self,
        encounter_id: FromPath[UUID],
        number: Annotated[int, Parameter(ge=1, le=1_000_000, description="Round number.")],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
    ) -> RoundReplay:
        """The events of round `number` in order, each with its log line, rolls and the state
        right after it, as the encounter stands now: an event taken back by an undo is listed,
        marked undone, and leaves the state unchanged. Players step through the public fold."""
        replay = await replay_round_of(read_from.db, encounter_id, number, gm=viewer.is_gm)
        if replay is None:
            raise problem(404, "round-not-found", f"Round {number} has not been played.")
        return replay
