"""Webhooks: an encounter's (its GM registers them) and the service's own (the service
key registers them, for every encounter).  Delivery is api/webhooks/worker.py's."""

from __future__ import annotations

import uuid
from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, Request, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from api.auth import bearer_token, is_service_key, require_gm
from api.problems import problem
from api.routes.base import EncounterRoutes
from api.state import Services
from api.webhooks.schemas import (
    CreatedWebhook,
    CreateWebhook,
    DeliveryList,
    DeliveryOut,
    WebhookList,
    WebhookOut,
)
from api.webhooks.signing import new_secret, signing_key
from api.webhooks.targets import AllowList, TargetRefused, check_target
from events import webhooks as store
from events.errors import StreamNotFound
from events.store import stream_head
from events.webhooks import Position, WebhookRow
from projections.redaction import HIDDEN_TYPE
from service.core_events import CORE_EVENT_TYPES
from service.registry import all_event_types
from service.tokens import Viewer

MAX_PER_OWNER = 10
"""Webhooks one encounter (or the service) may have: each costs a delivery per event."""


def _known_types() -> frozenset[str]:
    return frozenset(
        {t.__struct_config__.tag for t in (*CORE_EVENT_TYPES, *all_event_types())} | {HIDDEN_TYPE}
    )


_KNOWN_TYPES = _known_types()


async def _register(
    services: Services, encounter_id: UUID | None, data: CreateWebhook
) -> CreatedWebhook:
    unknown = sorted(set(data.event_types) - _KNOWN_TYPES)
    if unknown:
        raise problem(
            422,
            "unknown-event-type",
            f"No ruleset records events of type {', '.join(map(repr, unknown))}:"
            " see GET /rulesets/{name} for each ruleset's event types.",
        )
    secret, generated = (data.secret, False) if data.secret else (new_secret(), True)
    try:
        signing_key(secret)
    except ValueError as exc:
        raise problem(422, "invalid-webhook-secret", str(exc)) from None
    try:
        await check_target(data.url, AllowList.parse(services.settings.webhook_allow))
    except TargetRefused as exc:
        raise problem(422, "webhook-target-refused", str(exc)) from None
    if len(await store.list_webhooks(services.pool, encounter_id)) >= MAX_PER_OWNER:
        raise problem(
            409,
            "too-many-webhooks",
            f"{'This encounter' if encounter_id else 'The service'} already has"
            f" {MAX_PER_OWNER} webhooks, the most it may have: delete one first.",
        )
    start = data.start or ("beginning" if encounter_id else "now")
    position = Position()
    if start == "now":
        if encounter_id is not None:
            position = Position((await stream_head(services.pool, encounter_id)).version)
        else:
            position = Position(0, await store.global_now(services.pool))
    row = await store.insert_webhook(
        services.pool,
        webhook_id=uuid.uuid4(),
        encounter_id=encounter_id,
        url=data.url,
        event_types=sorted(set(data.event_types)),
        format=data.format,
        secret=secret,
        gm_only=data.gm_only,
        start=position,
    )
    return CreatedWebhook(webhook=WebhookOut.of(row), secret=secret if generated else None)


async def _one(services: Services, encounter_id: UUID | None, webhook_id: UUID) -> WebhookRow:
    row = await store.get_webhook(services.pool, webhook_id)
    if row is None or row.encounter_id != encounter_id:
        raise _not_found(webhook_id)
    return row


Limit = Annotated[int, QueryParameter(ge=1, le=500, description="How many (at most 500).")]


async def _deliveries(
    services: Services, encounter_id: UUID | None, webhook_id: UUID, limit: int
) -> DeliveryList:
    await _one(services, encounter_id, webhook_id)
    rows = await store.deliveries(services.pool, webhook_id, limit)
    return DeliveryList(
        deliveries=[
            DeliveryOut(
                delivery_id=r["delivery_id"],
                encounter_id=r["stream_id"],
                version=r["stream_version"],
                status=r["status"],
                attempts=r["attempts"],
                delivered_at=r["delivered_at"],
            )
            for r in rows
        ]
    )


def _not_found(webhook_id: UUID) -> Exception:
    return problem(404, "webhook-not-found", f"There is no webhook {webhook_id} here.")


async def _ensure_encounter(services: Services, encounter_id: UUID) -> None:
    try:
        await stream_head(services.pool, encounter_id)
    except StreamNotFound:
        raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.") from None


