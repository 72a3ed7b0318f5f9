"""Request and response bodies of the webhook routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec

from events.webhooks import WebhookRow

EventType = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
Format = Literal["json", "discord"]


class CreateWebhook(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    url: Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]
    """Where to POST: an http(s) URL whose host this service's AEON_WEBHOOK_ALLOW admits."""
    event_types: Annotated[list[EventType], msgspec.Meta(max_length=200)] = []
    """Event types to send (as the webhook's audience sees them: a player webhook matches
    `secret` for what a hidden roll's command did after the roll); empty sends all."""
    format: Format = "json"
    """`json`: the event as the API shows it, with its log line. `discord`: the log line as
    a Discord webhook message."""
    secret: Annotated[str, msgspec.Meta(min_length=16, max_length=200)] | None = None
    """The signing secret (`whsec_` + base64, or any string of 16 or more characters).
    Write-only: never shown back. Omitted: the service makes one and answers it once."""
    gm_only: bool = False
    """Send the GM's view: secret rolls and GM-only notes in full. Off: what players see."""
    start: Literal["beginning", "now"] | None = None
    """Where delivery starts: an encounter's webhook defaults to its first event, a
    service-wide webhook to the events appended from now on."""


class WebhookCheckpoint(msgspec.Struct, frozen=True, kw_only=True):
    """The last event the webhook is past: a stream version for an encounter's webhook;
    for a service-wide one, its place in the order the store is read in: places per
    shard, or a (transaction id, global position) (docs/webhooks.md)."""

    version: int
    shards: list[int]
    """A service-wide webhook's last place in each shard, shard 0 first, while it reads
    the store in shard order; empty for an encounter's webhook."""
    transaction: list[int] | None = None
    """A service-wide webhook's last (transaction id, global position) once it reads the
    store in transaction order (docs/webhooks.md)."""

    @classmethod
    def of(cls, row: WebhookRow) -> WebhookCheckpoint:
        if row.encounter_id is not None:
            return cls(version=row.checkpoint_version, shards=[])
        at = row.global_checkpoint
        if at.transaction is not None:
            return cls(version=0, shards=[], transaction=list(at.transaction))
        return cls(version=0, shards=list(at.shards))


class WebhookOut(msgspec.Struct, kw_only=True):
    """A webhook and its delivery state; never its secret."""

    webhook_id: UUID
    encounter_id: UUID | None
    url: str
    event_types: list[str]
    format: Format
    gm_only: bool
    checkpoint: WebhookCheckpoint
    delivered: int
    failures: int
    """Failed attempts in a row at the event it is stuck on."""
    paused: bool
    paused_at: datetime | None
    last_error: str | None
    last_attempt_at: datetime | None
    last_delivery_at: datetime | None
    next_attempt_at: datetime
    created_at: datetime

    @classmethod
    def of(cls, row: WebhookRow) -> WebhookOut:
        return cls(
            webhook_id=row.webhook_id,
            encounter_id=row.encounter_id,
            url=row.url,
            event_types=row.event_types,
            format="discord" if row.format == "discord" else "json",
            gm_only=row.gm_only,
            checkpoint=WebhookCheckpoint.of(row),
            delivered=row.delivered,
            failures=row.failures,
            paused=row.paused_at is not None,
            paused_at=row.paused_at,
            last_error=row.last_error,
            last_attempt_at=row.last_attempt_at,
            last_delivery_at=row.last_delivery_at,
            next_attempt_at=row.next_attempt_at,
            created_at=row.created_at,
        )


class CreatedWebhook(msgspec.Struct, kw_only=True, omit_defaults=True):
    webhook: WebhookOut
    secret: str | None = None
    """The generated signing secret, in this answer only (absent when you chose one)."""


class WebhookList(msgspec.Struct, kw_only=True):
    webhooks: list[WebhookOut]


class DeliveryOut(msgspec.Struct, kw_only=True):
    """An event the receiver accepted."""

    delivery_id: str
    """The ``webhook-id`` it was sent under."""
    encounter_id: UUID
    version: int
    status: int
    """The receiver's answer."""
    attempts: int
    """Attempts it took, this one included."""
    delivered_at: datetime


class DeliveryList(msgspec.Struct, kw_only=True):
    deliveries: list[DeliveryOut]
