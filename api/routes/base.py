"""What every route under one encounter (or one campaign) shares, declared once: the path
prefix, the token guard (a request without a valid token is refused before anything else of it is
read), the ``viewer`` dependency (its token checked against that encounter, api/http/auth.py),
the ``write`` one (actor, If-Match, Idempotency-Key, api/http/writes.py) and ``read_from``, the
database a read runs on (a replica that has the version the client needs, or the primary:
api/http/read_routing.py)."""

from __future__ import annotations

from litestar import Controller
from litestar.di import Provide

from api.http.auth import provide_viewer, token_checked
from api.http.campaign_auth import campaign_token_checked, provide_campaign_viewer
from api.http.read_routing import provide_read_from
from api.http.writes import provide_write
from api.openapi.operations import CAMPAIGN_TOKEN, ENCOUNTER_TOKEN


class EncounterRoutes(Controller):
    """Base of the controllers of ``/encounters/{encounter_id}``: no read or write of an
    encounter happens without a token of it (or the service key)."""

    path = "/encounters/{encounter_id:uuid}"
    guards = [token_checked]  # noqa: RUF012 (Litestar's own attribute)
    dependencies = {  # noqa: RUF012 (Litestar's own attribute)
        "viewer": Provide(provide_viewer),
        "write": Provide(provide_write),
        "read_from": Provide(provide_read_from),
    }
    security = [{ENCOUNTER_TOKEN: []}]  # noqa: RUF012 (Litestar's own attribute)


class CampaignRoutes(Controller):
    """Base of the controllers of ``/campaigns/{campaign_id}``: none without a token of
    the campaign (or the service key); ``viewer`` is checked against that campaign."""

    path = "/campaigns/{campaign_id:uuid}"
    tags = ("campaigns",)
    guards = [campaign_token_checked]  # noqa: RUF012 (Litestar's own attribute)
    dependencies = {  # noqa: RUF012 (Litestar's own attribute)
        "viewer": Provide(provide_campaign_viewer),
        "write": Provide(provide_write),
    }
    security = [{CAMPAIGN_TOKEN: []}]  # noqa: RUF012 (Litestar's own attribute)
