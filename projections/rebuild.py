"""Re-derive every read model (encounter_state, log_entries, roll_ledger) from the events.

The rows come from the live path's own functions: events are folded with
``service.encounter.applied_steps`` (``service.encounter.evolve``) and turned into rows by
``projections.inline.read_model_rows``, so a rebuild and the live path cannot drift apart.
An undo or redo is refolded as the live path refolds it (``_StreamFold._rewrite_history``).
The fold of one stream is projections/stream_fold.py; this module reads, batches and
writes, and projections/rebuild_processes.py shares the work out to worker processes.
One stream alone (an import's) is rebuilt page by page by projections/stream_rebuild.py.

Safe while the service runs.  Streams are rebuilt in batches, each in one transaction
that first locks the batch's rows in ``streams``
(``SELECT ... FROM streams WHERE stream_id = ANY($1) ORDER BY stream_id FOR UPDATE``),
the row every command of a stream locks or updates to write.  Under that lock the batch
reads what was appended since its events were read and folds it in, then deletes the
streams' old rows and writes the new ones.  So a command on one of those streams either
committed before the lock (its events are in the rebuild) or waits for the batch to
commit and then writes its rows on top of the rebuilt ones; readers see a stream's old
rows or its new rows, never a mix.  No transaction lasts longer than one batch.

How it is fast (bench/loading.py and bench/README.md, have the figures):

- one connection reads every event in (stream_id, stream_version) order, in large pages
  of only the columns a fold needs (events/scan.py), while another writes and this
  process folds;
- ``data`` JSON text is decoded straight into the typed event (``EventCodec.decode_stored``);
- event times pass through as PostgreSQL's integer, never as datetimes (``_raw_timestamps``);
- each stream is folded once, ``before`` states are the previous step's ``after``, and
  state JSON is encoded once per piece of a stream, not per event;
- rows are written with COPY, many streams per transaction, after one DELETE per table;
- the cyclic garbage collector is paused (``_collector_paused``);
- ``rebuild_all_in_processes`` shares the streams out to worker processes, since folding
  is Python work and one process folds on one core.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from itertools import groupby
from operator import itemgetter
from uuid import UUID

import asyncpg

from events.db import Connection
from events.errors import StreamNotFound
from events.scan import FIRST_ID, LAST_ID, read_tails, scan_events
from projections.rebuild_processes import RANGES_PER_PROCESS, rebuild_all_in_processes
from projections.rebuild_writes import DELETE, LOCK, copy_lines_and_rolls, copy_states
from projections.stream_fold import (
    CHECKPOINT_EVERY,
    LOG_COLUMNS,
    PIECE_EVENTS,
    PLAIN_LOG_COLUMNS,
    ROLL_COLUMNS,
    STATE_COLUMNS,
    DamagedStream,
    _pieces,
    _StreamFold,
)
from projections.stream_rebuild import rebuild_stream
from telemetry import metrics

__all__ = [
    "BATCH_EVENTS",
    "CHECKPOINT_EVERY",
    "LOG_COLUMNS",
    "PAGE_EVENTS",
    "PIECE_EVENTS",
    "PLAIN_LOG_COLUMNS",
    "RANGES_PER_PROCESS",
    "ROLL_COLUMNS",
    "STATE_COLUMNS",
    "DamagedStream",
    "rebuild_all",
    "rebuild_all_in_processes",
    "rebuild_stream",
]

log = logging.getLogger("aeon_ledger.rebuild")


PAGE_EVENTS = 10_000
"""Events per read: large enough that a statement's cost is spread thin."""
BATCH_EVENTS = 20_000
"""Events per write transaction (whole streams, so a long stream makes a larger one)."""


async def _write(conn: Connection, folds: Sequence[_StreamFold]) -> list[_StreamFold]:
    """Lock the streams, fold in what they gained since read, replace their rows; returns
    the folds written, without the damaged streams (``_StreamFold.damage``), whose rows
    are left as they are.

    Runs in the caller's transaction; ``folds`` are sorted by stream id.
    """
    ids = [f.stream_id for f in folds]
    heads = await conn.fetch(LOCK, ids)
    if len(heads) != len(folds):
        locked = {h[0] for h in heads}
        raise StreamNotFound(next(i for i in ids if i not in locked))
    by_id = {f.stream_id: f for f in folds}
    for fold in folds:
        fold.flush()
    behind = {sid: by_id[sid].version for sid, version in heads if version != by_id[sid].version}
    if behind:
        for sid, rows in groupby(await read_tails(conn, behind), key=itemgetter(0)):
            for piece in _pieces(list(rows)):
                by_id[sid].feed(piece)
            by_id[sid].flush()
    folds = [f for f in folds if f.damage is None]
    ids = [f.stream_id for f in folds]
    await conn.execute(DELETE, ids)
    await copy_states(conn, folds)
    await copy_lines_and_rolls(conn, folds)
    return folds


async def _read_pages(
    conn: Connection,
    pages: asyncio.Queue[list[asyncpg.Record] | None],
    page_events: int,
    ids: tuple[UUID, UUID],
) -> None:
    async for page in scan_events(conn, page_size=page_events, first=ids[0], last=ids[1]):
        await pages.put(page)
    await pages.put(None)


