"""Request bodies are decoded strictly, before Litestar's own (lax) conversion runs.

Litestar converts a body with ``strict=False``: ``"hp": "7"`` and ``7.0`` become integers,
a manual face ``"7"`` a face.  The API documents JSON types, and a client that sends a
string where a number belongs has a bug it should hear about, so every route with a body
first decodes it here with msgspec in strict mode into the route's own body type.  The
same hook refuses a media type other than JSON (415) and a JSON object that repeats a key
(which JSON parsers resolve differently: the last, the first or an error), so what the
service acts on is exactly what the client meant.

Only a body that passes is converted by Litestar after this; strict success implies the
lax conversion gives the same value, so the handler sees what was checked here.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import HTTPException, ValidationException

_decoders: dict[int, msgspec.json.Decoder[Any]] = {}
"""One strict decoder per route handler (keyed by its id), built on its first body."""


async def check_body(request: Request[Any, Any, Any]) -> None:
    """``before_request`` hook of the app: 415, 400 or nothing (the body is fine)."""
    field = request.route_handler.parsed_data_field
    if field is None:
        return
    body = await request.body()
    if not body:
        return  # an optional body left out; a required one gets Litestar's 400
    _check_media_type(request.headers.get("content-type"))
    decoder = _decoders.get(id(request.route_handler))
    if decoder is None:
        decoder = msgspec.json.Decoder(field.annotation, strict=True)
        _decoders[id(request.route_handler)] = decoder
    try:
        decoder.decode(body)
    except msgspec.ValidationError as exc:
        raise _invalid(str(exc)) from None
    except msgspec.DecodeError:
        return  # malformed JSON: Litestar's decoder says where, as before
    _refuse_duplicate_keys(body)


def _check_media_type(content_type: str | None) -> None:
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        return
    raise HTTPException(
        status_code=415,
        detail=(
            f"The request body must be JSON sent as Content-Type: application/json, "
            f"not {content_type or 'without a Content-Type'}."
        ),
        headers={"Accept-Post": "application/json"},
    )


def _invalid(message: str) -> ValidationException:
    """A 400 naming the field: msgspec says ``Expected `int`, got `str` - at `$.command.hp```;
    the problem's detail keeps that sentence, its ``errors`` member the field's path."""
    reason, _, where = message.partition(" - at `$")
    key = where.rstrip("`").lstrip(".")
    error: dict[str, str] = {"message": reason, "source": "body"}
    if key:
        error["key"] = key
    detail = f"Invalid request body: {reason}" + (f" at `{key}`" if key else "")
    return ValidationException(detail=detail, extra=[error])


def _refuse_duplicate_keys(body: bytes) -> None:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise _invalid(f"The key {key!r} appears twice in one JSON object")
            seen.add(key)
        return dict(items)

    # Only for its hook: the body already decoded, so this cannot fail otherwise.
    json.loads(body, object_pairs_hook=pairs)
