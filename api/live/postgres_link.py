"""Wake-ups between processes without Redis: PostgreSQL ``LISTEN/NOTIFY``.

Every API process shares the database anyway, so with several workers and no
``REDIS_URL`` the wake-ups ride on it: one ``NOTIFY`` carries every wake-up (and
revocation notice) the notifier gathered since its last one, which is at most one per
group commit, since the commits of one group reach the notifier together.  Each process
keeps one connection of its own (outside the pool: a pooled connection must keep no
session state) listening on one channel for all encounters, and reconnects by itself
when it is lost; what was missed meanwhile is read on reconnection (``Hub.wake_all``) and
in any case by each feed's safety-net read.

A notice is JSON: ``{"w": {encounter: version, ...}, "r": [[encounter, token_id], ...]}``,
split in several ``NOTIFY`` when it would pass PostgreSQL's 8000-byte payload limit.
Wake-ups go out only for encounters another process follows: processes announce what they
follow on the same channel (``{"p": process, "f": [...], "u": [...], "a": true, "h":
true}``, api/live/interest.py).  Revocations always go out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from api.background import running_tasks
from api.live.hub import Hub
from api.live.interest import Interest
from api.live.redis_link import LinkStatus
from events.db import Database
from events.wakeups import CHANNEL, MAX_PAYLOAD, notify, ping

log = logging.getLogger("aeon_ledger.live")

LISTENER = "aeon-ledger live listener"
"""The listening sessions' ``application_name``, to find them in ``pg_stat_activity``."""

_BATCH = 100
"""Entries per notice: 100 wake-ups stay well under ``MAX_PAYLOAD``."""


class Notice(msgspec.Struct, omit_defaults=True):
    w: dict[str, int] = {}
    r: list[tuple[str, str]] = []
    p: str = ""
    """The announcing process (interest only)."""
    f: list[str] = []
    """Encounters ``p`` follows: newly, or all of them if ``a``."""
    u: list[str] = []
    """Encounters ``p`` no longer follows."""
    a: bool = False
    h: bool = False
    """``p`` asks every process to announce all it follows."""


_decode = msgspec.json.Decoder(Notice).decode


def notices(versions: Mapping[UUID, int], revoked: Sequence[tuple[UUID, str]]) -> Iterator[str]:
    """The payloads that carry ``versions`` and ``revoked``."""
    woken = [(str(e), v) for e, v in versions.items()]
    cut = [(str(e), t[:200]) for e, t in revoked]
    for start in range(0, max(len(woken), len(cut)), _BATCH):
        payload = msgspec.json.encode(
            Notice(w=dict(woken[start : start + _BATCH]), r=cut[start : start + _BATCH])
        ).decode()
        assert len(payload) <= MAX_PAYLOAD
        yield payload


def announcements(
    process: str,
    followed: Sequence[UUID],
    dropped: Sequence[UUID] = (),
    *,
    whole: bool = False,
    hello: bool = False,
) -> Iterator[str]:
    """The payloads that announce ``process``'s interest; a whole set split in several
    replaces with its first and adds with the rest."""
    f, u = [str(e) for e in followed], [str(e) for e in dropped]
    for n, start in enumerate(range(0, max(len(f), len(u), 1), _BATCH)):
        notice = Notice(
            p=process,
            f=f[start : start + _BATCH],
            u=u[start : start + _BATCH],
            a=whole and n == 0,
            h=hello and n == 0,
        )
        payload = msgspec.json.encode(notice).decode()
        assert len(payload) <= MAX_PAYLOAD
        yield payload


