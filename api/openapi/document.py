"""The OpenAPI document, completed on top of what Litestar generates when it is first
asked for.

Litestar documents each route from its signature; what a client generator and Swagger
UI also need (errors, tokens, header limits, unique schema names, discriminators and
examples) is added here in one pass over the whole document, so routes written later
get it without declaring anything.  The passes work on the JSON form Litestar serves,
which it builds on the first request under /schema and keeps; building and completing
it costs about 1.5 s of CPU, which only a process that serves the document pays (not
every start of the service or of a test's app).  Reaching it takes Litestar's
internals, so on a Litestar other than the tested one the document is served as
Litestar generates it (api/litestar_internals.py).
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar

from api import litestar_internals
from api.openapi import fields, operations, params, schemas


def complete(app: Litestar, doc: dict[str, Any]) -> None:
    """Every pass, in order, over the document Litestar generated for ``app``."""
    fields.complete(doc)
    schemas.complete(doc)
    params.complete(doc)
    operations.complete(app, doc)


def complete_when_built(app: Litestar) -> None:
    """Have ``app`` serve the completed document, built on its first /schema request."""
    litestar_internals.complete_openapi_on_first_use(app, complete)
