"""Deep verify: refold a stream's events and compare the read models stored for it.

The expected rows come from the rebuild's fold (projections/stream_fold.py ``_StreamFold``,
itself the live path's ``applied_steps`` and ``read_model_rows``), which writes row for
row and byte for byte what the live path wrote (tests/integration/
test_rebuild_matches_live.py).  So any stored row that differs from it was written by
something other than the service: a forged state, log line or roll.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.scan import read_tails
from projections.stream_fold import LOG_COLUMNS, ROLL_COLUMNS, STATE_COLUMNS, _pieces, _StreamFold


class ReadModelDifference(msgspec.Struct, frozen=True):
    table: str
    version: int | None
    """The stream version of the row that differs (None: no row at all)."""
    reason: str


class ReadModelReport(msgspec.Struct, frozen=True):
    ok: bool
    events_folded: int
    first_difference: ReadModelDifference | None = None


def _select(table: str, columns: Sequence[str], key: str, order: str) -> str:
    shown = ", ".join(f"{c}::text" if c in ("state", "record") else c for c in columns)
    return f"SELECT {shown} FROM {table} WHERE {key} = $1 ORDER BY {order}"  # noqa: S608


_STATE = _select("encounter_state", STATE_COLUMNS, "encounter_id", "encounter_id")
_LOG = _select("log_entries", LOG_COLUMNS, "encounter_id", "version")
_ROLLS = _select("roll_ledger", ROLL_COLUMNS, "encounter_id", "version, roll_id")


async def verify_read_models(db: Database, encounter_id: UUID) -> ReadModelReport:
    """Refold every event of the stream and name the first stored read-model row that
    differs from what the events give.  Run it in one REPEATABLE READ transaction, so the
    events and the rows are read as of the same moment."""
    fold = _StreamFold(encounter_id)
    try:
        for piece in _pieces(list(await read_tails(db, {encounter_id: 0}))):
            fold.feed(piece)
        fold.flush()
    except Exception as exc:  # a tampered event need not even decode; the chain says which
        return _differs(
            fold.version, "events", None, f"the events do not fold ({type(exc).__name__}: {exc})"
        )
    state = await db.fetch(_STATE, encounter_id)
    expected_state = [tuple(fold.state_row)] if fold.state_row is not None else []
    found = _first_difference(
        "encounter_state",
        STATE_COLUMNS,
        {row[3]: row for row in expected_state},
        {row[3]: tuple(row) for row in state},
    )
    if found is None:
        plain = [(*row[:5], None, [], False, row[5]) for row in fold.plain_log]
        found = _first_difference(
            "log_entries",
            LOG_COLUMNS,
            {row[1]: row for row in [*fold.log, *plain]},
            {row[1]: tuple(row) for row in await db.fetch(_LOG, encounter_id)},
        )
    if found is None:
        found = _first_difference(
            "roll_ledger",
            ROLL_COLUMNS,
            {(row[2], row[1]): row for row in fold.rolls},
            {(row[2], row[1]): tuple(row) for row in await db.fetch(_ROLLS, encounter_id)},
        )
    if found is None:
        return ReadModelReport(ok=True, events_folded=fold.version)
    return ReadModelReport(ok=False, events_folded=fold.version, first_difference=found)


def _differs(folded: int, table: str, version: int | None, reason: str) -> ReadModelReport:
    return ReadModelReport(
        ok=False,
        events_folded=folded,
        first_difference=ReadModelDifference(table=table, version=version, reason=reason),
    )


def _version(key: Any) -> int:
    return int(key[0] if isinstance(key, tuple) else key)


def _first_difference(
    table: str,
    columns: Sequence[str],
    expected: Mapping[Any, tuple[Any, ...]],
    stored: Mapping[Any, tuple[Any, ...]],
) -> ReadModelDifference | None:
    """The first row, in version order, that is missing, extra or different."""
    for key in sorted(expected.keys() | stored.keys()):
        version = _version(key)
        want, have = expected.get(key), stored.get(key)
        if want == have:
            continue
        if have is None:
            reason = f"{table} lacks the row the events give at version {version}"
        elif want is None:
            reason = f"{table} has a row at version {version} that the events do not give"
        else:
            cols = [c for c, w, h in zip(columns, want, have, strict=True) if w != h]
            reason = f"{table} differs from the events at version {version} ({', '.join(cols)})"
        return ReadModelDifference(table=table, version=version, reason=reason)
    return None
