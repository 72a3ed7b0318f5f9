"""What every operation of the OpenAPI document says about errors, tokens and headers.

Derived from each route's shape rather than written per route, so a route added later
documents its errors the same way: a route with a body can answer 413, 415 and 422, one
under an encounter 401, 403 and 404, one that writes there 409, one that reads storage
503, and every route the rate limiter counts 429.  Each error is the problem document
(``Problem``) with the members some kinds add.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import msgspec
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.routes import HTTPRoute

from api.http.limits import UNLIMITED_PATHS
from service.dice.model import NeededDice

Json = dict[str, Any]

ENCOUNTER_TOKEN = "encounterToken"  # noqa: S105 (a scheme name, not a secret)
SERVICE_KEY = "serviceKey"
CAMPAIGN_TOKEN = "campaignToken"  # noqa: S105 (a scheme name, not a secret)

SECURITY_SCHEMES: Json = {
    ENCOUNTER_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "A token of this encounter: the GM token the creation answered with, a "
        "token minted at POST /encounters/{id}/tokens, or the service key.",
    },
    CAMPAIGN_TOKEN: {
        "type": "http",
        "scheme": "bearer",
        "description": "A token of this campaign: the GM token its creation answered with, "
        "or the service key. Encounter tokens do not open campaigns, nor campaign tokens "
        "encounters.",
    },
    SERVICE_KEY: {
        "type": "http",
        "scheme": "bearer",
        "description": "The service key (AEON_SERVICE_KEY). When the service has one, creating "
        "and listing encounters need it; without one they are open.",
    },
}

PROBLEM: Json = {
    "title": "Problem",
    "type": "object",
    "description": "An RFC 9457 problem document. `type` names the kind of problem; some "
    "kinds add members: `errors` (bad input, one entry per field), `current_version` (a "
    "stale If-Match or a version not reached), `rule` (where a refusing rule comes from) "
    "and `dice_needed` (manual dice that a command still needs).",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "description": "URI naming the kind of problem."},
        "title": {"type": "string", "description": "The status's phrase."},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string", "description": "What was wrong, for people."},
        "errors": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/ProblemFieldError"},
            "description": "Each field or parameter that was wrong.",
        },
        "current_version": {
            "type": "integer",
            "minimum": 0,
            "description": "The encounter's version now (also its ETag).",
        },
        "rule": {
            "type": "string",
            "description": "The section or numbered item of the rules text that refuses.",
        },
        "dice_needed": {"$ref": "#/components/schemas/DiceNeeded"},
    },
}

PROBLEM_FIELD_ERROR: Json = {
    "title": "ProblemFieldError",
    "type": "object",
    "properties": {
        "message": {"type": "string"},
        "key": {"type": "string", "description": "The field or parameter."},
        "source": {"type": "string", "description": "body, query, path or header."},
    },
}

DICE_NEEDED: Json = {
    **msgspec.json.schema(NeededDice)["$defs"]["NeededDice"],
    "title": "DiceNeeded",
    "description": "On a 422 `dice-needed`: the roll the command needs next, given the faces "
    "already entered, so a client can ask for exactly those dice and resend the command.",
}

_WHEN = {
    "400": "Malformed: JSON, a field, a parameter or a header value (`errors` names each).",
    "401": "No token, or one that is wrong, revoked or of another encounter.",
    "403": "The token's holder may not do this (a player acting for another, or a GM-only action).",
    "404": "No such encounter or resource, or a version not reached (`current_version`).",
    "409": "If-Match is stale (`current_version`, ETag), or the action conflicts with the "
    "encounter's history.",
    "413": "The body is larger than the service accepts (AEON_MAX_BODY_BYTES).",
    "415": "The body is not application/json.",
    "422": "Well-formed but refused: the rules forbid it (`detail` in the rules' words, "
    "`rule`), bad dice, options or manual dice (`dice_needed`), or a reused Idempotency-Key.",
    "429": "Over the rate limit: wait for Retry-After seconds.",
    "503": "The event store cannot be reached: try again after Retry-After seconds.",
}

_ANSWER_HEADERS = {
    "401": {"WWW-Authenticate": 'Bearer realm="aeon-ledger".'},
    "409": {"ETag": "The encounter's current version."},
    "429": {"Retry-After": "Seconds until a request will be accepted again."},
    "503": {"Retry-After": "Seconds to wait before trying again."},
}

_RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": "Requests allowed per window.",
    "RateLimit-Remaining": "Requests left in this window.",
    "RateLimit-Reset": "Seconds until the window resets.",
    "RateLimit-Policy": "The limit and its window, e.g. 600;w=60.",
}

_ENCOUNTER_HEADERS = {
    "ETag": "The encounter's stream version the answer describes or wrote.",
    "Aeon-Chain-Head": "`<version>:<hash>` of the hash chain's head (docs/tamper-evidence.md).",
    "Aeon-Chain-Signature": "HMAC of the head under AEON_CHAIN_KEY, when the service has one.",
}

_BODYLESS = {"get", "delete", "head", "options"}


def _handlers(app: Litestar) -> Iterator[tuple[str, str, HTTPRouteHandler]]:
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                for method in handler.http_methods:
                    yield route.path_format, method.lower(), handler


def _uses_storage(handler: HTTPRouteHandler) -> bool:
    """Whether the handler or a dependency it takes (at any depth) takes ``services``."""
    dependencies = handler.resolve_dependencies()
    seen: set[str] = set()
    names = list(handler.parsed_fn_signature.parameters)
    while names:
        name = names.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in dependencies:
            names.extend(inspect.signature(dependencies[name].dependency).parameters)
    return "services" in seen


def _statuses(path: str, method: str, operation: Json, storage: bool) -> list[str]:
    schemes = {name for requirement in operation.get("security", []) for name in requirement}
    has_body = "requestBody" in operation
    writes = method not in _BODYLESS
    statuses = []
    if operation.get("parameters") or has_body:
        statuses.append("400")
    if schemes:
        statuses.append("401")
    key_only = schemes == {SERVICE_KEY} and {} not in operation.get("security", [])
    if ENCOUNTER_TOKEN in schemes or CAMPAIGN_TOKEN in schemes or key_only:
        # An encounter's token may not allow it; a route of the service key alone
        # is closed while the service has no key.
        statuses.append("403")
    if "{" in path:
        statuses.append("404")
    if schemes & {ENCOUNTER_TOKEN, CAMPAIGN_TOKEN} and (writes or method == "delete"):
        statuses.append("409")
    if has_body:
        statuses += ["413", "415"]
    if writes:
        statuses.append("422")
    if not any(path.startswith(p) for p in UNLIMITED_PATHS):
        statuses.append("429")
    if storage:
        statuses.append("503")
    return statuses


def _header(description: str) -> Json:
    return {"description": description, "schema": {"type": "string"}}


def _document_answers(path: str, operation: Json, statuses: list[str]) -> None:
    responses: Json = operation.setdefault("responses", {})
    limited = "429" in statuses
    for status, response in responses.items():
        if status.startswith("2"):
            headers = response.setdefault("headers", {})
            if limited:
                headers.update({n: _header(d) for n, d in _RATE_LIMIT_HEADERS.items()})
            if path.startswith("/encounters/{"):
                headers.update({n: _header(d) for n, d in _ENCOUNTER_HEADERS.items()})
    if any(p.get("name") == "If-None-Match" for p in operation.get("parameters", [])):
        responses.setdefault(
            "304",
            {
                "description": "Not modified: the encounter is still at the version If-None-Match "
                "names.",
                "headers": {"ETag": _header(_ENCOUNTER_HEADERS["ETag"])},
            },
        )
    for status in statuses:
        if status in responses and not _litestar_error(responses[status]):
            continue  # the route documents this answer itself
        headers = {n: _header(d) for n, d in _ANSWER_HEADERS.get(status, {}).items()}
        if status == "429":
            headers.update({n: _header(d) for n, d in _RATE_LIMIT_HEADERS.items()})
        responses[status] = {
            "description": _WHEN[status],
            "headers": headers,
            "content": {
                "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            },
        }


def _litestar_error(response: Json) -> bool:
    """Litestar documents its own ``{status_code, detail, extra}`` JSON for the errors it
    raises; the service answers problem documents instead."""
    for media in response.get("content", {}).values():
        if "status_code" in media.get("schema", {}).get("properties", {}):
            return True
    return False


def complete(app: Litestar, doc: Json) -> None:
    components = doc.setdefault("components", {})
    components.setdefault("securitySchemes", {}).update(SECURITY_SCHEMES)
    schemas = components.setdefault("schemas", {})
    schemas.update(Problem=PROBLEM, ProblemFieldError=PROBLEM_FIELD_ERROR, DiceNeeded=DICE_NEEDED)
    storage = {(path, method): _uses_storage(handler) for path, method, handler in _handlers(app)}
    for path, path_item in doc.get("paths", {}).items():
        for method, operation in path_item.items():
            if isinstance(operation, dict) and "responses" in operation:
                statuses = _statuses(path, method, operation, storage.get((path, method), False))
                _document_answers(path, operation, statuses)
