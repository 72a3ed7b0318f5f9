"""The OpenAPI document completed once at start-up, on top of what Litestar generates.

Litestar documents each route from its signature; what a client generator and Swagger
UI also need (errors, tokens, header limits, unique schema names, discriminators and
examples) is added here in one pass over the whole document, so routes written later
get it without declaring anything.  The passes work on the JSON form Litestar serves,
which it builds once and keeps; reaching it takes Litestar's internals, so on a Litestar
other than the tested one the document is served as Litestar generates it
(api/litestar_internals.py).
"""

from __future__ import annotations

from litestar import Litestar

from api import (
    litestar_internals,
    openapi_fields,
    openapi_operations,
    openapi_params,
    openapi_schemas,
)


def complete(app: Litestar) -> None:
    doc = litestar_internals.openapi_document(app)
    if doc is None:
        return
    openapi_fields.complete(doc)
    openapi_schemas.complete(doc)
    openapi_params.complete(doc)
    openapi_operations.complete(app, doc)
