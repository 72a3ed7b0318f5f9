"""Reads of the encounters' rows, shaped for the API: the list, the stored state, and what a
read of the current state needs in one round trip (the log and the ledger: log_queries.py)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec

from events.db import Database
from events.store import SignedHead
from service.tokens import StoredToken


class EncounterSummary(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: UUID
    ruleset: str
    name: str
    version: int
    created_at: datetime
    updated_at: datetime


class StateRow(msgspec.Struct, frozen=True):
    version: int
    ruleset: str
    state: msgspec.Raw
    """The encounter state JSON exactly as stored, passed through without re-encoding."""
    head: SignedHead | None = None
    """The stream's chain head and its signature, read in the same statement."""


async def encounter_ruleset(db: Database, encounter_id: UUID) -> str | None:
    """The ruleset an encounter runs; None for an unknown encounter."""
    ruleset: str | None = await db.fetchval(
        "SELECT ruleset FROM encounter_state WHERE encounter_id = $1", encounter_id
    )
    return ruleset


async def current_state(db: Database, encounter_id: UUID) -> StateRow | None:
    row = await db.fetchrow(
        """SELECT s.version, s.ruleset, s.state,
                  h.version AS head_version, h.last_hash, h.head_signature
           FROM encounter_state AS s JOIN streams AS h ON h.stream_id = s.encounter_id
           WHERE s.encounter_id = $1""",
        encounter_id,
    )
    if row is None:
        return None
    head = SignedHead(row["head_version"], row["last_hash"], row["head_signature"])
    return StateRow(row["version"], row["ruleset"], msgspec.Raw(row["state"].encode()), head)


async def list_encounters(
    db: Database,
    *,
    limit: int,
    before: tuple[datetime, UUID] | None = None,
    ruleset: str | None = None,
    only: list[UUID] | None = None,
) -> list[EncounterSummary]:
    """Newest first, keyset-paginated on (created_at, id) so pages never shift;
    ``only`` these encounters when given."""
    rows = await db.fetch(
        """SELECT encounter_id, ruleset, name, version, created_at, updated_at
           FROM encounter_state
           WHERE ($1::timestamptz IS NULL OR (created_at, encounter_id) < ($1, $2))
             AND ($3::text IS NULL OR ruleset = $3)
             AND ($5::uuid[] IS NULL OR encounter_id = ANY($5))
           ORDER BY created_at DESC, encounter_id DESC
           LIMIT $4""",
        before[0] if before else None,
        before[1] if before else None,
        ruleset,
        limit,
        only,
    )
    return [EncounterSummary(**dict(r)) for r in rows]


class ReaderRow(msgspec.Struct, frozen=True):
    """What a read of the current state needs, in one round trip."""

    head: SignedHead
    token: StoredToken | None
    """The presented token's row when it opens this encounter, unrevoked, right now."""
    state: StateRow | None
    """The stored state, unless the caller did not want it or already had this version."""


async def current_for_reader(
    db: Database,
    encounter_id: UUID,
    token_id: str | None,
    *,
    unless_version: int | None,
    want_state: bool,
) -> ReaderRow | None:
    """The stream head, the token's row and (unless the caller's ETag is already the
    head's version) the state row, in one statement; None for an unknown encounter.

    The state row is read only when wanted: the join's condition is a constant for the
    inner scan, so PostgreSQL skips it on a match (a 304 never touches the state)."""
    row = await db.fetchrow(
        """SELECT h.version, h.last_hash, h.head_signature,
                  t.role, t.secret_sha256, t.combatants,
                  s.version AS state_version, s.ruleset, s.state
           FROM streams AS h
           LEFT JOIN access_tokens AS t
             ON t.encounter_id = h.stream_id AND t.token_id = $2 AND t.revoked_at IS NULL
           LEFT JOIN LATERAL (
             SELECT version, ruleset, state FROM encounter_state
             WHERE encounter_id = h.stream_id AND $4 AND h.version IS DISTINCT FROM $3::int
           ) AS s ON true
           WHERE h.stream_id = $1""",
        encounter_id,
        # No token (the service key) is an id no token has, not NULL: ``= NULL`` would be
        # folded to false, dropping the join on the encounter, which Citus then refuses
        # as a join of two distributed tables not on their distribution column.
        "" if token_id is None else token_id,
        unless_version,
        want_state,
    )
    if row is None:
        return None
    head = SignedHead(row["version"], row["last_hash"], row["head_signature"])
    token = None
    if row["role"] is not None:
        token = StoredToken(row["role"], bytes(row["secret_sha256"]), row["combatants"])
    state = None
    if row["state_version"] is not None:
        raw = msgspec.Raw(row["state"].encode())
        state = StateRow(row["state_version"], row["ruleset"], raw, head)
    return ReaderRow(head, token, state)
