"""Webhooks: an encounter's (its GM registers them) and the service's own (the service
key registers them, for every encounter).  Delivery is api/webhooks/worker.py's."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Controller, delete, get, post
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import FromPath, JSONBody, QueryParameter

from api.http.auth import bearer_token, is_service_key, require_gm
from api.http.problems import problem, unauthorized
from api.openapi.operations import SERVICE_KEY
from api.routes.base import EncounterRoutes
from api.state import Services
from api.webhooks.manage import deliveries_of, ensure_encounter, not_found, one, register
from api.webhooks.schemas import (
    CreatedWebhook,
    CreateWebhook,
    DeliveryList,
    WebhookList,
    WebhookOut,
)
from events import webhooks as store
from service.tokens import Viewer

Limit = Annotated[int, QueryParameter(ge=1, le=500, description="How many (at most 500).")]


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
        await ensure_encounter(services, encounter_id)
        return await register(services, encounter_id, data)

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
        return WebhookOut.of(await one(services, encounter_id, webhook_id))

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
        return await deliveries_of(services, encounter_id, webhook_id, limit)

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
            raise not_found(webhook_id)

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
            raise not_found(webhook_id)
        return WebhookOut.of(row)


def _service_key_checked(
    connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler
) -> None:
    """Guard of the service-wide webhooks: the key, before the body or query is read."""
    key = connection.app.state.services.settings.service_key
    if key is None:
        raise problem(
            403,
            "no-service-key",
            "Service-wide webhooks need the service key, and this service has none"
            " (AEON_SERVICE_KEY).",
        )
    if not is_service_key(key, bearer_token(connection)):
        raise unauthorized("service-wide webhooks need this service's key")


class ServiceWebhooks(Controller):
    """Webhooks of the whole service: every encounter's events. Service key only."""

    path = "/webhooks"
    tags = ("webhooks",)
    guards = [_service_key_checked]  # noqa: RUF012 (Litestar's own attribute)
    security = [{SERVICE_KEY: []}]  # noqa: RUF012 (Litestar's own attribute)

    @post("/", operation_id="createServiceWebhook", status_code=201)
    async def create(
        self,
        data: JSONBody[CreateWebhook],
        services: NamedDependency[Services],
    ) -> CreatedWebhook:
        """Like an encounter's webhook, for the events of every encounter (each
        encounter's in its stream order)."""
        return await register(services, None, data)

    @get("/", operation_id="listServiceWebhooks")
    async def list_all(self, services: NamedDependency[Services]) -> WebhookList:
        rows = await store.list_webhooks(services.pool, None)
        return WebhookList(webhooks=[WebhookOut.of(r) for r in rows])

    @get("/{webhook_id:uuid}", operation_id="getServiceWebhook")
    async def get_one(
        self,
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> WebhookOut:
        return WebhookOut.of(await one(services, None, webhook_id))

    @get("/{webhook_id:uuid}/deliveries", operation_id="listServiceWebhookDeliveries")
    async def deliveries(
        self,
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
        limit: Limit = 50,
    ) -> DeliveryList:
        return await deliveries_of(services, None, webhook_id, limit)

    @delete("/{webhook_id:uuid}", operation_id="deleteServiceWebhook", status_code=204)
    async def remove(
        self,
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> None:
        if not await store.delete_webhook(services.pool, webhook_id, None):
            raise not_found(webhook_id)

    @post("/{webhook_id:uuid}/resume", operation_id="resumeServiceWebhook", status_code=200)
    async def resume(
        self,
        webhook_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> WebhookOut:
        row = await store.resume_webhook(services.pool, webhook_id, None)
        if row is None:
            raise not_found(webhook_id)
        return WebhookOut.of(row)
