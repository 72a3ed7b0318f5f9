"""What every route under one encounter shares, declared once: the path prefix, the
``viewer`` dependency (its token checked against that encounter, api/auth.py) and the
``write`` one (actor, If-Match, Idempotency-Key, api/writes.py)."""

from __future__ import annotations

from litestar import Controller
from litestar.di import Provide

from api.auth import provide_viewer
from api.openapi_operations import ENCOUNTER_TOKEN
from api.writes import provide_write


class EncounterRoutes(Controller):
    """Base of the controllers of ``/encounters/{encounter_id}``: no read or write of an
    encounter happens without a token of it (or the service key)."""

    path = "/encounters/{encounter_id:uuid}"
    dependencies = {  # noqa: RUF012 (Litestar's own attribute)
        "viewer": Provide(provide_viewer),
        "write": Provide(provide_write),
    }
    security = [{ENCOUNTER_TOKEN: []}]  # noqa: RUF012 (Litestar's own attribute)
