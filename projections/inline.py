"""Read models kept with the events: current state, replay log, roll ledger.

This module works out their rows, purely; the command's one write statement
(service/commit.py) stores them with the events, so a read after a 2xx always sees the
command's effect.  A rebuild (projections/rebuild.py) derives the same rows from the same
function, so a rebuild and the live path cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from projections.narration import narrate
from projections.redaction import PRIVATE_NOTE
from service.codec import EventCodec
from service.commit import LogRow, ReadModelRows, RollRow, StateRow
from service.core_events import NoteAdded
from service.encounter import rolls_of, schema_version
from service.pipeline import AppliedEvent

_encode = msgspec.json.Encoder().encode


def read_model_rows(codec: EventCodec, applied: Sequence[AppliedEvent]) -> ReadModelRows:
    """The rows ``applied`` (one or more events folded in order) adds to the read models."""
    ruleset = codec.ruleset
    first, last = applied[0], applied[-1]
    log: list[LogRow] = []
    rolls: list[RollRow] = []
    for step in applied:
        rec = step.recorded
        round_no = ruleset.round_of(step.after.game)
        made = rolls_of(step.event)
        hidden = [r.roll_id for r in made if r.hidden]
        text = narrate(ruleset, step.before, step.event)
        gm_text = narrate(ruleset, step.before, _unhidden(step.event)) if hidden else None
        gm_only = isinstance(step.event, NoteAdded) and step.event.gm_only
        if gm_only:
            text, gm_text = PRIVATE_NOTE, text
        log.append(
            LogRow(
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
        rolls.extend(
            RollRow(roll.roll_id, rec.stream_version, round_no, _encode(roll).decode())
            for roll in made
        )
    final = last.after
    state = StateRow(
        first.recorded.stream_id,
        ruleset.name,
        final.name,
        final.version,
        schema_version(ruleset),
        codec.encode_state(final).decode(),
        first.recorded.recorded_at,
        last.recorded.recorded_at,
    )
    return ReadModelRows(state, log, rolls)


def _unhidden(event: Any) -> Any:
    """The event with its secret rolls shown: the GM's line, and everyone's once revealed."""
    rolls = tuple(msgspec.structs.replace(r, hidden=False) for r in rolls_of(event))
    return msgspec.structs.replace(event, rolls=rolls)
