"""The whole encounter as a portable archive (events/archive.py; docs/exports.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Literal
from uuid import UUID

from litestar import get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter
from litestar.response import Stream

from api.http.auth import require_gm
from api.http.read_routing import read_at
from api.routes.base import EncounterRoutes
from api.routes.reads import ensure_version, head_headers
from api.state import Services
from events.archive import archive_lines
from events.heads import SignedHead
from events.provenance import vouches_for
from events.replicas import ReadFrom
from service.authorize import Forbidden
from service.tokens import Viewer

ARCHIVE_MEDIA_TYPE = "application/jsonl"

Seeds = Annotated[
    Literal["revealed", "all"],
    QueryParameter(
        description="`revealed` (the default): the seeds the events have published. `all`"
        " (service key only): every stored seed as well, to move a game in progress to"
        " another service with its server dice."
    ),
]


def may_export(viewer: Viewer, seeds: Literal["revealed", "all"], what: str) -> None:
    """An export shows every event unredacted (GM or service key); its unpublished seeds
    are the service key's alone: the GM must never know a seed before its reveal."""
    require_gm(viewer, f"export {what}")
    if seeds == "all" and viewer.role != "service":
        raise Forbidden(
            "only the service key may export unpublished dice seeds: the GM must never"
            " know a seed before its reveal"
        )


class EncounterExport(EncounterRoutes):
    tags = ("exports",)

    @get(
        "/export",
        operation_id="exportEncounter",
        summary="The encounter as a JSON Lines archive",
        media_type=ARCHIVE_MEDIA_TYPE,
    )
    async def export(
        self,
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        read_from: NamedDependency[ReadFrom],
        seeds: Seeds = "revealed",
    ) -> Stream:
        """Every event with its hash links, as stored, then (with `seeds=all`) the stored dice
        seeds, then an end line with the count and last hash; `aeon-ledger import` takes it
        into another service after checking the chain. The end line is signed with the
        service's chain key when it vouches for the history (its own, or an attested
        import), so an import here or at a service that trusts the key is attested. GM or
        service key: the events are
        shown unredacted. With `X-Min-Version`, a read replica holding that version may
        answer."""
        may_export(viewer, seeds, "the encounter")
        head = await ensure_version(services, encounter_id, db=read_from.db)
        now, with_seeds = datetime.now(UTC), seeds == "all"
        key = services.settings.chain_key_bytes
        signer = key if await vouches_for(read_from.db, encounter_id, head, key) else None
        if read_from.replica:
            lines = _from_replica(services, encounter_id, head, now, with_seeds, signer)
        else:
            lines = archive_lines(
                services.pool, encounter_id, head, now=now, with_seeds=with_seeds, signer=signer
            )
        headers = head_headers(head) | {
            "Content-Disposition": f'attachment; filename="encounter-{encounter_id}.jsonl"'
        }
        return Stream(lines, media_type=ARCHIVE_MEDIA_TYPE, headers=headers)


async def _from_replica(
    services: Services,
    encounter_id: UUID,
    head: SignedHead,
    now: datetime,
    with_seeds: bool,
    signer: bytes | None,
) -> AsyncIterator[bytes]:
    """The archive's body on a replica holding ``head`` (else the primary): the body is
    streamed after the handler returned, when the connection that read the head is back in
    its pool, so it is a routed read of its own."""
    async with read_at(services, encounter_id, head.version) as where:
        async for line in archive_lines(
            where.db, encounter_id, head, now=now, with_seeds=with_seeds, signer=signer
        ):
            yield line
