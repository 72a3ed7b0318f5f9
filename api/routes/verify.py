"""The verify route: the hash chain, the head's signature, the dice and, on request, the
read models of one encounter checked in one snapshot (docs/tamper-evidence.md)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from api.http.headers import MAX_VERSION
from api.http.problems import problem
from api.http.read_routing import MinVersion, highest, read_at, stated_version
from api.routes.base import EncounterRoutes
from api.routes.reads import ensure_version
from api.schemas import VerifyReport
from api.state import Services
from events.hashing import SEALED
from events.provenance import provenance_report, read_provenance
from events.store import read_stream, signed_head
from events.upcasting import MissingUpcaster
from events.verify import verify_chain, verify_head, verify_pin
from projections.log_queries import read_marks
from projections.verify import verify_read_models
from service.fairness import DiceReport, verify_dice
from service.loading import ruleset_of
from service.registry import codec_for
from service.tokens import Viewer
from telemetry import metrics

PinVersion = Annotated[
    int | None,
    QueryParameter(
        ge=0,
        le=MAX_VERSION,
        description="A head you saw (the version of an `Aeon-Chain-Head` header): verify "
        "proves the chain still holds it with `hash` and extends it to the current head.",
    ),
]
PinHash = Annotated[
    str | None,
    QueryParameter(
        pattern="^[0-9a-f]{64}$",
        description="The hash of the pinned head (the hash of an `Aeon-Chain-Head` header).",
    ),
]
Deep = Annotated[
    bool,
    QueryParameter(
        description="Also refold every event and compare the stored state, log and roll "
        "ledger with what the events give, naming the first difference.",
    ),
]


class EncounterVerify(EncounterRoutes):
    """Verification of one encounter (listed with its reads)."""

    tags = ("reads",)

    @get(
        "/verify",
        operation_id="verifyEncounter",
        summary="Verify chain, head signature, dice and (deep) read models",
    )
    async def verify(
        self,
        request: Request[Any, Any, Any],
        encounter_id: FromPath[UUID],
        services: NamedDependency[Services],
        viewer: NamedDependency[Viewer],
        version: PinVersion = None,
        hash: PinHash = None,
        deep: Deep = False,
        min_version: MinVersion = None,
    ) -> VerifyReport:
        """Recomputes the hash chain (naming the first broken link), checks the head's
        signature under the service's key (`head.signed` is false when the service has no
        AEON_CHAIN_KEY), every server roll of the epochs whose seed has been revealed, with
        `version` and `hash` that the chain still extends that pinned head, and with
        `deep=true` the stored read models against the events (docs/tamper-evidence.md).
        For an imported encounter, `provenance` says what this service did not witness:
        "imported, attested up to version N" or "imported, unattested".
        With `X-Min-Version` or a pinned head, a read replica holding that version may
        answer: `head.version` says up to where the chain was checked."""
        if (version is None) != (hash is None):
            raise problem(
                400, "bad-pin", "A pinned head needs both version and hash (Aeon-Chain-Head)."
            )
        # A replica holds the primary's very bytes up to where it has replayed, so its
        # chain proves the same history up to its head; a version stated (or pinned) is
        # what the check must cover, as for any read (docs/scale-out.md).
        stated = highest(stated_version(request, min_version), version)
        # One snapshot for every check: a command committing meanwhile cannot look like a
        # head that moved without its events, or read models ahead of their events.
        async with (
            read_at(services, encounter_id, stated) as where,
            where.connection() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            await ensure_version(services, encounter_id, db=conn)
            head = verify_head(
                encounter_id,
                await signed_head(conn, encounter_id),
                services.settings.chain_key_bytes,
            )
            chain = await verify_chain(conn, encounter_id)
            record = await read_provenance(conn, encounter_id)
            key = services.settings.chain_key_bytes
            provenance = None if record is None else provenance_report(encounter_id, record, key)
            pin = None
            if version is not None and hash is not None:
                pin = await verify_pin(conn, encounter_id, chain, version, hash)
            codec = codec_for(await ruleset_of(conn, encounter_id))
            events = await read_stream(conn, encounter_id)
            if not viewer.is_gm:
                # A sealed command's rolls are counted only once it opens: how many it
                # made is an outcome (docs/secrecy.md).
                marks = await read_marks(conn, encounter_id, secrets=True)
                sealed = marks.secret_versions()
                events = [e for e in events if e.stream_version not in sealed or e.type != SEALED]
            try:
                dice = verify_dice([codec.from_recorded(e) for e in events])
            except (msgspec.ValidationError, MissingUpcaster) as exc:
                # Only a tampered event can fail to decode; the chain report says which.
                dice = DiceReport(
                    ok=False, epochs=[], manual_rolls=0, unverifiable_rolls=0, error=str(exc)
                )
            read_models = await verify_read_models(conn, encounter_id) if deep else None
        checks = [chain.ok, dice.ok, head.ok]
        checks += [r.ok for r in (pin, read_models, provenance) if r is not None]
        parts = {
            "chain": chain,
            "dice": dice,
            "head": head,
            "pin": pin,
            "read_models": read_models,
            "provenance": provenance,
        }
        metrics.verified(name for name, part in parts.items() if part is not None and not part.ok)
        return VerifyReport(
            ok=all(checks),
            chain=chain,
            dice=dice,
            head=head,
            pin=pin,
            read_models=read_models,
            provenance=provenance,
        )
