"""What both rebuilds write with: the lock on the streams being rebuilt, the delete of
their old rows, and the COPY of the rows their folds give."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from events.db import Connection
from projections.stream_fold import (
    LOG_COLUMNS,
    PLAIN_LOG_COLUMNS,
    ROLL_COLUMNS,
    STATE_COLUMNS,
    _StreamFold,
)

LOCK = """SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::uuid[])
          ORDER BY stream_id FOR UPDATE"""
"""The row every command of a stream locks or updates to write: held while its read
models are replaced, a command waits for the rebuild (or the rebuild for it)."""
DELETE = """WITH state AS (DELETE FROM encounter_state WHERE encounter_id = ANY($1::uuid[])),
                 log AS (DELETE FROM log_entries WHERE encounter_id = ANY($1::uuid[]))
            DELETE FROM roll_ledger WHERE encounter_id = ANY($1::uuid[])"""


async def copy_lines_and_rolls(conn: Connection, folds: Sequence[_StreamFold]) -> None:
    """Copy in the log lines and rolls ``folds`` have made, and let go of them: a fold
    keeps making rows for what it is fed next."""
    if any(f.plain_log for f in folds):
        plain = chain.from_iterable(f.plain_log for f in folds)
        await conn.copy_records_to_table("log_entries", records=plain, columns=PLAIN_LOG_COLUMNS)
    if any(f.log for f in folds):
        log = chain.from_iterable(f.log for f in folds)
        await conn.copy_records_to_table("log_entries", records=log, columns=LOG_COLUMNS)
    if any(f.rolls for f in folds):
        rolls = chain.from_iterable(f.rolls for f in folds)
        await conn.copy_records_to_table("roll_ledger", records=rolls, columns=ROLL_COLUMNS)
    for fold in folds:
        fold.plain_log.clear()
        fold.log.clear()
        fold.rolls.clear()


async def copy_states(conn: Connection, folds: Sequence[_StreamFold]) -> None:
    """Copy in the state row of each of ``folds`` that folded any event."""
    states = [f.state_row for f in folds if f.state_row is not None]
    if states:
        await conn.copy_records_to_table("encounter_state", records=states, columns=STATE_COLUMNS)
