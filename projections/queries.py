"""Reads of the inline read models, shaped for the API and nothing else."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database

_decode_any = msgspec.json.Decoder()


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


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    round: int | None
    type: str
    text: str
    recorded_at: datetime
    rolls: list[Any] = []


async def current_state(db: Database, encounter_id: UUID) -> StateRow | None:
    row = await db.fetchrow(
        "SELECT version, ruleset, state FROM encounter_state WHERE encounter_id = $1", encounter_id
    )
    if row is None:
        return None
    return StateRow(row["version"], row["ruleset"], msgspec.Raw(row["state"].encode()))


async def list_encounters(
    db: Database,
    *,
    limit: int,
    before: tuple[datetime, UUID] | None = None,
    ruleset: str | None = None,
) -> list[EncounterSummary]:
    """Newest first, keyset-paginated on (created_at, id) so pages never shift."""
    rows = await db.fetch(
        """SELECT encounter_id, ruleset, name, version, created_at, updated_at
           FROM encounter_state
           WHERE ($1::timestamptz IS NULL OR (created_at, encounter_id) < ($1, $2))
             AND ($3::text IS NULL OR ruleset = $3)
           ORDER BY created_at DESC, encounter_id DESC
           LIMIT $4""",
        before[0] if before else None,
        before[1] if before else None,
        ruleset,
        limit,
    )
    return [EncounterSummary(**dict(r)) for r in rows]


async def log_entries(
    db: Database, encounter_id: UUID, *, after_version: int, limit: int
) -> list[LogEntry]:
    rows = await db.fetch(
        """SELECT l.version, l.round, l.type, l.text, l.recorded_at,
                  coalesce((SELECT json_agg(r.record ORDER BY length(r.roll_id), r.roll_id)
                            FROM roll_ledger r
                            WHERE r.encounter_id = l.encounter_id AND r.version = l.version),
                           '[]') AS rolls
           FROM log_entries l
           WHERE l.encounter_id = $1 AND l.version > $2
           ORDER BY l.version LIMIT $3""",
        encounter_id,
        after_version,
        limit,
    )
    return [
        LogEntry(
            version=r["version"],
            round=r["round"],
            type=r["type"],
            text=r["text"],
            recorded_at=r["recorded_at"],
            rolls=_decode_any.decode(r["rolls"]),
        )
        for r in rows
    ]


async def rolls(
    db: Database, encounter_id: UUID, *, after_version: int, limit: int
) -> list[dict[str, Any]]:
    rows = await db.fetch(
        """SELECT version, round, record FROM roll_ledger
           WHERE encounter_id = $1 AND version > $2
           ORDER BY version, length(roll_id), roll_id LIMIT $3""",
        encounter_id,
        after_version,
        limit,
    )
    return [
        {"version": r["version"], "round": r["round"], **_decode_any.decode(r["record"])}
        for r in rows
    ]
