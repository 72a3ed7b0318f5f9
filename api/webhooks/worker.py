"""Delivering webhooks: a few lanes in every service process, each taking one webhook at a
time under that webhook's advisory lock, so several processes never deliver the same
webhook at once, and sending its events one by one in stream order.

At least once: the request goes out first, then one transaction records the delivery and
moves the checkpoint past the event.  A crash in between sends the event again after the
restart, under the same ``webhook-id`` (the webhook's id and the event's place), which a
receiver uses to drop the duplicate.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing, asynccontextmanager, suppress
from uuid import UUID

import asyncpg
import httpx
import msgspec

from api.background import running_tasks
from api.settings import Settings
from api.webhooks.clients import Clients
from api.webhooks.payloads import Composer
from api.webhooks.signing import signed_headers
from api.webhooks.targets import AllowList, TargetRefused, check_target
from events import webhooks as store
from events.db import Connection, Database
from events.envelope import RecordedEvent
from events.kinds import of_campaign
from events.reading import read_all_steps, read_stream
from events.webhooks import Position, WebhookRow

log = logging.getLogger("aeon_ledger.webhooks")

BATCH = 100
"""Events one turn sends to one webhook before its lane looks at the others."""
_CANDIDATES = 20
_IDLE_CLOSE = 60.0
"""Seconds without a due webhook after which a lane closes its connection."""
_ERROR_CHARS = 300
USER_AGENT = "aeon-ledger-webhooks/1"


def delivery_id(webhook_id: UUID, stream_id: UUID, version: int) -> str:
    """The same for every attempt at one event, and different for any other."""
    return "msg_" + uuid.uuid5(webhook_id, f"{stream_id}/{version}").hex


def backoff(failures: int, base: float, cap: float, rng: random.Random) -> float:
    """Seconds before the next attempt after ``failures`` failures in a row: doubling
    from ``base`` up to ``cap``, the upper half of it at random ("equal jitter"), so
    webhooks that failed together do not retry together."""
    delay: float = min(cap, base * 2.0 ** min(failures - 1, 62))
    return delay / 2 + rng.uniform(0, delay / 2)


class Outcome(msgspec.Struct, frozen=True):
    status: int | None = None
    """The receiver's status; None when no answer came."""
    error: str | None = None
    retry_after: float | None = None
    """Seconds the receiver asked us to wait (HTTP 429)."""


