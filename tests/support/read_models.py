"""Every read-model row, for comparing what a rebuild wrote with what the live path wrote."""

from __future__ import annotations

from typing import Any

import asyncpg

DUMPS = {
    "encounter_state": """SELECT encounter_id, ruleset, name, version, schema_version,
                                 state::text, created_at, updated_at
                          FROM encounter_state ORDER BY encounter_id""",
    "log_entries": """SELECT encounter_id, version, round, type, text, gm_text, hidden_rolls,
                             gm_only, recorded_at
                      FROM log_entries ORDER BY encounter_id, version""",
    "roll_ledger": """SELECT encounter_id, roll_id, version, round, record::text
                      FROM roll_ledger ORDER BY encounter_id, roll_id""",
}


async def dump(db: asyncpg.Pool | asyncpg.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every read-model row, JSON columns as their stored text."""
    return {table: [tuple(r) for r in await db.fetch(sql)] for table, sql in DUMPS.items()}
