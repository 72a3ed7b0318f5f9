"""Corrections to the OpenAPI document Litestar generates, applied once at start-up.

Both were found by schemathesis (tests/fuzz/test_openapi.py): responses that did not match
the document although the service behaved as designed.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from litestar.openapi.spec import OpenAPI, OpenAPIMediaType, OpenAPIResponse, OpenAPIType, Schema

_PROBLEM = Schema(
    type=OpenAPIType.OBJECT,
    required=["type", "title", "status", "detail"],
    properties={
        "type": Schema(type=OpenAPIType.STRING, description="URI naming the kind of problem."),
        "title": Schema(type=OpenAPIType.STRING),
        "status": Schema(type=OpenAPIType.INTEGER),
        "detail": Schema(type=OpenAPIType.STRING, description="What was wrong, for people."),
    },
    description="RFC 9457 problem document; some kinds add members (errors, current_version).",
)


def _document_problems(openapi: OpenAPI) -> None:
    """Every error response is a problem document served as application/problem+json;
    Litestar documents its own ``{status_code, detail, extra}`` JSON instead."""
    for path_item in (openapi.paths or {}).values():
        operations = (path_item.get, path_item.post, path_item.put, path_item.patch)
        for operation in (*operations, path_item.delete):
            for status, response in ((operation and operation.responses) or {}).items():
                if status[:1] in ("4", "5") and isinstance(response, OpenAPIResponse):
                    response.content = {"application/problem+json": OpenAPIMediaType(_PROBLEM)}


def _drop_any_alternatives(node: Any) -> None:
    """``tuple[X, ...]`` comes out as ``items: {oneOf: [X, {}]}``: the ellipsis becomes an
    empty schema that matches everything, so every valid item matched two alternatives
    and failed ``oneOf``.  Dropping the empty alternative leaves ``X``."""
    if isinstance(node, Schema) and node.one_of and Schema() in node.one_of:
        node.one_of = [s for s in node.one_of if s != Schema()]
    if is_dataclass(node):
        for f in fields(node):
            _drop_any_alternatives(getattr(node, f.name))
    elif isinstance(node, list | tuple):
        for item in node:
            _drop_any_alternatives(item)
    elif isinstance(node, dict):
        for item in node.values():
            _drop_any_alternatives(item)


def correct(openapi: OpenAPI) -> None:
    _document_problems(openapi)
    _drop_any_alternatives(openapi)