class Deliverer:
    """The delivery lanes of one process (``running`` is entered by the app's lifespan)."""

    def __init__(self, settings: Settings, pool: Database) -> None:
        self.settings, self.pool = settings, pool
        self.allow = AllowList.parse(settings.webhook_allow)
        self.rng = random.Random()

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        lanes = (self._lane() for _ in range(self.settings.webhook_lanes))
        async with running_tasks(*lanes, name="webhook-lane"):
            yield

    async def _lane(self) -> None:
        """Deliver until cancelled; a lost database or any other failure of the lane
        itself costs a pause and a new connection, never the lane.

        The lane's own connection (which holds the advisory locks) is opened when some
        webhook is due and closed after a minute without one, so a service without
        webhooks holds no connection for them."""
        http = Clients()
        conn: asyncpg.Connection | None = None
        idle_since = time.monotonic()
        try:
            while True:
                try:
                    due = await store.due_webhooks(self.pool, _CANDIDATES)
                    if due and conn is None:
                        assert self.settings.database_url is not None
                        conn = await asyncpg.connect(self.settings.database_url)
                        idle_since = time.monotonic()
                    progress = conn is not None and await self.turn(conn, http, due)
                    if progress:
                        idle_since = time.monotonic()
                        continue
                    if conn is not None and time.monotonic() - idle_since > _IDLE_CLOSE:
                        await conn.close()
                        conn = None
                    await asyncio.sleep(self.settings.webhook_poll_seconds)
                except asyncio.CancelledError:
                    raise
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                    log.warning("webhook delivery lane lost the database (%s); reconnecting", exc)
                    _terminated(conn)
                    conn = None
                    await asyncio.sleep(self.settings.webhook_poll_seconds)
                except Exception:
                    log.exception("webhook delivery lane failed; starting it again")
                    _terminated(conn)
                    conn = None
                    await asyncio.sleep(self.settings.webhook_poll_seconds)
        finally:
            _terminated(conn)
            await http.aclose()

    async def turn(self, conn: Connection, http: Clients, due: list[UUID]) -> bool:
        """Deliver what the ``due`` webhooks nobody else holds have to send; False if
        none had anything (then the lane waits a poll interval)."""
        progress = False
        for webhook_id in due:
            if not await store.try_lock(conn, webhook_id):
                continue
            try:
                progress |= await self._deliver(conn, http, webhook_id)
            finally:
                await store.unlock(conn, webhook_id)
        return progress

    async def _deliver(self, conn: Connection, http: Clients, webhook_id: UUID) -> bool:
        """Send the webhook's next events, up to a batch, stopping at the first failure;
        whether anything was sent, skipped or failed."""
        row = await store.due_webhook(conn, webhook_id)  # read again, under the lock
        if row is None:
            return False
        composer = Composer(self.pool, row.webhook_id, row.format, row.gm_only)
        stored = store.position_of(row)
        async with aclosing(self._events(row, stored)) as events:
            return await self._send_events(conn, http, row, composer, events, stored)

    async def _send_events(
        self,
        conn: Connection,
        http: Clients,
        row: WebhookRow,
        composer: Composer,
        events: AsyncIterator[tuple[RecordedEvent, Position]],
        stored: Position,
    ) -> bool:
        at = stored
        async for event, after in events:
            if of_campaign(event.type):
                at = after  # a campaign's events are no encounter's (events/kinds.py)
                continue
            if row.gm_only and row.event_types and event.type not in row.event_types:
                at = after  # a GM webhook's filter needs no redaction to decide
                continue
            message_id = delivery_id(row.webhook_id, event.stream_id, event.stream_version)
            try:
                shown = await composer.compose(event, message_id)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                raise
            except Exception as exc:  # a bug, not the receiver's: fail, pause, keep the order
                log.exception("webhook %s: no body for %s", row.webhook_id, message_id)
                outcome = Outcome(error=f"the service could not build this event's body: {exc!r}")
            else:
                if row.event_types and shown.type not in row.event_types:
                    at = after
                    continue
                outcome = await self._send(http, row, message_id, shown.body)
            if outcome.status is not None and 200 <= outcome.status < 300:
                if not await store.record_delivery(
                    conn,
                    row.webhook_id,
                    delivery_id=message_id,
                    stream_id=event.stream_id,
                    stream_version=event.stream_version,
                    status=outcome.status,
                    attempts=row.failures + 1,
                    old=stored,
                    new=after,
                ):
                    return True  # deleted, or resumed elsewhere: its new state decides
                stored = at = after
                row = msgspec.structs.replace(row, failures=0)
                continue
            if at != stored and not await store.advance(conn, row.webhook_id, stored, at):
                return True
            await self._failed(conn, row, outcome)
            return True
        if at == stored:
            return False
        await store.advance(conn, row.webhook_id, stored, at)
        return True

    async def _events(
        self, row: WebhookRow, at: Position
    ) -> AsyncGenerator[tuple[RecordedEvent, Position], None]:
        """Up to a batch of events after ``at``, each with the position just past it: an
        encounter's from its stream, a service-wide webhook's from the reading by shard
        (its checkpoint is the reading's own, moved event by event)."""
        if row.encounter_id is not None:
            for event in await read_stream(
                self.pool, row.encounter_id, after_version=at.version, limit=BATCH
            ):
                yield event, Position(event.stream_version)
            return
        for event, checkpoint in await read_all_steps(self.pool, at.global_checkpoint, limit=BATCH):
            yield event, Position(0, checkpoint)

    async def _send(self, http: Clients, row: WebhookRow, message_id: str, body: bytes) -> Outcome:
        try:
            target = await check_target(row.url, self.allow)
        except TargetRefused as exc:
            return Outcome(error=str(exc))
        url, host, extensions = target.pinned()
        headers = {
            **host,
            **signed_headers(row.secret, message_id, int(time.time()), body),
            "content-type": "application/json",
            "user-agent": USER_AGENT,
        }
        client = await http.for_url(target.url)
        try:
            response = await client.post(
                url,
                content=body,
                headers=headers,
                extensions=extensions,
                timeout=self.settings.webhook_timeout_seconds,
            )
        except httpx.TimeoutException:
            return Outcome(error=f"no answer within {self.settings.webhook_timeout_seconds:g} s")
        except httpx.HTTPError as exc:
            return Outcome(error=f"{type(exc).__name__}: {exc}"[:_ERROR_CHARS])
        if response.is_success:
            return Outcome(response.status_code)
        text = response.text[:_ERROR_CHARS].strip()
        error = f"HTTP {response.status_code}" + (f": {text}" if text else "")
        return Outcome(response.status_code, error, _retry_after(response))

    async def _failed(self, conn: Connection, row: WebhookRow, outcome: Outcome) -> None:
        s = self.settings
        error = outcome.error or "failed"
        if outcome.status == 429 and outcome.retry_after is not None:
            wait = min(outcome.retry_after, s.webhook_retry_max_seconds)
            await store.put_off(conn, row.webhook_id, reason=error, retry_in=wait)
            return
        wait = backoff(
            row.failures + 1, s.webhook_retry_base_seconds, s.webhook_retry_max_seconds, self.rng
        )
        updated = await store.record_failure(
            conn,
            row.webhook_id,
            error=error,
            retry_in=wait,
            max_failures=s.webhook_max_failures,
        )
        if updated is not None and updated.paused_at is not None:
            log.warning(
                "webhook %s paused after %d failures: %s",
                row.webhook_id,
                updated.failures,
                error,
            )


def _terminated(conn: asyncpg.Connection | None) -> None:
    """Drop the connection at once (its advisory locks go with it)."""
    if conn is not None:
        conn.terminate()


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    with suppress(ValueError):
        return max(0.0, float(value))
    return None
