"""The process's live feeds, one per followed encounter, and where wake-ups land.

A wake-up says "encounter X reached version V" (or "token T of X was revoked"); it comes
from this process's own commits at once (api/live/notifier.py) and from other processes
through Redis or PostgreSQL (api/live/redis_link.py, api/live/postgres_link.py).  The hub only
passes it to the encounter's feed, if this process has one; the feed reads PostgreSQL, so
a wake-up that is lost, late or repeated can delay an update but never create a gap or
a duplicate.
"""

from __future__ import annotations

import asyncio
from uuid import UUID

from api.live.feed import Encode, Feed, Watch, none_to_watch
from api.live.heads import KnownHeads
from api.live.subscriber import Audience, Subscriber
from api.uvicorn_internals import Connection
from events.db import Database
from events.replicas import Reader


class Hub:
    def __init__(
        self,
        *,
        page: int,
        poll_seconds: float,
        keepalive_seconds: float,
        backlog: int,
        read_cache_seconds: float = 0.0,
    ) -> None:
        self.page, self.poll_seconds = page, poll_seconds
        self.keepalive_seconds, self.backlog = keepalive_seconds, backlog
        self.known = KnownHeads(read_cache_seconds)
        """Heads and token checks of recent reads, forgotten on the same notices."""
        self.feeds: dict[UUID, Feed] = {}
        self.watch: Watch = none_to_watch
        self.reader: Reader | None = None
        """Where feeds read their pages (api/http/read_routing.py); None: the bound pool."""
        self._db: Database | None = None
        self._encode: Encode | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def bind(self, db: Database, encode: Encode) -> None:
        """What feeds read from and how they encode, once the app has its pool."""
        self._db, self._encode = db, encode

    def join(
        self,
        encounter_id: UUID,
        head: int,
        audience: Audience,
        token_id: str | None,
        *,
        after: int = 0,
        connection: Connection | None = None,
    ) -> Subscriber:
        """A new subscriber of the encounter's feed, started at ``head`` (a committed
        version) when this process had none.  The feed offers it every event after the
        feed's own version, which is at most the head the subscriber's first read from
        PostgreSQL will see: reading from there until a short page, then taking the
        backlog (skipping what it already sent), it misses nothing."""
        assert self._db is not None and self._encode is not None, "the hub is not bound"
        feed = self.feeds.get(encounter_id)
        if feed is None:
            feed = Feed(
                self._db,
                encounter_id,
                head,
                encode=self._encode,
                page=self.page,
                poll_seconds=self.poll_seconds,
                keepalive_seconds=self.keepalive_seconds,
                reader=self.reader,
            )
            self.feeds[encounter_id] = feed
            task = asyncio.get_running_loop().create_task(
                feed.run(self.watch, self._done), name=f"live-feed-{encounter_id}"
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        subscriber = Subscriber(audience, token_id, self.backlog, after, connection)
        feed.subscribers.add(subscriber)
        return subscriber

    def leave(self, encounter_id: UUID, subscriber: Subscriber) -> None:
        feed = self.feeds.get(encounter_id)
        if feed is not None and subscriber in feed.subscribers:
            feed.subscribers.discard(subscriber)
            if not feed.subscribers:
                feed.wake.set()  # let it end now rather than at its next poll

    def _done(self, feed: Feed) -> None:
        if self.feeds.get(feed.encounter_id) is feed:
            del self.feeds[feed.encounter_id]

    def wake(self, encounter_id: UUID, version: int | None) -> None:
        """The encounter reached ``version`` (None: unknown, read anyway)."""
        self.known.moved(encounter_id)
        feed = self.feeds.get(encounter_id)
        if feed is not None and (version is None or version > feed.version):
            feed.woken(version)

    def wake_all(self) -> None:
        """After a link outage, when wake-ups may have been lost: every feed reads now."""
        self.known.forget()
        for feed in self.feeds.values():
            feed.woken(None)

    def revoked(self, encounter_id: UUID, token_id: str) -> None:
        self.known.revoked(encounter_id, token_id)
        feed = self.feeds.get(encounter_id)
        if feed is not None:
            feed.notice_revoked(token_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
