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

from api import litestar_internals
from api.openapi import fields, operations, params, schemas


def complete(app: Litestar) -> None:
    doc = litestar_internals.openapi_document(app)
    if doc is None:
        return
    fields.complete(doc)
    schemas.complete(doc)
    params.complete(doc)
    operations.complete(app, doc)
