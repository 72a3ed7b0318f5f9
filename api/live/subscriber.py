"""One open live stream's place in its encounter's feed: the audience whose encoding it
receives, its token, its bounded backlog, and the connection the feed writes to once the
stream follows it (api/live/feed.py explains why a feed writes for its subscribers)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import NamedTuple

from api.uvicorn_internals import Connection, chunk

Audience = str
"""Whose view an encoding is: ``"gm"`` or ``"player"`` (the keys of api/live/wire.py)."""


class Message(NamedTuple):
    """One SSE message, encoded: ``version`` None for a comment (keepalive)."""

    version: int | None
    data: bytes


class Subscriber:
    """One open stream's place in a feed: its audience, its token, its bounded backlog,
    and, once it follows the feed, the connection the feed writes to for it.

    Kept small (ten thousand of them may wait at once): a list rather than a deque, and
    a future only while the stream waits, rather than an ``asyncio.Event`` each."""

    __slots__ = (
        "_waiter",
        "audience",
        "backlog",
        "connection",
        "direct",
        "ended",
        "last",
        "limit",
        "on_idle",
        "overflowed",
        "token_id",
    )

    def __init__(
        self,
        audience: Audience,
        token_id: str | None,
        limit: int,
        last: int = 0,
        connection: Connection | None = None,
    ) -> None:
        self.audience, self.token_id, self.limit = audience, token_id, limit
        self.backlog: list[Message] = []
        self._waiter: asyncio.Future[None] | None = None
        self.last = last
        """The version of the last event sent to the client."""
        self.connection = connection
        """Where the feed may write for this stream (api/uvicorn_internals.py), if anywhere."""
        self.direct = False
        """The feed writes to ``connection`` itself: set by the stream once it has sent
        everything before (and its connection took the stream over); cleared when the
        client stops keeping up."""
        self.on_idle: Callable[[], None] | None = None
        """Called instead of waking the stream when no task waits for it (a stream its
        connection owns: api/live/follow.py)."""
        self.overflowed = False
        """Messages were dropped: read from PostgreSQL after the last one sent."""
        self.ended = False
        """The stream must end: its token was revoked, or the feed lost the database."""

    def offer(self, messages: Sequence[Message], framed: bytes | None = None) -> None:
        """``messages`` for this stream; ``framed``: the same as one chunk, for a direct
        write, when the feed has it."""
        if self.overflowed or self.ended or not messages:
            return  # the catch-up read will include them
        if self.direct:
            self._write(messages, framed)
            return
        if len(self.backlog) + len(messages) > self.limit:
            self.backlog = []
            self.overflowed = True
        else:
            self.backlog.extend(messages)
        self._wake()

    def _write(self, messages: Sequence[Message], framed: bytes | None) -> None:
        """Write to the connection.  What the stream's own catch-up already sent is
        skipped; a client that does not keep up (or is gone) is handed back to the
        stream, which reads what it missed from PostgreSQL."""
        assert self.connection is not None
        first = messages[0].version
        if first is not None and first <= self.last:
            messages = [m for m in messages if m.version is None or m.version > self.last]
            if not messages:
                return
            framed = None
        if framed is None:
            framed = chunk(b"".join(m.data for m in messages))
        if self.connection.write(framed):
            for message in reversed(messages):
                if message.version is not None:
                    self.last = message.version
                    break
            return
        self.direct = False
        if self.connection.gone:
            self.end()
        else:
            self.overflowed = True
            self._wake()

    def end(self) -> None:
        self.ended = True
        self._wake()

    def take(self) -> list[Message]:
        """The backlog, emptied."""
        messages, self.backlog = self.backlog, []
        return messages

    async def wait(self) -> None:
        """Until there is something to send, to catch up on, or the stream must end."""
        if self.backlog or self.overflowed or self.ended:
            return
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    def _wake(self) -> None:
        if self._waiter is not None:
            if not self._waiter.done():
                self._waiter.set_result(None)
        elif self.on_idle is not None:
            self.on_idle()
