"""Players ask, the GM answers: requests for commands off a player's sheet
(service/requests.py)."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, Parameter

from api.http.auth import REVOCATION_CHECKED_ON_WRITE, require_gm
from api.http.representation import Prefer, answer
from api.http.writes import request_limits
from api.routes.base import EncounterRoutes
from api.schemas import AmendRequest, ApproveRequest, ClearRequests, MakeRequest, RefuseRequest
from api.state import Services
from service.commands import CommandEnvelope, CommandResult, Write
from service.tokens import Viewer

RequestId = Annotated[str, Parameter(max_length=20, description="The request's id, e.g. q1.")]


class EncounterRequests(EncounterRoutes):
    """Players' requests and the GM's answers."""

    tags = ("requests",)

    @post(
        "/requests",
        operation_id="makeRequest",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Ask the GM to allow a command",
    )
    async def make_request(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[MakeRequest],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `encounter.request_made`: a command the player could issue but for its
        numbers (off their sheet) waits in the state's `requests` until the GM allows or
        refuses it. 403 for a command not for the player's own combatants, the GM's
        commands and dice of their own where the encounter does not allow them; 422 for a
        request over `AEON_MAX_REQUEST_BYTES`; 409 when the token already has
        `AEON_MAX_PENDING_REQUESTS` waiting."""
        envelope = CommandEnvelope(command=data.command, manual_dice=data.manual_dice)
        player = None if viewer.is_gm else viewer.combatants
        limits = request_limits(services.settings)
        stored = await services.pipeline.request(
            encounter_id, envelope, data.note, player, limits, **write
        )
        return await answer(stored, prefer, services, viewer)

    @post(
        "/requests/{request_id:str}/approve",
        operation_id="approveRequest",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Allow a player's request",
    )
    async def approve_request(
        self,
        encounter_id: FromPath[UUID],
        request_id: FromPath[RequestId],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[ApproveRequest | None] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Decides the requested command as the GM's and appends its events, then
        `encounter.request_answered`. 422 when the rules forbid the command now or no such
        request waits. GM only."""
        require_gm(viewer, "answer requests")
        dice = data.manual_dice if data else None
        stored = await services.pipeline.answer_request(
            encounter_id, request_id, manual_dice=dice, **write
        )
        return await answer(stored, prefer, services, viewer)

    @post(
        "/requests/{request_id:str}/refuse",
        operation_id="refuseRequest",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Refuse a player's request",
    )
    async def refuse_request(
        self,
        encounter_id: FromPath[UUID],
        request_id: FromPath[RequestId],
        data: JSONBody[RefuseRequest],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `encounter.request_answered` with the GM's reason. GM only."""
        require_gm(viewer, "answer requests")
        stored = await services.pipeline.answer_request(
            encounter_id, request_id, refuse_because=data.reason, **write
        )
        return await answer(stored, prefer, services, viewer)

    @post(
        "/requests/{request_id:str}/amend",
        operation_id="amendRequest",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Change a player's request before answering it",
    )
    async def amend_request(
        self,
        encounter_id: FromPath[UUID],
        request_id: FromPath[RequestId],
        data: JSONBody[AmendRequest],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends `encounter.request_amended`: the request now carries this command and
        these dice, and approving it applies them. 422 when no such request waits. GM
        only."""
        require_gm(viewer, "answer requests")
        envelope = CommandEnvelope(command=data.command, manual_dice=data.manual_dice)
        limits = request_limits(services.settings)
        stored = await services.pipeline.amend_request(
            encounter_id, request_id, envelope, limits, **write
        )
        return await answer(stored, prefer, services, viewer)

    @post(
        "/requests/clear",
        operation_id="clearRequests",
        opt={REVOCATION_CHECKED_ON_WRITE: True},
        status_code=200,
        summary="Refuse every waiting request",
    )
    async def clear_requests(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        write: NamedDependency[Write],
        data: JSONBody[ClearRequests | None] = None,
        prefer: Prefer = None,
    ) -> Response[CommandResult]:
        """Appends one `encounter.request_answered` refusal per waiting request (only
        `token_id`'s, if given). 422 when none waits. GM only."""
        require_gm(viewer, "answer requests")
        body = data or ClearRequests()
        stored = await services.pipeline.clear_requests(
            encounter_id, body.reason, body.token_id, **write
        )
        return await answer(stored, prefer, services, viewer)
