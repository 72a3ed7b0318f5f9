"""Read models written in the append's transaction: current state, replay log, roll ledger.

Because they commit with the events, a read after a 2xx always sees the command's effect,
and the same code rebuilds them from scratch (projections/rebuild.py), so a rebuild and
the live path cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.db import Connection
from projections.narration import narrate
from projections.redaction import PRIVATE_NOTE
from service.codec import EventCodec
from service.core_events import NoteAdded
from service.encounter import rolls_of, schema_version
from service.pipeline import AppliedEvent

_encode = msgspec.json.Encoder().encode


class InlineProjector:
    async def apply(
        self, conn: Connection, codec: EventCodec, applied: Sequence[AppliedEvent]
    ) -> None:
        if not applied:
            return
        ruleset = codec.ruleset
        first, last = applied[0], applied[-1]
        encounter_id = first.recorded.stream_id
        log_rows: list[tuple[object, ...]] = []
        roll_rows: list[tuple[object, ...]] = []
        for step in applied:
            rec = step.recorded
            round_no = ruleset.round_of(step.after.game)
            hidden = [r.roll_id for r in rolls_of(step.event) if r.hidden]
            text = narrate(ruleset, step.before, step.event)
            gm_text = narrate(ruleset, step.before, _unhidden(step.event)) if hidden else None
            gm_only = isinstance(step.event, NoteAdded) and step.event.gm_only
            if gm_only:
                text, gm_text = PRIVATE_NOTE, text
            log_rows.append(
                (
                    encounter_id,
                    rec.stream_version,
                    round_no,
                    rec.type,
                    text,
                    gm_text,
                    hidden,
                    gm_only,
                    rec.recorded_at,
                )
            )
            roll_rows.extend(
                (encounter_id, roll.roll_id, rec.stream_version, round_no, _encode(roll).decode())
                for roll in rolls_of(step.event)
            )
        final = last.after
        await conn.execute(
            """INSERT INTO encounter_state (encounter_id, ruleset, name, version, schema_version,
                                            state, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
               ON CONFLICT (encounter_id) DO UPDATE
               SET name = EXCLUDED.name, version = EXCLUDED.version,
                   schema_version = EXCLUDED.schema_version, state = EXCLUDED.state,
                   updated_at = EXCLUDED.updated_at""",
            encounter_id,
            ruleset.name,
            final.name,
            final.version,
            schema_version(ruleset),
            codec.encode_state(final).decode(),
            first.recorded.recorded_at,
            last.recorded.recorded_at,
        )
        await conn.executemany(
            "INSERT INTO log_entries"
            " (encounter_id, version, round, type, text, gm_text, hidden_rolls, gm_only,"
            " recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            log_rows,
        )
        if roll_rows:
            await conn.executemany(
                "INSERT INTO roll_ledger (encounter_id, roll_id, version, round, record)"
                " VALUES ($1, $2, $3, $4, $5::jsonb)",
                roll_rows,
            )


def _unhidden(event: Any) -> Any:
    """The event with its secret rolls shown: the GM's line, and everyone's once revealed."""
    rolls = tuple(msgspec.structs.replace(r, hidden=False) for r in rolls_of(event))
    return msgspec.structs.replace(event, rolls=rolls)
