"""A lean keep-alive HTTP/1.1 client for load generation.

The load generator shares the 2 cores with the service and PostgreSQL, so it must cost
as little as possible: a general-purpose client (httpx) spends more CPU per request than
the service's own framework and would make the service look slower than it is.  This one
does exactly one request at a time per connection, with Content-Length bodies only.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import msgspec


class Response(msgspec.Struct):
    status: int
    body: bytes

    def json(self) -> object:
        return msgspec.json.decode(self.body)


class Connection:
    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> Response:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self._host, self._port)
        assert self._reader is not None
        head = [f"{method} {path} HTTP/1.1", f"host: {self._host}:{self._port}"]
        if body or method in ("POST", "PUT", "PATCH"):
            head += ["content-type: application/json", f"content-length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        try:
            raw = await self._reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            await self.close()
            raise ConnectionError("the server closed the connection") from None
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, close = 0, False
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding":
                raise ValueError("chunked responses are not supported by the bench client")
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        payload = await self._reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return Response(status, payload)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(ConnectionError):
                await self._writer.wait_closed()
        self._reader = self._writer = None