class PostgresLink:
    def __init__(
        self,
        dsn: str,
        hub: Hub,
        status: LinkStatus,
        *,
        retry_after: float = 0.5,
        ping_every: float = 5.0,
        refresh_every: float = 30.0,
    ) -> None:
        self._dsn, self._hub, self.status = dsn, hub, status
        self._retry_after, self._ping_every = retry_after, ping_every
        self._db: Database | None = None
        self.interest = Interest(uuid.uuid4().hex[:16], refresh=refresh_every)
        self._tasks: set[asyncio.Task[None]] = set()
        self._announcing = asyncio.Lock()
        self._told: set[UUID] = set()
        """What the others were last told this process follows."""

    async def publish(
        self, versions: Mapping[UUID, int], revoked: Sequence[tuple[UUID, str]]
    ) -> None:
        assert self._db is not None, "the link is not running"
        elsewhere = self.interest.followed_elsewhere
        wanted = {e: v for e, v in versions.items() if elsewhere(e)}
        if wanted or revoked:
            for payload in notices(wanted, revoked):
                await notify(self._db, payload)

    @contextlib.asynccontextmanager
    async def watch(self, encounter_id: UUID) -> AsyncIterator[None]:
        """For as long as this process has a feed of the encounter, the others send its
        wake-ups: announced when it starts (before the feed's first read) and when it
        ends."""
        self.interest.mine.add(encounter_id)
        await self._announce()
        try:
            yield
        finally:
            self.interest.mine.discard(encounter_id)
            self._in_background(self._announce())

    async def _announce(self, *, whole: bool = False, hello: bool = False) -> None:
        """Tell the others what this process follows: what changed since the last
        announcement, or (``whole``) all of it.

        Announcements go out one at a time and each is taken from what this process
        follows when it is sent, not when it was asked for: a whole set asked for on an
        incoming hello but sent after a newer feed's announcement would otherwise
        replace that feed's encounter in the others' view until the next refresh.

        Best effort: with the link down the others lose nothing but time (their feeds'
        safety-net reads), and the next (re)connection announces everything."""
        async with self._announcing:
            if self._db is None:
                return
            mine = set(self.interest.mine)
            if whole:
                followed, dropped = sorted(mine), []
            else:
                followed, dropped = sorted(mine - self._told), sorted(self._told - mine)
                if not followed and not dropped:
                    return
            payloads = announcements(self.interest.me, followed, dropped, whole=whole, hello=hello)
            try:
                for payload in payloads:
                    await notify(self._db, payload)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("live updates: could not announce what this process follows (%r)", exc)
                return
            self._told = mine

    def _announce_all(self, *, hello: bool = False) -> None:
        self._in_background(self._announce(whole=True, hello=hello))

    def _in_background(self, announcing: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(announcing)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @contextlib.asynccontextmanager
    async def running(self, db: Database) -> AsyncIterator[None]:
        """Listen for as long as the app runs; ``db`` (the pool) sends the notices."""
        self._db = db
        try:
            async with running_tasks(self._listen(), name="live-listen"):
                yield
        finally:
            self._db = None  # announcements from feeds that end after this are not sent
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _listen(self) -> None:
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(
                    self._dsn, timeout=5, server_settings={"application_name": LISTENER}
                )
                lost = asyncio.Event()
                conn.add_termination_listener(_setter(lost))
                await conn.add_listener(CHANNEL, self._on_notice)
                self.status.up()
                self._hub.wake_all()  # what was committed while nobody listened
                self._announce_all(hello=True)  # and who follows what now
                refreshed = time.monotonic()
                while not lost.is_set():
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self._ping_every):
                            await lost.wait()
                    if not lost.is_set():
                        async with asyncio.timeout(self._ping_every):
                            await ping(conn)
                    if time.monotonic() - refreshed >= self.interest.refresh:
                        refreshed = time.monotonic()
                        self.interest.forget_silent()
                        self._announce_all()
                raise ConnectionError("the listening connection was closed")
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                self.status.down(exc)
            finally:
                if conn is not None:
                    conn.terminate()
            await asyncio.sleep(self._retry_after)

    def _on_notice(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        try:
            notice = _decode(str(payload))
            woken = [(UUID(e), v) for e, v in notice.w.items()]
            revoked = [(UUID(e), t) for e, t in notice.r]
            followed, dropped = [UUID(e) for e in notice.f], [UUID(e) for e in notice.u]
        except (msgspec.DecodeError, ValueError):
            log.warning("live updates: ignored a malformed notice on %s", CHANNEL)
            return
        if notice.p:
            self.interest.heard(notice.p, followed, dropped, whole=notice.a)
            if notice.h and notice.p != self.interest.me:
                self._announce_all()
        for encounter_id, version in woken:
            self._hub.wake(encounter_id, version)
        for encounter_id, token_id in revoked:
            self._hub.revoked(encounter_id, token_id)


def _setter(event: asyncio.Event) -> Callable[[object], None]:
    return lambda _: event.set()
