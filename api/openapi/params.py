"""The request headers the service reads, with the limits it enforces, in every operation
that takes them: a value the document allows is never refused as malformed.

The patterns are the accepted forms (api/http/headers.py); a version is documented up to nine
digits, short of the 2^31-1 the service accepts, because a pattern cannot bound a number.
"""

from __future__ import annotations

from typing import Any

from api.http.headers import MAX_IDEMPOTENCY_KEY, MAX_VERSION

Json = dict[str, Any]

_VERSION = "[0-9]{1,9}"

HEADERS: dict[str, Json] = {
    "If-Match": {
        "type": "string",
        "pattern": f'^(\\*|(W/)?"{_VERSION}"|{_VERSION})$',
        "examples": ['"7"'],
        "description": 'The stream version the client read, as its ETag ("7"); `*` or no '
        "header: whatever the current version is. A stale one is a 409 with "
        "`current_version`.",
    },
    "If-None-Match": {
        "type": "string",
        "examples": ['"7"'],
        "description": "The ETag the client holds: 304 while the encounter is still there.",
    },
    "Idempotency-Key": {
        "type": "string",
        "pattern": f"^[!-~]([ -~]{{0,{MAX_IDEMPOTENCY_KEY - 2}}}[!-~])?$",
        "examples": ["7f9c2b1e-cmd-42"],
        "description": f"1 to {MAX_IDEMPOTENCY_KEY} printable characters. The same key with "
        "the same body writes once and answers as the first time; with another body it "
        "is a 422. Scoped to the token that sends it.",
    },
    "X-Correlation-ID": {
        "type": "string",
        "pattern": "^[ -~]{0,200}$",
        "examples": ["req-5d1c"],
        "description": "Stored in the metadata of the events the request appends (at most "
        "200 characters).",
    },
    "Last-Event-ID": {
        "type": "string",
        "pattern": f"^{_VERSION}$",
        "examples": ["12"],
        "description": "The last stream version received (what a reconnecting EventSource "
        "sends): the stream resumes right after it.",
    },
    "X-Min-Version": {
        "type": "string",
        "pattern": f"^{_VERSION}$",
        "examples": ["42"],
        "description": "The encounter version this read must include, such as the version "
        "your last write returned: lets a read replica answer without losing your write "
        "(docs/scale-out.md).",
    },
}


def _bound_integers(schema: Any) -> None:
    """Every number in a path or query parameter counts something (a version, a round, a
    page size) and ends up a PostgreSQL integer: at least 0 (Litestar drops a ``ge=0``)
    and at most 2^31-1, as the service checks.  (An optional one stays ``oneOf`` with
    ``null``: the service reads ``?at=null`` as no value.)"""
    if isinstance(schema, dict):
        if schema.get("type") == "integer":
            schema.setdefault("minimum", 0)
            schema.setdefault("maximum", MAX_VERSION)
        for value in schema.values():
            _bound_integers(value)
    elif isinstance(schema, list):
        for value in schema:
            _bound_integers(value)


def complete(doc: Json) -> None:
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "header" and parameter.get("name") in HEADERS:
                    schema = dict(HEADERS[parameter["name"]])
                    parameter["description"] = schema.pop("description")
                    parameter["schema"] = schema
                elif parameter.get("in") in ("path", "query"):
                    _bound_integers(parameter.get("schema"))
            if any(p.get("name") == "Prefer" for p in operation.get("parameters", [])):
                _representation(operation)


def _representation(operation: Json) -> None:
    """A write that honours ``Prefer: return=representation`` says what it adds: ``state``
    and ``log`` beside its events, and the ``Preference-Applied`` header.  Said in words,
    not by a second schema: the answer stays the one type (``CommandResult``) a generated
    client knows, and the two members come in its additional properties."""
    for status, response in operation.get("responses", {}).items():
        if not status.startswith("2"):
            continue
        response.setdefault("headers", {})["Preference-Applied"] = {
            "description": "`return=representation` when the answer carries state and log.",
            "schema": {"type": "string"},
        }
        response["description"] = (
            f"{response.get('description', '')} With `Prefer: return=representation` it also"
            " carries `state` (the encounter after the command, as the caller may see it) and"
            " `log` (the command's log lines, entries of GET /encounters/{id}/log)."
        ).strip()
