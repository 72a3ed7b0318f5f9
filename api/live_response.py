"""The response of a live stream: Litestar's ``Stream`` with a leaner body loop.

Litestar streams a body from a task of an anyio task group while the request's task
waits for the client to go; with ten thousand idle streams those objects were a fair
share of what each one held.  Here the request's own task sends the body and is
cancelled when the client goes: told so by the service's protocol when it exposes the
connection (api/live_transport.py), else by one plain asyncio task reading ``receive``.
The same behaviour (a stream ends as soon as its client goes) with at most one task; and
with the service's protocol, none at all once the stream has caught up and its
connection owns it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.response.streaming import ASGIStreamingResponse
from litestar.types import HTTPResponseBodyEvent, Receive, Send

from api.live_transport import Connection

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class _Body:
    """A stream's bytes and, when the server exposed it, its connection."""

    __slots__ = ("chunks", "connection")

    def __init__(self, chunks: AsyncGenerator[bytes], connection: Connection | None) -> None:
        self.chunks, self.connection = chunks, connection

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.chunks


class _LiveBody(ASGIStreamingResponse):
    __slots__ = ()

    async def send_body(self, send: Send, receive: Receive) -> None:
        body = self.iterator
        assert isinstance(body, _Body)
        if body.connection is not None:
            await self._send_told(send, body.chunks, body.connection)
            return
        sender = asyncio.current_task()
        assert sender is not None

        def client_left(listener: asyncio.Future[None]) -> None:
            if not listener.cancelled() and listener.exception() is None:
                sender.cancel()

        gone = asyncio.ensure_future(_until_disconnect(receive))
        gone.add_done_callback(client_left)
        try:
            await _send_chunks(send, body.chunks)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not (gone.done() and not gone.cancelled() and gone.exception() is None):
                raise  # cancelled from outside (shutdown), not by the client leaving
            sender.uncancel()
        finally:
            gone.remove_done_callback(client_left)
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gone
            await body.chunks.aclose()

    @staticmethod
    async def _send_told(send: Send, chunks: AsyncGenerator[bytes], connection: Connection) -> None:
        """The body loop when the protocol tells ``connection`` that the client left.
        When the body ends because the connection took the stream over
        (api/live_transport.py), the call returns with the response left open: uvicorn
        drops the closing send, and the connection's owner ends it later."""
        sender = asyncio.current_task()
        assert sender is not None
        left = False

        def client_left() -> None:
            nonlocal left
            left = True
            sender.cancel()

        connection.on_lost = client_left
        try:
            if not connection.gone:
                await _send_chunks(send, chunks)
            if not connection.owned:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not left:
                raise  # cancelled from outside (shutdown), not by the client leaving
            sender.uncancel()
        finally:
            if connection.on_lost is client_left:
                connection.on_lost = None
            await chunks.aclose()


async def _send_chunks(send: Send, chunks: AsyncGenerator[bytes]) -> None:
    """Each chunk as a part of the body, more to come."""
    async for chunk in chunks:
        event: HTTPResponseBodyEvent = {
            "type": "http.response.body",
            "body": chunk,
            "more_body": True,
        }
        await send(event)


class LiveStream(Stream):
    """``text/event-stream`` of the bytes an async iterator yields."""

    __slots__ = ()

    def __init__(self, chunks: AsyncGenerator[bytes], connection: Connection | None) -> None:
        super().__init__(
            _Body(chunks, connection), media_type="text/event-stream", headers=SSE_HEADERS
        )

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        response = super().to_asgi_response(*args, **kwargs)
        response.__class__ = _LiveBody
        return response
