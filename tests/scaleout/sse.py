"""A small Server-Sent Events reader for the live-update tests (the parsing rules of the
HTML standard that the service relies on: ``id``, ``event``, ``data``, comments)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable
from typing import Any, NamedTuple

import httpx


class Message(NamedTuple):
    id: int
    event: str
    data: dict[str, Any]


def parse(lines: Iterable[str]) -> list[Message]:
    """Every complete message in ``lines`` (a whole response body, split into lines)."""
    messages: list[Message] = []
    fields: dict[str, list[str]] = {}
    for line in lines:
        message = _feed(fields, line)
        if message is not None:
            messages.append(message)
    return messages


async def follow(response: httpx.Response) -> AsyncIterator[Message]:
    """Messages of a streaming response as they arrive."""
    fields: dict[str, list[str]] = {}
    async for line in response.aiter_lines():
        message = _feed(fields, line)
        if message is not None:
            yield message


def _feed(fields: dict[str, list[str]], line: str) -> Message | None:
    line = line.rstrip("\r\n")
    if line == "":
        data, ident, event = fields.get("data"), fields.get("id"), fields.get("event")
        fields.clear()
        if data is None:
            return None  # a comment or a bare retry: not a message
        assert ident is not None and event is not None, "every live message has id and event"
        return Message(int(ident[-1]), event[-1], json.loads("\n".join(data)))
    if line.startswith(":"):
        return None
    name, _, value = line.partition(":")
    fields.setdefault(name, []).append(value.removeprefix(" "))
    return None
