"""Writes: ruleset commands and the dice seed reveal.

Both honour If-Match (the stream version the client read) and Idempotency-Key (the same
key appends once and replays the first response).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.auth import actor_of, require_gm
from api.headers import etag, expected_version, idempotency_key
from api.responses import json_bytes, read_head
from api.schemas import AddNote, CommandBody, RevealRolls, RevealSeed
from api.state import Services
from events.idempotency import request_fingerprint
from service.commands import CommandEnvelope, CommandResult
from service.core_events import NoteAdded
from service.tokens import Viewer

IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match", description='Expected stream version, e.g. "7"; 409 if it moved.'
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(name="Idempotency-Key", description="Same key, same body: appended once."),
]
CorrelationId = Annotated[str | None, HeaderParameter(name="X-Correlation-ID", max_length=200)]


def respond(response: bytes) -> Response[CommandResult]:
    return json_bytes(response, headers={"ETag": etag(read_head(response).version)})


@post(
    "/encounters/{encounter_id:uuid}/commands",
    operation_id="postCommand",
    status_code=200,
    summary="Issue a ruleset command",
)
async def post_command(
    encounter_id: FromPath[UUID],
    request: Request[Any, Any, Any],
    data: JSONBody[CommandBody],
    services: NamedDependency[Services],
    viewer: NamedDependency[Viewer],
    if_match: IfMatch = None,
    idempotency: IdempotencyKey = None,
    correlation: CorrelationId = None,
) -> Response[CommandResult]:
    """Decides the command under the encounter's rules and appends the resulting events.

    422 with the rule's reason when the rules forbid it (nothing is appended), 409 when
    If-Match is stale, 403 when a player's token is not bound to whom the command acts
    for, 200 with the appended events otherwise.
    """
    response = await services.pipeline.execute(
        encounter_id,
        CommandEnvelope(command=data.command, manual_dice=data.manual_dice, hidden=data.hidden),
        actor=actor_of(viewer, correlation),
        expected_version=expected_version(if_match),
        idempotency_key=idempotency_key(idempotency),
        request_hash=request_fingerprint(await request.body()),
        player=None if viewer.is_gm else viewer.combatants,
    )
    return respond(response)


@post(
    "/encounters/{encounter_id:uuid}/dice/reveal",
    operation_id="revealSeed",
    status_code=200,
    summary="Reveal the dice seed and open a new epoch",
)
async def reveal_seed(
    encounter_id: FromPath[UUID],
    request: Request[Any, Any, Any],
    services: NamedDependency[Services],
    viewer: NamedDependency[Viewer],
    data: JSONBody[RevealSeed | None] = None,
    if_match: IfMatch = None,
    idempotency: IdempotencyKey = None,
    correlation: CorrelationId = None,
) -> Response[CommandResult]:
    """Publishes the current epoch's secret seed, so every server roll of that epoch can be
    recomputed, and commits to a fresh seed for the rolls that follow. GM only."""
    require_gm(viewer, "reveal the dice seed")
    response = await services.pipeline.reveal_seed(
        encounter_id,
        actor=actor_of(viewer, correlation),
        next_client_seed=data.next_client_seed if data else None,
        expected_version=expected_version(if_match),
        idempotency_key=idempotency_key(idempotency),
        request_hash=request_fingerprint(await request.body()),
    )
    return respond(response)


@post(
    "/encounters/{encounter_id:uuid}/rolls/reveal",
    operation_id="revealRolls",
    status_code=200,
    summary="Show the table secret GM rolls",
)
async def reveal_rolls(
    encounter_id: FromPath[UUID],
    request: Request[Any, Any, Any],
    data: JSONBody[RevealRolls],
    services: NamedDependency[Services],
    viewer: NamedDependency[Viewer],
    if_match: IfMatch = None,
    idempotency: IdempotencyKey = None,
    correlation: CorrelationId = None,
) -> Response[CommandResult]:
    """Appends `dice.rolls_revealed`: players see these rolls' results from now on, in the
    log, the roll ledger, the events and live updates. GM only."""
    require_gm(viewer, "reveal secret rolls")
    response = await services.pipeline.reveal_rolls(
        encounter_id,
        data.roll_ids,
        actor=actor_of(viewer, correlation),
        expected_version=expected_version(if_match),
        idempotency_key=idempotency_key(idempotency),
        request_hash=request_fingerprint(await request.body()),
    )
    return respond(response)


@post(
    "/encounters/{encounter_id:uuid}/notes",
    operation_id="addNote",
    status_code=200,
    summary="Add a GM note to the record",
)
async def add_note(
    encounter_id: FromPath[UUID],
    request: Request[Any, Any, Any],
    data: JSONBody[AddNote],
    services: NamedDependency[Services],
    viewer: NamedDependency[Viewer],
    if_match: IfMatch = None,
    idempotency: IdempotencyKey = None,
    correlation: CorrelationId = None,
) -> Response[CommandResult]:
    """Appends `encounter.note_added`. A `gm_only` note is redacted for players in the log,
    the events and live updates. GM only."""
    require_gm(viewer, "add notes")
    response = await services.pipeline.add_note(
        encounter_id,
        NoteAdded(text=data.text, gm_only=data.gm_only),
        actor=actor_of(viewer, correlation),
        expected_version=expected_version(if_match),
        idempotency_key=idempotency_key(idempotency),
        request_hash=request_fingerprint(await request.body()),
    )
    return respond(response)
