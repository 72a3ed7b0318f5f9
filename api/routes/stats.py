"""Combat statistics of one encounter (projections/stats.py; docs/statistics.md)."""

from __future__ import annotations

from uuid import UUID

from litestar import Response, get
from litestar.di import NamedDependency
from litestar.params import FromPath

from api.routes.base import EncounterRoutes
from api.routes.reads import At, ensure_version, head_headers
from api.state import Services
from events.replicas import ReadFrom
from projections.stats import encounter_stats
from service.combat_stats import EncounterStats
from service.tokens import Viewer


class EncounterStatistics(EncounterRoutes):
    tags = ("reads",)

    @get("/stats", operation_id="getStats", summary="Combat statistics")
    async def get_stats(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        at: At = None,
    ) -> Response[EncounterStats]:
        """Damage dealt and taken, healing, attacks with hits, misses, criticals and fumbles,
        rolls and turns per combatant with the time per turn, and the faces seen per die size
        for server and manual dice with a chi-square test of fairness. Undone events leave
        the combat figures but their dice still count; players see nothing of secret GM
        rolls until they are revealed."""
        head = await ensure_version(services, encounter_id, at, read_from.db)
        stats = await encounter_stats(read_from.db, encounter_id, at=at, gm=viewer.is_gm)
        return Response(stats, headers=head_headers(head))
