"""One live stream from its join to its end: catch up from PostgreSQL, follow the feed,
and, once caught up over a connection the server exposed, leave the stream to that
connection with nothing of the request kept.

Why a record of its own: an idle stream that kept its ASGI call open kept Litestar's and
uvicorn's coroutines, request objects and scope for as long as it followed (most of its
memory, with ten thousand of them).  A caught-up stream hands its connection over
(api/uvicorn_internals.py): the ASGI call returns, the feed writes to the connection, and
what stays per stream is the connection's protocol, this record and its ``Subscriber``.
What the stream's task did while it slept is then done here, when the feed says so:

* the client does not keep up (the feed's write found uvicorn's writing paused): a task
  reads what it missed from PostgreSQL after the last version sent, writes it as the
  client takes it, then gives the connection back to the feed (``_catch_up``);
* the stream must end (its token was revoked, the feed lost the database, the server
  shuts down): the response ends with its last chunk, and the connection closes or
  waits for another request as uvicorn would (keep-alive);
* the client goes: the record leaves the feed.

Versions of a stream commit in order, so "after the last one sent" neither skips nor
repeats an event, whichever of the stream, its catch-up task or the feed sent it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator
from uuid import UUID

import asyncpg

from api.http.read_routing import highest, read_at
from api.live.subscriber import Audience, Subscriber
from api.live.wire import encode_for
from api.live.wiring import Live
from api.state import Services
from api.uvicorn_internals import Connection
from events.store import read_stream
from telemetry import metrics

log = logging.getLogger("aeon_ledger.live")

_DATABASE_ERRORS = (OSError, asyncpg.PostgresError, asyncpg.InterfaceError)


class Follow:
    """A joined stream: what it needs to catch up again, and who owns it now."""

    __slots__ = (
        "_closed",
        "_task",
        "audience",
        "connection",
        "encounter_id",
        "live",
        "services",
        "stated",
        "subscriber",
        "until",
    )

    def __init__(
        self,
        live: Live,
        services: Services,
        encounter_id: UUID,
        audience: Audience,
        subscriber: Subscriber,
        *,
        until: int | None,
        stated: int | None,
        connection: Connection | None,
    ) -> None:
        self.live, self.services, self.encounter_id = live, services, encounter_id
        self.audience, self.subscriber = audience, subscriber
        self.until, self.stated, self.connection = until, stated, connection
        self._task: asyncio.Task[None] | None = None
        """The catch-up of a taken-over stream whose client fell behind, while it runs."""
        self._closed = False
        metrics.live_subscribed()

    @property
    def owned(self) -> bool:
        """The stream's connection owns it: its ASGI call has returned or may."""
        return self.connection is not None and self.connection.owned

    async def chunks(self) -> AsyncGenerator[bytes]:
        """The stream's bytes: catch up from PostgreSQL, then what the feed offers.

        Reading until a short page reaches at least the feed's version at joining, and
        the feed offers everything after it, so skipping what was already sent leaves no
        gap and no duplicate.  After an overflow of the backlog (a slow client), the same
        catch-up again.  When the client stated a version (``stated``), a page may come
        from a replica that holds both it and the feed's version (api/http/read_routing.py).

        Ends when the stream must (``until`` sent, token revoked, database away), or,
        for a stream that follows forever, once it is caught up and its connection owns
        it (``owned``): the feed writes from there on."""
        subscriber, until, page = self.subscriber, self.until, self.live.hub.page
        catching_up = True
        while until is None or subscriber.last < until:
            if subscriber.ended:
                return  # revoked (the reconnect gets its 401), or the database is away
            if catching_up:
                subscriber.overflowed = False
                feed = self.live.hub.feeds.get(self.encounter_id)
                joined = None if feed is None else feed.version
                needed = None if self.stated is None else highest(self.stated, joined)
                try:
                    async with read_at(self.services, self.encounter_id, needed, live=True) as at:
                        events = await read_stream(
                            at.db,
                            self.encounter_id,
                            after_version=subscriber.last,
                            up_to_version=until,
                            limit=page,
                        )
                        messages = await encode_for(self.encounter_id, self.audience, events, at.db)
                except _DATABASE_ERRORS as exc:
                    # Headers are long sent: end the stream cleanly; the client reconnects
                    # with Last-Event-ID (and sees 503 while the database is away).
                    log.warning(
                        "live stream of %s ends: database away (%r)", self.encounter_id, exc
                    )
                    return
                metrics.live_sent(len(messages))
                if messages:
                    yield b"".join(m.data for m in messages)
                if events:
                    subscriber.last = events[-1].stream_version
                catching_up = len(events) == page or subscriber.overflowed
                continue
            if self._hand_over():
                return
            await subscriber.wait()
            for message in subscriber.take():
                if subscriber.ended:
                    return
                if message.version is None:
                    yield message.data
                elif message.version > subscriber.last:
                    if until is not None and message.version > until:
                        return
                    yield message.data
                    subscriber.last = message.version
            catching_up = subscriber.overflowed

    def _hand_over(self) -> bool:
        """Everything before is sent: let the feed write, the connection owning the
        stream (taken over now, or still, after a catch-up).  Nothing awaits between the
        checks and ``direct``, so no offer falls between the two."""
        subscriber, connection = self.subscriber, self.connection
        if self.until is not None or connection is None:
            return False
        if subscriber.backlog or subscriber.overflowed or subscriber.ended:
            return False
        if not connection.owned:
            if not connection.take_over(self._lost):
                return False
            connection.on_shutdown = subscriber.end
            subscriber.on_idle = self._woken
        subscriber.direct = True
        return True

    def _woken(self) -> None:
        """The feed has news for a taken-over stream that no task waits for: it must end,
        or its client fell behind (the feed stopped writing to it)."""
        if self._task is not None:
            return  # the catch-up under way sees it
        if self.subscriber.ended:
            # Not now: the feed is going over its subscribers, of which this one leaves.
            asyncio.get_running_loop().call_soon(self._end)
        elif self.subscriber.overflowed or self.subscriber.backlog:
            self._task = asyncio.get_running_loop().create_task(
                self._catch_up(), name=f"live-catch-up-{self.encounter_id}"
            )

    async def _catch_up(self) -> None:
        """Send what the client missed as it takes it, then hand the stream back to the
        feed (``chunks`` returns with ``direct`` set), or end it."""
        connection = self.connection
        assert connection is not None
        try:
            async for body in self.chunks():
                if not await connection.send(body):
                    break
        except Exception:
            log.exception("live catch-up of %s failed", self.encounter_id)
        finally:
            self._task = None
            if not self.subscriber.direct:
                self._end()

    def _lost(self) -> None:
        """The client went (told by the connection's protocol)."""
        task = self._task
        if task is not None:
            task.cancel()  # its end closes the record
        else:
            asyncio.get_running_loop().call_soon(self._end)

    def _end(self) -> None:
        """End a taken-over stream: its response's last chunk, then leave the feed."""
        if self.connection is not None:
            self.connection.finish()
        self.close()

    def close(self) -> None:
        """Leave the feed (once); the response is ended by whoever sends it."""
        if self._closed:
            return
        self._closed = True
        subscriber = self.subscriber
        subscriber.direct = False
        subscriber.on_idle = None
        self.live.hub.leave(self.encounter_id, subscriber)
        metrics.live_unsubscribed()
