"""The response of a live stream: Litestar's ``Stream`` with a leaner body loop.

Litestar streams a body from a task of an anyio task group while the request's task
waits for the client to go; with ten thousand idle streams those objects were a fair
share of what each one held.  Here the request's own task sends the body, and one plain
asyncio task waits for the disconnect and cancels it: the same behaviour (a stream ends
as soon as its client goes) with one task and no task group per stream.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.response.streaming import ASGIStreamingResponse
from litestar.types import HTTPResponseBodyEvent, Receive, Send

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class _LiveBody(ASGIStreamingResponse):
    __slots__ = ()

    async def send_body(self, send: Send, receive: Receive) -> None:
        sender = asyncio.current_task()
        assert sender is not None

        def client_left(listener: asyncio.Future[None]) -> None:
            if not listener.cancelled() and listener.exception() is None:
                sender.cancel()

        gone = asyncio.ensure_future(_until_disconnect(receive))
        gone.add_done_callback(client_left)
        try:
            async for chunk in self.iterator:
                assert isinstance(chunk, bytes)
                event: HTTPResponseBodyEvent = {
                    "type": "http.response.body",
                    "body": chunk,
                    "more_body": True,
                }
                await send(event)
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
            aclose = getattr(self.iterator, "aclose", None)
            if aclose is not None:
                await aclose()


class LiveStream(Stream):
    """``text/event-stream`` of the bytes an async iterator yields."""

    __slots__ = ()

    def __init__(self, content: Any) -> None:
        super().__init__(content, media_type="text/event-stream", headers=SSE_HEADERS)

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        response = super().to_asgi_response(*args, **kwargs)
        response.__class__ = _LiveBody
        return response
