"""Re-derive every read model from the events alone.

Each stream is refolded from its first event with the same projector the live path uses,
in its own transaction, so a rebuild can run while the service serves: readers see the old
or the new rows of a stream, never a mix.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg

from events.db import Connection
from events.envelope import RecordedEvent
from events.store import read_stream
from projections.inline import read_model_rows
from service.commit import ReadModelRows
from service.core_events import Redone, Undone
from service.encounter import Encounter
from service.loading import fold, ruleset_of
from service.pipeline import AppliedEvent, applied_steps
from service.registry import codec_for

_PAGE = 5000


async def rebuild_stream(conn: Connection, encounter_id: UUID) -> int:
    """Rebuild one encounter's read models; returns the number of events folded."""
    codec = codec_for(await ruleset_of(conn, encounter_id))
    async with conn.transaction():
        for table in ("log_entries", "roll_ledger", "encounter_state"):
            await conn.execute(f"DELETE FROM {table} WHERE encounter_id = $1", encounter_id)  # noqa: S608
        state: Encounter[Any] | None = None
        seen: list[RecordedEvent] = []
        after = 0
        while True:
            page = await read_stream(conn, encounter_id, after_version=after, limit=_PAGE)
            applied: list[AppliedEvent] = []
            for recorded in page:
                seen.append(recorded)
                event = codec.from_recorded(recorded)
                if isinstance(event, Undone | Redone):
                    # As the live path does: the state after an undo or redo is a refold
                    # of everything in effect as of it (here from memory, not snapshots).
                    refolded = fold(codec, None, seen)
                    assert refolded is not None
                    step = AppliedEvent(recorded, event, state, refolded)
                else:
                    (step,) = applied_steps(codec.ruleset, state, [recorded], [event])
                applied.append(step)
                state = step.after
            if applied:
                await _write_rows(conn, read_model_rows(codec, applied))
            if len(page) < _PAGE:
                return len(seen)
            after = page[-1].stream_version


async def _write_rows(conn: Connection, rows: ReadModelRows) -> None:
    await conn.execute(
        """INSERT INTO encounter_state (encounter_id, ruleset, name, version, schema_version,
                                        state, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6::json, $7, $8)
           ON CONFLICT (encounter_id) DO UPDATE
           SET name = EXCLUDED.name, version = EXCLUDED.version,
               schema_version = EXCLUDED.schema_version, state = EXCLUDED.state,
               updated_at = EXCLUDED.updated_at""",
        *rows.state,
    )
    encounter_id = rows.state.encounter_id
    await conn.executemany(
        "INSERT INTO log_entries (encounter_id, version, round, type, text, gm_text,"
        " hidden_rolls, gm_only, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        [(encounter_id, *r) for r in rows.log],
    )
    await conn.executemany(
        "INSERT INTO roll_ledger (encounter_id, roll_id, version, round, record)"
        " VALUES ($1, $2, $3, $4, $5::json)",
        [(encounter_id, *r) for r in rows.rolls],
    )


async def rebuild_all(pool: asyncpg.Pool) -> tuple[int, int]:
    """Rebuild every stream's read models; returns (streams, events)."""
    streams = [
        r["stream_id"]
        for r in await pool.fetch("SELECT stream_id FROM streams ORDER BY created_at")
    ]
    events = 0
    async with pool.acquire() as conn:
        for stream_id in streams:
            events += await rebuild_stream(conn, stream_id)
    return len(streams), events
