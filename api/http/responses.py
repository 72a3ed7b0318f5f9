"""Responses whose body is JSON the service already encoded.

The pipeline hands back the exact bytes it stored for idempotent replay; re-decoding and
re-encoding them would cost time and could change them.  The handler keeps its precise
return annotation (``Response[CommandResult]`` ...) so the OpenAPI document stays exact.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
from litestar import Response


class _Link(msgspec.Struct):
    hash: str


class AnswerHead(msgspec.Struct):
    """A command answer's version and its events' hashes (the last is the new head)."""

    encounter_id: UUID
    version: int
    events: list[_Link] = []

    def chain_head(self) -> tuple[int, str] | None:
        """The head the command moved the stream to; None when it appended nothing."""
        if not self.events:
            return None
        return self.version, self.events[-1].hash


read_answer_head = msgspec.json.Decoder(AnswerHead).decode


def json_bytes(
    body: bytes, *, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response[Any]:
    return Response(body, status_code=status_code, media_type="application/json", headers=headers)
