"""Registering and reading webhooks, shared by an encounter's routes and the service's
(api/routes/webhooks.py): the checks a new webhook passes, and the lookups that answer
404 for a webhook of another owner."""

from __future__ import annotations

import uuid
from uuid import UUID

from api.http.problems import problem
from api.state import Services
from api.webhooks.schemas import (
    CreatedWebhook,
    CreateWebhook,
    DeliveryList,
    DeliveryOut,
    WebhookOut,
)
from api.webhooks.signing import new_secret, signing_key
from api.webhooks.targets import AllowList, TargetRefused, check_target
from events import webhooks as store
from events.errors import StreamNotFound
from events.reading import checkpoint_now
from events.store import stream_head
from events.webhooks import Position, WebhookRow
from projections.redaction import HIDDEN_TYPE
from service.core_events import CORE_EVENT_TYPES
from service.registry import all_event_types

MAX_PER_OWNER = 10
"""Webhooks one encounter (or the service) may have: each costs a delivery per event."""


def _known_types() -> frozenset[str]:
    return frozenset(
        {t.__struct_config__.tag for t in (*CORE_EVENT_TYPES, *all_event_types())} | {HIDDEN_TYPE}
    )


_KNOWN_TYPES = _known_types()


async def register(
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
            position = Position(0, await checkpoint_now(services.pool))
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


async def one(services: Services, encounter_id: UUID | None, webhook_id: UUID) -> WebhookRow:
    row = await store.get_webhook(services.pool, webhook_id)
    if row is None or row.encounter_id != encounter_id:
        raise not_found(webhook_id)
    return row


async def deliveries_of(
    services: Services, encounter_id: UUID | None, webhook_id: UUID, limit: int
) -> DeliveryList:
    await one(services, encounter_id, webhook_id)
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


def not_found(webhook_id: UUID) -> Exception:
    return problem(404, "webhook-not-found", f"There is no webhook {webhook_id} here.")


async def ensure_encounter(services: Services, encounter_id: UUID) -> None:
    try:
        await stream_head(services.pool, encounter_id)
    except StreamNotFound:
        raise problem(404, "encounter-not-found", f"No encounter has id {encounter_id}.") from None
