"""Responses whose body is JSON the service already encoded.

The pipeline hands back the exact bytes it stored for idempotent replay; re-decoding and
re-encoding them would cost time and could change them.  The handler keeps its precise
return annotation (``Response[CommandResult]`` ...) so the OpenAPI document stays exact.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from litestar import Response
from litestar.response.base import ASGIResponse

from api import litestar_internals

if TYPE_CHECKING:
    from litestar import Litestar, Request
    from litestar.background_tasks import BackgroundTask, BackgroundTasks
    from litestar.datastructures import Cookie
    from litestar.enums import MediaType
    from litestar.types import TypeEncodersMap


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


class EncodedJSON(Response[bytes]):
    """A response of JSON bytes, sent as they are.

    Where the route adds nothing of its own (no response headers, cookies or background
    task, as none of the service's do), the ASGI response is built in one pass
    (``litestar_internals.encoded_json``); otherwise, and on a Litestar the service was
    not tested with, Litestar builds it."""

    __slots__ = ()

    def to_asgi_response(
        self,
        app: Litestar | None,
        request: Request[Any, Any, Any],
        *,
        background: BackgroundTask | BackgroundTasks | None = None,
        cookies: Iterable[Cookie] | None = None,
        encoded_headers: Iterable[tuple[bytes, bytes]] | None = None,
        headers: dict[str, str] | None = None,
        is_head_response: bool = False,
        media_type: MediaType | str | None = None,
        status_code: int | None = None,
        type_encoders: TypeEncodersMap | None = None,
    ) -> ASGIResponse:
        ours_alone = not (
            app or background or self.background or cookies or self.cookies or headers
        )
        if ours_alone and self.status_code is not None and not encoded_headers:
            lean = (
                None
                if is_head_response
                else litestar_internals.encoded_json(self.content, self.status_code, self.headers)
            )
            if lean is not None:
                return lean
        return super().to_asgi_response(
            app,
            request,
            background=background,
            cookies=cookies,
            encoded_headers=encoded_headers,
            headers=headers,
            is_head_response=is_head_response,
            media_type=media_type,
            status_code=status_code,
            type_encoders=type_encoders,
        )


def json_bytes(
    body: bytes, *, status_code: int = 200, headers: dict[str, str] | None = None
) -> Response[Any]:
    return EncodedJSON(
        body, status_code=status_code, media_type="application/json", headers=headers
    )
