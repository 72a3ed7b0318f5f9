"""A webhook receiver the tests run on loopback: a real HTTP server (uvicorn) in the test's
own event loop that records every request and answers as the test scripts it: fail,
hang past the sender's timeout, or accept."""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import uvicorn


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    status: int

    def json(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """An ASGI app; ``script`` holds the answers to give next ("ok", "fail": HTTP 500,
    "hang": no answer for ``hang_seconds``, then a 500, "busy": 429 with Retry-After 0.1),
    then every request is accepted.
    ``delay`` slows every answer down."""

    def __init__(self, hang_seconds: float = 5.0, delay: float = 0.0) -> None:
        self.delay = delay
        self.received: list[Received] = []
        self.script: deque[str] = deque()
        self.hang_seconds = hang_seconds
        self.arrived = asyncio.Condition()
        self.url = ""
        self.accept: Callable[[Received], bool] = lambda r: True

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        action = self.script.popleft() if self.script else "ok"
        status = {"fail": 500, "hang": 500, "busy": 429}.get(action, 204)
        async with self.arrived:  # recorded as it arrives, in the order it arrives
            self.received.append(Received(headers, body, status))
            self.arrived.notify_all()
        if action == "hang":
            await asyncio.sleep(self.hang_seconds)
        elif self.delay:
            await asyncio.sleep(self.delay)
        headers_out = [(b"retry-after", b"0.1")] if status == 429 else []
        await send({"type": "http.response.start", "status": status, "headers": headers_out})
        await send({"type": "http.response.body", "body": b"receiver says no" * (status != 204)})

    @property
    def accepted(self) -> list[Received]:
        return [r for r in self.received if r.status == 204]

    async def wait_for(self, predicate: Callable[[], bool], seconds: float = 30) -> None:
        async with asyncio.timeout(seconds), self.arrived:
            await self.arrived.wait_for(predicate)


@asynccontextmanager
async def receiving(receiver: Receiver, path: str = "/hook") -> AsyncIterator[Receiver]:
    config = uvicorn.Config(receiver, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    server.capture_signals = nullcontext  # type: ignore[method-assign,assignment]
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
        assert not task.done(), "the receiver did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    receiver.url = f"http://127.0.0.1:{port}{path}"
    try:
        yield receiver
    finally:
        server.should_exit = server.force_exit = True
        await task
