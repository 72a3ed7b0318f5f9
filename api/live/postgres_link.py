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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from uuid import UUID

import asyncpg
import msgspec

from api.background import running_tasks
from api.live.hub import Hub
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


class PostgresLink:
    def __init__(
        self,
        dsn: str,
        hub: Hub,
        status: LinkStatus,
        *,
        retry_after: float = 0.5,
        ping_every: float = 5.0,
    ) -> None:
        self._dsn, self._hub, self.status = dsn, hub, status
        self._retry_after, self._ping_every = retry_after, ping_every
        self._db: Database | None = None

    async def publish(
        self, versions: Mapping[UUID, int], revoked: Sequence[tuple[UUID, str]]
    ) -> None:
        assert self._db is not None, "the link is not running"
        for payload in notices(versions, revoked):
            await notify(self._db, payload)

    @contextlib.asynccontextmanager
    async def running(self, db: Database) -> AsyncIterator[None]:
        """Listen for as long as the app runs; ``db`` (the pool) sends the notices."""
        self._db = db
        async with running_tasks(self._listen(), name="live-listen"):
            yield

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
                while not lost.is_set():
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self._ping_every):
                            await lost.wait()
                    if not lost.is_set():
                        async with asyncio.timeout(self._ping_every):
                            await ping(conn)
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
        except (msgspec.DecodeError, ValueError):
            log.warning("live updates: ignored a malformed notice on %s", CHANNEL)
            return
        for encounter_id, version in woken:
            self._hub.wake(encounter_id, version)
        for encounter_id, token_id in revoked:
            self._hub.revoked(encounter_id, token_id)


def _setter(event: asyncio.Event) -> Callable[[object], None]:
    return lambda _: event.set()
