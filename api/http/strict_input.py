"""Request bodies are decoded strictly, before Litestar's own (lax) conversion runs.

Litestar converts a body with ``strict=False``: ``"hp": "7"`` and ``7.0`` become integers,
a manual face ``"7"`` a face.  The API documents JSON types, and a client that sends a
string where a number belongs has a bug it should hear about, so every route with a body
first decodes it here with msgspec in strict mode into the route's own body type.  The
same hook refuses a media type other than JSON (415) and a JSON object that repeats a key
(which JSON parsers resolve differently: the last, the first or an error), so what the
service acts on is exactly what the client meant.

Only a body that passes reaches the handler; strict success implies the lax conversion
gives the same value, so the handler sees what was checked here.  On the tested Litestar
it is the very value decoded here (api/litestar_internals.py ``keep_decoded_body``),
which spares Litestar a second decode and conversion of every body.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import HTTPException, ValidationException

from api import litestar_internals
from api.state import Services
from projections.queries import encounter_ruleset
from service.codec import foreign_command
from service.registry import ruleset_of_command

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
        value = decoder.decode(body)
    except msgspec.ValidationError as exc:
        await _refuse_foreign_command(request, body)
        raise _invalid(str(exc)) from None
    except msgspec.DecodeError:
        return  # malformed JSON: Litestar's decoder says where, as before
    _refuse_duplicate_keys(body)
    litestar_internals.keep_decoded_body(request, value)


async def _refuse_foreign_command(request: Request[Any, Any, Any], body: bytes) -> None:
    """422 for a command of another ruleset than the encounter's, whose fields need not
    fit any command here: its type, not its shape, is what is wrong (and a 400 would say
    the client sent malformed input). Only a body that failed is looked at, so the
    lookup of the encounter's ruleset costs nothing on the way of a good one."""
    encounter_id = request.path_params.get("encounter_id")
    if encounter_id is None:
        return
    try:
        command = msgspec.json.decode(body).get("command")
        tag = command.get("type") if isinstance(command, dict) else None
    except (msgspec.DecodeError, AttributeError, RecursionError):
        return  # not an object, or nested past the decoder: the 400 says what is wrong
    if not isinstance(tag, str) or (owner := ruleset_of_command(tag)) is None:
        return
    services: Services = request.app.state.services
    ruleset = await encounter_ruleset(services.pool, encounter_id)
    if ruleset is not None and ruleset != owner:
        raise foreign_command(tag, ruleset)


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
    """400 when an object repeats a key.

    Every key/value pair of a JSON text has exactly one ``:`` token, and colons inside
    strings only add to ``body.count(b":")``; so when the decoded objects hold as many
    keys as the body has colons, no pair was lost to a repeated key.  That costs one C
    decode and a walk; only a body with colons in its strings (or a repeated key) takes
    the slow scan that finds the key by name.
    """
    if body.count(b":") == _keys(msgspec.json.decode(body)):
        return
    # The body already decoded, so this cannot fail but on a repeated key, or on nesting
    # this (Python) parser follows less deep than msgspec.
    try:
        _pairs_decoder.decode(body.decode())
    except RecursionError:
        raise _invalid("The JSON body is nested too deeply") from None


def _keys(value: Any) -> int:
    """The number of keys in every object of a decoded JSON value."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            count += len(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(items)
    if len(found) != len(items):
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise _invalid(f"The key {key!r} appears twice in one JSON object")
            seen.add(key)
    return found


_pairs_decoder = json.JSONDecoder(object_pairs_hook=_pairs)