async def _folds(pages: asyncio.Queue[list[asyncpg.Record] | None]) -> AsyncIterator[_StreamFold]:
    """Each stream of the scan, folded, once its last event has been read."""
    current: _StreamFold | None = None
    while (page := await pages.get()) is not None:
        for sid, rows in groupby(page, key=itemgetter(0)):
            if current is not None and current.stream_id != sid:
                yield current
                current = None
            if current is None:
                current = _StreamFold(sid)
            for piece in _pieces(list(rows)):
                current.feed(piece)
                # Let the reader and the writer send and receive while this task folds.
                await asyncio.sleep(0)
    if current is not None:
        yield current


async def _fold_batches(
    pages: asyncio.Queue[list[asyncpg.Record] | None],
    batches: asyncio.Queue[list[_StreamFold] | None],
    batch_events: int,
) -> None:
    batch: list[_StreamFold] = []
    size = 0
    async for fold in _folds(pages):
        batch.append(fold)
        size += fold.version
        if size >= batch_events:
            await batches.put(batch)
            batch, size = [], 0
    if batch:
        await batches.put(batch)
    await batches.put(None)


async def _write_batches(
    conn: Connection,
    batches: asyncio.Queue[list[_StreamFold] | None],
    damaged: list[DamagedStream] | None,
) -> tuple[int, int]:
    streams = events = 0
    while (batch := await batches.get()) is not None:
        async with conn.transaction():
            written = await _write(conn, batch)
        for fold in batch:
            if fold.damage is not None:
                log.error("not rebuilt: encounter %s: %s", fold.stream_id, fold.damage)
                if damaged is not None:
                    damaged.append(DamagedStream(fold.stream_id, fold.damage))
        streams += len(written)
        events += sum(f.version for f in written)
        metrics.rebuilt(len(written), sum(f.version for f in written))
    return streams, events


async def rebuild_all(
    pool: asyncpg.Pool,
    *,
    page_events: int = PAGE_EVENTS,
    batch_events: int = BATCH_EVENTS,
    ids: tuple[UUID, UUID] = (FIRST_ID, LAST_ID),
    damaged: list[DamagedStream] | None = None,
) -> tuple[int, int]:
    """Rebuild the read models of every stream (with an id in ``ids``, from first to last
    inclusive); returns (streams, events) rebuilt.  A stream whose events cannot be
    folded (a gap, an event that does not decode) is left as it is and added to
    ``damaged``: one damaged stream does not keep the others from being rebuilt.

    Three tasks overlap, so PostgreSQL reads and writes while this process folds: one
    connection reads pages of events, one task folds them into batches of streams, and
    another connection writes the batches folded before.
    """
    pages: asyncio.Queue[list[asyncpg.Record] | None] = asyncio.Queue(maxsize=2)
    batches: asyncio.Queue[list[_StreamFold] | None] = asyncio.Queue(maxsize=1)
    async with (
        pool.acquire() as reader,
        pool.acquire() as writer,
        _raw_timestamps(reader, writer),
    ):
        try:
            with _collector_paused():
                async with asyncio.TaskGroup() as tasks:
                    tasks.create_task(_read_pages(reader, pages, page_events, ids))
                    tasks.create_task(_fold_batches(pages, batches, batch_events))
                    written = tasks.create_task(_write_batches(writer, batches, damaged))
        except ExceptionGroup as failed:
            raise failed.exceptions[0] from None  # the first failure is the cause
    return written.result()


@asynccontextmanager
async def _raw_timestamps(*conns: Connection) -> AsyncIterator[None]:
    """``conns`` read and write timestamptz as PostgreSQL's own integer (microseconds
    since 2000-01-01 UTC, asyncpg's "tuple" format) while the block runs.

    A rebuild never looks at an event's time: it reads ``recorded_at`` and writes it
    back into log and state rows.  asyncpg's own decoder builds a timezone-aware
    datetime for each value (about 0.7 us, half of what reading an event's row cost) and
    its encoder turns it back (about 1.5 us); here a value passes through as the integer,
    so inside a rebuild ``RecordedEvent.recorded_at`` and the rows' times hold that
    integer.  The stored values are the same (``test_rebuild_matches_live`` compares
    the rows).
    """
    changed: list[Connection] = []
    try:
        for conn in conns:
            await conn.set_type_codec(
                "timestamptz",
                schema="pg_catalog",
                encoder=_as_tuple,
                decoder=_first,  # a C function: no Python frame per value read
                format="tuple",
            )
            changed.append(conn)
        yield
    finally:  # a pooled connection must not go back with these codecs
        for conn in changed:
            if not conn.is_closed():  # (a lost connection is not given back to the pool)
                await conn.reset_type_codec("timestamptz", schema="pg_catalog")


_first = itemgetter(0)


def _as_tuple(microseconds: int) -> tuple[int]:
    return (microseconds,)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No automatic cyclic garbage collection while the block runs.

    A rebuild allocates millions of short-lived containers (states, steps, rows) and
    keeps pages and batches of them alive for a while: the collector kept promoting
    them and then scanning the whole heap, which took more CPU than folding itself
    (measured: 22 of 49 us per event).  Nothing in a rebuild makes reference cycles;
    reference counting frees it all, and the collector runs again afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
