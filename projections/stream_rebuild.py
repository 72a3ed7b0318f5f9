"""One stream's read models rebuilt in memory that does not grow with the stream.

An import rebuilds the encounter it has just stored, which may be a campaign of a
hundred thousand events.  Rather than read them all and hold every log line and roll
until the end (about 1.8 KB per event), this reads the stream a page at a time, writes
the lines and rolls of each page as soon as they are folded, and keeps for refolds only
the events after the newest kept state (``_StreamFold(keep_every_row=False)``): an undo
or redo that reaches further back reads the events it refolds again.  The rows written
are the ones the whole-stream fold gives (tests/integration/test_rebuild_matches_live.py).
"""

from __future__ import annotations

from uuid import UUID

import asyncpg

from events.db import Connection
from events.errors import StreamNotFound
from events.scan import read_versions, scan_events
from projections.rebuild_writes import DELETE, LOCK, copy_lines_and_rolls, copy_states
from projections.stream_fold import DamagedStream, _pieces, _StreamFold

STREAM_PAGE_EVENTS = 2_000
"""Events read at a time, and whose rows are written together: large enough that the
statements cost little per event, small enough that a page is a few megabytes."""


async def rebuild_stream(conn: Connection, encounter_id: UUID) -> int:
    """Rebuild one encounter's read models; returns the number of events folded.

    One transaction (a savepoint of the caller's) that locks the stream's row first, as
    a command does, so no command writes between the reads and the writes.  A stream
    that cannot be folded raises DamagedStream, and the rollback leaves its read models
    as they were.
    """
    fold = _StreamFold(encounter_id, keep_every_row=False)
    async with conn.transaction():
        if not await conn.fetch(LOCK, [encounter_id]):
            raise StreamNotFound(encounter_id)
        await conn.execute(DELETE, [encounter_id])
        pages = scan_events(
            conn, page_size=STREAM_PAGE_EVENTS, first=encounter_id, last=encounter_id
        )
        async for page in pages:
            for piece in _pieces(page):
                await _refold_reach(conn, fold, piece)
                fold.feed(piece)
            if fold.damage is not None:
                break
            await copy_lines_and_rolls(conn, [fold])
        await _refold_reach(conn, fold, [])
        fold.flush()
        if fold.damage is not None:
            raise DamagedStream(encounter_id, fold.damage)
        await copy_lines_and_rolls(conn, [fold])
        await copy_states(conn, [fold])
    return fold.version


async def _refold_reach(conn: Connection, fold: _StreamFold, rows: list[asyncpg.Record]) -> None:
    """Give ``fold`` back the events an undo or redo among ``rows`` (and those it holds)
    will refold that it no longer keeps."""
    first = fold.refold_reach(rows)
    if first is not None:
        fold.restore(first, await read_versions(conn, fold.stream_id, first, fold.stored_from))
