"""The OpenAPI document completed once at start-up, on top of what Litestar generates.

Litestar documents each route from its signature; what a client generator and Swagger
UI also need (errors, tokens, header limits, unique schema names, discriminators and
examples) is added here in one pass over the whole document, so routes written later
get it without declaring anything.  The passes work on the JSON form Litestar serves,
which it builds once and keeps.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin

from api import openapi_fields, openapi_operations, openapi_params, openapi_schemas


def document(app: Litestar) -> dict[str, Any]:
    """The served document; the passes below change it in place."""
    served: dict[str, Any] = app.plugins.get(OpenAPIPlugin).provide_openapi_schema()
    return served


def complete(app: Litestar) -> None:
    doc = document(app)
    openapi_fields.complete(doc)
    openapi_schemas.complete(doc)
    openapi_params.complete(doc)
    openapi_operations.complete(app, doc)