class EncounterWebhooks(EncounterRoutes):
    """The webhooks of one encounter. GM only."""

    tags = ("webhooks",)

    @post("/webhooks", operation_id="createWebhook", status_code=201, summary="Add a webhook")
    async def create(
        self,
        encounter_id: FromPath[UUID],
        data: JSONBody[CreateWebhook],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> CreatedWebhook:
        """Every event of the encounter (or of the chosen types) is POSTed to the URL, in
        stream order, at least once, signed (docs/webhooks.md). GM only."""
        require_gm(viewer, "manage webhooks")
        await _ensure_encounter(services, encounter_id)
        return await _register(services, encounter_id, data)

    @get("/webhooks", operation_id="listWebhooks", summary="List webhooks and their state")
    async def list_all(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> WebhookList:
        """Each webhook with its checkpoint, deliveries, failures, pause and last error;
        never its secret. GM only."""
        require_gm(viewer, "manage webhooks")
        rows = await store.list_webhooks(services.pool, encounter_id)
        return WebhookList(webhooks=[WebhookOut.of(r) for r in rows])

    @get("/webhooks/{webhook_id:uuid}", operation_id="getWebhook", summary="One webhook")
    async def get_one(
        self,
        encounter_id: FromPath[UUID],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> WebhookOut:
        require_gm(viewer, "manage webhooks")
        return WebhookOut.of(await _one(services, encounter_id, webhook_id))

    @get(
        "/webhooks/{webhook_id:uuid}/deliveries",
        operation_id="listWebhookDeliveries",
        summary="A webhook's latest deliveries",
    )
    async def deliveries(
        self,
        encounter_id: FromPath[UUID],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        limit: Limit = 50,
    ) -> DeliveryList:
        """Newest first: the id each went out under, the event, the receiver's status and
        the attempts it took. GM only."""
        require_gm(viewer, "manage webhooks")
        return await _deliveries(services, encounter_id, webhook_id, limit)

    @delete("/webhooks/{webhook_id:uuid}", operation_id="deleteWebhook", status_code=204)
    async def remove(
        self,
        encounter_id: FromPath[UUID],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> None:
        """Stops its deliveries; a request already in flight may still arrive. GM only."""
        require_gm(viewer, "manage webhooks")
        if not await store.delete_webhook(services.pool, webhook_id, encounter_id):
            raise _not_found(webhook_id)

    @post(
        "/webhooks/{webhook_id:uuid}/resume",
        operation_id="resumeWebhook",
        status_code=200,
        summary="Resume a paused webhook",
    )
    async def resume(
        self,
        encounter_id: FromPath[UUID],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
    ) -> WebhookOut:
        """Delivery starts again at once from its checkpoint (the event it was stuck on),
        with its failures counted from zero. GM only."""
        require_gm(viewer, "manage webhooks")
        row = await store.resume_webhook(services.pool, webhook_id, encounter_id)
        if row is None:
            raise _not_found(webhook_id)
        return WebhookOut.of(row)


def _require_key(request: Request[Any, Any, Any], services: Services) -> None:
    key = services.settings.service_key
    if key is None:
        raise problem(
            403,
            "no-service-key",
            "Service-wide webhooks need the service key, and this service has none"
            " (AEON_SERVICE_KEY).",
        )
    if not is_service_key(key, bearer_token(request)):
        exc = problem(401, "unauthorized", "service-wide webhooks need this service's key")
        exc.headers = {"WWW-Authenticate": 'Bearer realm="aeon-ledger"'}
        raise exc


class ServiceWebhooks(Controller):
    """Webhooks of the whole service: every encounter's events. Service key only."""

    path = "/webhooks"
    tags = ("webhooks",)

    @post("/", operation_id="createServiceWebhook", status_code=201)
    async def create(
        self,
        request: Request[Any, Any, Any],
        data: JSONBody[CreateWebhook],
        services: NamedDependency[Services],
    ) -> CreatedWebhook:
        """Like an encounter's webhook, for the events of every encounter (each
        encounter's in its stream order)."""
        _require_key(request, services)
        return await _register(services, None, data)

    @get("/", operation_id="listServiceWebhooks")
    async def list_all(
        self, request: Request[Any, Any, Any], services: NamedDependency[Services]
    ) -> WebhookList:
        _require_key(request, services)
        rows = await store.list_webhooks(services.pool, None)
        return WebhookList(webhooks=[WebhookOut.of(r) for r in rows])

    @get("/{webhook_id:uuid}", operation_id="getServiceWebhook")
    async def get_one(
        self,
        request: Request[Any, Any, Any],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> WebhookOut:
        _require_key(request, services)
        return WebhookOut.of(await _one(services, None, webhook_id))

    @get("/{webhook_id:uuid}/deliveries", operation_id="listServiceWebhookDeliveries")
    async def deliveries(
        self,
        request: Request[Any, Any, Any],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        limit: Limit = 50,
    ) -> DeliveryList:
        _require_key(request, services)
        return await _deliveries(services, None, webhook_id, limit)

    @delete("/{webhook_id:uuid}", operation_id="deleteServiceWebhook", status_code=204)
    async def remove(
        self,
        request: Request[Any, Any, Any],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> None:
        _require_key(request, services)
        if not await store.delete_webhook(services.pool, webhook_id, None):
            raise _not_found(webhook_id)

    @post("/{webhook_id:uuid}/resume", operation_id="resumeServiceWebhook", status_code=200)
    async def resume(
        self,
        request: Request[Any, Any, Any],
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> WebhookOut:
        _require_key(request, services)
        row = await store.resume_webhook(services.pool, webhook_id, None)
        if row is None:
            raise _not_found(webhook_id)
        return WebhookOut.of(row)
