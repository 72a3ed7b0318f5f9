"""One encounter's live feed in one process: one read per wake-up, one encoding per
audience, the same bytes handed to every subscriber.

Why a feed rather than subscribers that read for themselves: with thousands of people
watching a table, a read and an encoding per subscriber per event cost a core, and a poll
per idle subscriber another.  Here the feed reads the new events of its encounter once,
asks for each audience present (``"gm"``, ``"player"``, ...) one encoding, and appends
the same ``bytes`` objects to each subscriber's backlog.  The audience is a key, not a
flag: a role whose view differs is one more key, and a subscriber only ever receives the
encoding made for its own key.

The feed is also the safety net: it waits for a wake-up (api/live/hub.py) at most
``poll_seconds``, then reads anyway, so a wake-up lost in transit costs one query per
encounter per process, never one per subscriber.  The keepalive comment and the token
re-check ride on the feed too: one query checks every subscriber's token.

A subscriber's backlog is bounded (``backlog`` messages).  Writing to a client waits for
the client, so a slow one falls behind alone; when its backlog overflows, the backlog is
dropped and the subscriber reads what it missed from PostgreSQL, as on its first
connection (``Subscriber.overflowed``), so it holds at most one bounded backlog and one
page, loses nothing, and costs the others nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from uuid import UUID

import asyncpg

from api.live.subscriber import Audience, Message, Subscriber
from api.uvicorn_internals import chunk
from events.access import live_token_ids
from events.db import Database
from events.envelope import RecordedEvent
from events.replicas import Reader, on_primary
from events.store import read_stream
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

Encode = Callable[[UUID, Audience, list[RecordedEvent], Database], Awaitable[list[Message]]]
"""The messages of ``events`` for an audience; the database is the one they were read
from, so a player's redaction sees every secret roll among them."""
Watch = Callable[[UUID], AbstractAsyncContextManager[None]]

KEEPALIVE = Message(None, b": keepalive\r\n\r\n")

_KEEPALIVE_CHUNK = chunk(KEEPALIVE.data)
_NOTHING: tuple[list[Message], bytes] = ([], b"")

