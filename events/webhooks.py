"""The webhooks and webhook_deliveries tables: subscriptions with their checkpoints, and
the deliveries that moved them.  SQL only; what is sent and when is api/webhooks/.

A checkpoint only ever moves through ``advance``, guarded by the checkpoint the caller
read: if anything else moved it meanwhile, nothing is written, so two deliverers can
never both move one webhook past the same event.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection, Database
from events.reading import Checkpoint

_LOCK_SPACE = 0x7765_6268  # "wehb": the first key of every webhook's advisory lock


class WebhookRow(msgspec.Struct, frozen=True, kw_only=True):
    """A subscription as stored, its secret included (never leaves the service)."""

    webhook_id: UUID
    encounter_id: UUID | None
    url: str
    event_types: list[str]
    format: str
    secret: str
    gm_only: bool
    checkpoint_version: int
    checkpoint_shards: list[int]
    delivered: int
    failures: int
    last_error: str | None
    last_attempt_at: datetime | None
    last_delivery_at: datetime | None
    next_attempt_at: datetime
    paused_at: datetime | None
    created_at: datetime

    @property
    def global_checkpoint(self) -> Checkpoint:
        """A stored ``'{}'`` (an encounter's webhook, or one made before any shard moved)
        is the start of every shard."""
        return Checkpoint.from_stored(self.checkpoint_shards)


class Position(msgspec.Struct, frozen=True):
    """A webhook's checkpoint: a stream version for an encounter's webhook, a place in
    the order the store is read in (events/reading.py's ``Checkpoint``) for a
    service-wide one."""

    version: int = 0
    global_checkpoint: Checkpoint = Checkpoint()


def position_of(row: WebhookRow) -> Position:
    return Position(row.checkpoint_version, row.global_checkpoint)


_COLUMNS = ", ".join(WebhookRow.__struct_fields__)


def _row(record: asyncpg.Record) -> WebhookRow:
    return WebhookRow(**dict(record))


async def insert_webhook(
    db: Database,
    *,
    webhook_id: UUID,
    encounter_id: UUID | None,
    url: str,
    event_types: Sequence[str],
    format: str,
    secret: str,
    gm_only: bool,
    start: Position,
) -> WebhookRow:
    record = await db.fetchrow(
        f"""INSERT INTO webhooks (webhook_id, encounter_id, url, event_types, format, secret,
                                  gm_only, checkpoint_version, checkpoint_shards)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {_COLUMNS}""",
        webhook_id,
        encounter_id,
        url,
        list(event_types),
        format,
        secret,
        gm_only,
        start.version,
        start.global_checkpoint.stored(),
    )
    assert record is not None
    return _row(record)


async def list_webhooks(db: Database, encounter_id: UUID | None) -> list[WebhookRow]:
    """The encounter's webhooks (None: the service-wide ones), oldest first."""
    records = await db.fetch(
        f"""SELECT {_COLUMNS} FROM webhooks WHERE encounter_id IS NOT DISTINCT FROM $1
            ORDER BY created_at, webhook_id""",
        encounter_id,
    )
    return [_row(r) for r in records]


async def get_webhook(db: Database, webhook_id: UUID) -> WebhookRow | None:
    record = await db.fetchrow(f"SELECT {_COLUMNS} FROM webhooks WHERE webhook_id = $1", webhook_id)
    return None if record is None else _row(record)


async def due_webhook(db: Database, webhook_id: UUID) -> WebhookRow | None:
    """The webhook if it is still due now (not paused, past its retry time)."""
    record = await db.fetchrow(
        f"""SELECT {_COLUMNS} FROM webhooks
            WHERE webhook_id = $1 AND paused_at IS NULL AND next_attempt_at <= now()""",
        webhook_id,
    )
    return None if record is None else _row(record)


async def delete_webhook(db: Database, webhook_id: UUID, encounter_id: UUID | None) -> bool:
    done = await db.fetchval(
        """DELETE FROM webhooks WHERE webhook_id = $1 AND encounter_id IS NOT DISTINCT FROM $2
           RETURNING true""",
        webhook_id,
        encounter_id,
    )
    return bool(done)


async def resume_webhook(
    db: Database, webhook_id: UUID, encounter_id: UUID | None
) -> WebhookRow | None:
    """Unpause: failures forgotten, next attempt now, the checkpoint where it was."""
    record = await db.fetchrow(
        f"""UPDATE webhooks SET paused_at = NULL, failures = 0, next_attempt_at = now()
            WHERE webhook_id = $1 AND encounter_id IS NOT DISTINCT FROM $2
            RETURNING {_COLUMNS}""",
        webhook_id,
        encounter_id,
    )
    return None if record is None else _row(record)


async def due_webhooks(db: Database, limit: int) -> list[UUID]:
    """Webhooks that may have something to send now, the longest waiting first: not
    paused, past their retry time, and (for an encounter's) behind their stream."""
    records = await db.fetch(
        """SELECT w.webhook_id FROM webhooks AS w
           LEFT JOIN streams AS s ON s.stream_id = w.encounter_id
           WHERE w.paused_at IS NULL AND w.next_attempt_at <= now()
             AND (w.encounter_id IS NULL OR s.version > w.checkpoint_version)
           ORDER BY w.next_attempt_at LIMIT $1""",
        limit,
    )
    return [r["webhook_id"] for r in records]


async def try_lock(conn: Connection, webhook_id: UUID) -> bool:
    """Take the webhook's session advisory lock on ``conn`` if nobody holds it.

    A session lock holds no transaction open while a request is in flight; a process
    that dies loses its connection and with it the lock.
    """
    got = await conn.fetchval(
        "SELECT pg_try_advisory_lock($1, hashtext($2))", _LOCK_SPACE, str(webhook_id)
    )
    return bool(got)


async def unlock(conn: Connection, webhook_id: UUID) -> None:
    await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", _LOCK_SPACE, str(webhook_id))


async def advance(conn: Connection, webhook_id: UUID, old: Position, new: Position) -> bool:
    """Move the checkpoint from ``old`` to ``new`` (past events the webhook does not
    send); False, and nothing written, if it was no longer at ``old``."""
    done = await conn.fetchval(
        """UPDATE webhooks SET checkpoint_version = $4, checkpoint_shards = $5
           WHERE webhook_id = $1 AND checkpoint_version = $2 AND checkpoint_shards = $3
           RETURNING true""",
        webhook_id,
        old.version,
        old.global_checkpoint.stored(),
        new.version,
        new.global_checkpoint.stored(),
    )
    return bool(done)


async def record_delivery(
    conn: Connection,
    webhook_id: UUID,
    *,
    delivery_id: str,
    stream_id: UUID,
    stream_version: int,
    status: int,
    attempts: int,
    old: Position,
    new: Position,
) -> bool:
    """The delivery and the checkpoint past it, in one statement (so one transaction);
    False, and nothing written, if the checkpoint had moved or the webhook is gone."""
    moved = await conn.fetchval(
        """WITH moved AS (
               UPDATE webhooks SET checkpoint_version = $4, checkpoint_shards = $5,
                                   delivered = delivered + 1,
                                   failures = 0, last_error = NULL, last_attempt_at = now(),
                                   last_delivery_at = now(), next_attempt_at = now()
               WHERE webhook_id = $1 AND checkpoint_version = $2 AND checkpoint_shards = $3
               RETURNING webhook_id),
           logged AS (
               INSERT INTO webhook_deliveries (webhook_id, delivery_id, stream_id,
                                               stream_version, status, attempts)
               SELECT webhook_id, $6, $7, $8, $9, $10 FROM moved
               ON CONFLICT (webhook_id, delivery_id) DO NOTHING)
           SELECT count(*) FROM moved""",
        webhook_id,
        old.version,
        old.global_checkpoint.stored(),
        new.version,
        new.global_checkpoint.stored(),
        delivery_id,
        stream_id,
        stream_version,
        status,
        attempts,
    )
    return bool(moved)


async def record_failure(
    conn: Connection, webhook_id: UUID, *, error: str, retry_in: float, max_failures: int
) -> WebhookRow | None:
    """One more failed attempt: the error kept, the next attempt put off by ``retry_in``
    seconds, and the webhook paused once its failures reach ``max_failures``."""
    record = await conn.fetchrow(
        f"""UPDATE webhooks
            SET failures = failures + 1, last_error = $2, last_attempt_at = now(),
                next_attempt_at = now() + make_interval(secs => $3),
                paused_at = CASE WHEN failures + 1 >= $4 THEN now() END
            WHERE webhook_id = $1 RETURNING {_COLUMNS}""",
        webhook_id,
        error,
        retry_in,
        max_failures,
    )
    return None if record is None else _row(record)


async def put_off(conn: Connection, webhook_id: UUID, *, reason: str, retry_in: float) -> None:
    """Wait before the next attempt without counting a failure (a receiver that asks us
    to slow down, HTTP 429)."""
    await conn.execute(
        """UPDATE webhooks SET last_error = $2, last_attempt_at = now(),
                               next_attempt_at = now() + make_interval(secs => $3)
           WHERE webhook_id = $1""",
        webhook_id,
        reason,
        retry_in,
    )


async def deliveries(db: Database, webhook_id: UUID, limit: int) -> list[asyncpg.Record]:
    """The webhook's latest deliveries, newest first: ``delivery_id``, ``stream_id``,
    ``stream_version``, ``status``, ``attempts``, ``delivered_at``."""
    return await db.fetch(
        """SELECT delivery_id, stream_id, stream_version, status, attempts, delivered_at
           FROM webhook_deliveries WHERE webhook_id = $1
           ORDER BY delivered_at DESC, stream_version DESC LIMIT $2""",
        webhook_id,
        limit,
    )