_DATABASE_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class Feed:
    """The live feed of one encounter in this process, running while it has subscribers."""

    def __init__(
        self,
        db: Database,
        encounter_id: UUID,
        version: int,
        *,
        encode: Encode,
        page: int,
        poll_seconds: float,
        keepalive_seconds: float,
        reader: Reader | None = None,
    ) -> None:
        self.encounter_id, self.version = encounter_id, version
        """Every event up to ``version`` was read and offered (or predates the feed)."""
        self._db, self._encode, self._page = db, encode, page
        self._poll, self._keepalive = poll_seconds, keepalive_seconds
        self.subscribers: set[Subscriber] = set()
        self.wake = asyncio.Event()
        self._notices: set[str] = set()
        self._sent_at = self._checked_at = time.monotonic()
        self._reader = on_primary(db) if reader is None else reader
        """Where the event pages are read (events/replicas.py): a replica that has the
        version the wake-ups announced, else the primary.  Tokens are always checked on
        ``db``, the primary: a revocation must not wait for a replica."""
        self._announced: int | None = 0
        """The highest version wake-ups announced since the last read (0: none); None once
        a read was asked for without one (the safety net, a link back up): the primary's."""
        self._reading = 0
        """The version the read under way will reach at least (0: unknown)."""

    def woken(self, version: int | None) -> None:
        """A wake-up: the encounter reached ``version`` (None: it may have).  One the read
        under way covers (the same wake-up from this process and back through the link,
        while that read waited for a replica) asks for no other read."""
        if version is not None and version <= self._reading:
            return
        if version is None or self._announced is None:
            self._announced = None
        else:
            self._announced = max(self._announced, version)
        self.wake.set()

    def notice_revoked(self, token_id: str) -> None:
        self._notices.add(token_id)
        self.wake.set()

    async def run(self, watch: Watch, done: Callable[[Feed], None]) -> None:
        """Read, encode and offer on each wake-up until the last subscriber leaves;
        ``done`` is called without an await between the last check and it, so a stream
        that joins meanwhile finds either this feed running or none."""
        finished = False
        try:
            async with watch(self.encounter_id):
                # Subscribed: read once now, for what committed between the first stream's
                # join and the subscription (its wake-up went to nobody).  Not counted as a
                # wake-up or a safety-net poll: it is neither.
                if self.subscribers:
                    await self._step(None)
                while True:
                    if not self.subscribers:
                        finished = True
                        done(self)
                        break
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self._timeout()):
                            await self.wake.wait()
                    if self.wake.is_set():
                        metrics.live_woken()
                    else:
                        metrics.live_polled()  # the safety net: no wake-up came in time
                        self._announced = None
                    self.wake.clear()  # before reading: a commit during the read wakes again
                    announced, self._announced = self._announced, 0
                    self._reading = announced or 0
                    if self.subscribers:
                        await self._step(announced or None)
                    self._reading = 0
        except _DATABASE_ERRORS as exc:
            # End the streams cleanly; clients reconnect with Last-Event-ID (and get a
            # 503 while the database is away).
            log.warning("live feed of %s ends: database unavailable (%r)", self.encounter_id, exc)
        except Exception:
            log.exception("live feed of %s failed", self.encounter_id)
        finally:
            if not finished:
                done(self)
                for subscriber in self.subscribers:
                    subscriber.end()

    def _timeout(self) -> float:
        now = time.monotonic()
        keepalive = self._keepalive - (now - min(self._sent_at, self._checked_at))
        return max(0.0, min(self._poll, keepalive))

    async def _step(self, announced: int | None) -> None:
        await self._check_tokens()
        try:
            async with self._reader(self.encounter_id, announced) as db:
                await self._read(db)
        except _DATABASE_ERRORS as exc:
            if announced is None:
                raise  # that read was the primary's: the feed ends
            # A replica failed during the read: the primary has every event, and the
            # pages offered before the failure moved ``version``, so none comes twice.
            log.warning("live feed of %s reads on the primary: %r", self.encounter_id, exc)
            async with self._reader(self.encounter_id, None) as db:
                await self._read(db)
        if time.monotonic() - self._sent_at >= self._keepalive:
            for subscriber in self.subscribers:
                subscriber.offer((KEEPALIVE,), _KEEPALIVE_CHUNK)
            self._sent_at = time.monotonic()

    async def _read(self, db: Database) -> None:
        while True:
            events = await read_stream(
                db, self.encounter_id, after_version=self.version, limit=self._page
            )
            if not events:
                break
            encoded: dict[Audience, tuple[list[Message], bytes]] = {}
            for audience in {s.audience for s in self.subscribers}:
                messages = await self._encode(self.encounter_id, audience, events, db)
                encoded[audience] = (messages, chunk(b"".join(m.data for m in messages)))
            offered = 0
            for subscriber in self.subscribers:
                messages, framed = encoded.get(subscriber.audience, _NOTHING)
                subscriber.offer(messages, framed)
                offered += len(messages)
            metrics.live_sent(offered)
            self.version = events[-1].stream_version
            self._sent_at = time.monotonic()
            if len(events) < self._page:
                break

    async def _check_tokens(self) -> None:
        """On a revocation notice, the tokens it names; every keepalive, all of them: one
        query either way, and the streams of tokens no longer live end at once."""
        now = time.monotonic()
        if now - self._checked_at >= self._keepalive:
            wanted = {s.token_id for s in self.subscribers if s.token_id is not None}
            self._checked_at = now
        else:
            wanted = {t for t in self._notices if any(s.token_id == t for s in self.subscribers)}
        self._notices.clear()
        if not wanted:
            return
        live = await live_token_ids(self._db, self.encounter_id, sorted(wanted))
        for subscriber in self.subscribers:
            if subscriber.token_id in wanted and subscriber.token_id not in live:
                subscriber.end()


@contextlib.asynccontextmanager
async def none_to_watch(encounter_id: UUID) -> AsyncIterator[None]:
    """For links that deliver every encounter's wake-ups without a subscription."""
    yield
