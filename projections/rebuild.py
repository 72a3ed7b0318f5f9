"""Re-derive every read model (encounter_state, log_entries, roll_ledger) from the events.

The rows come from the live path's own functions: events are folded with
``service.pipeline.applied_steps`` (``service.encounter.evolve``) and turned into rows by
``projections.inline.read_model_rows``, so a rebuild and the live path cannot drift apart.
An undo or redo is refolded as the live path refolds it (``_StreamFold._rewrite_history``).

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
import os
import sys
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from itertools import chain, groupby, pairwise
from operator import itemgetter
from pathlib import Path
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection
from events.envelope import RecordedEvent
from events.errors import StreamNotFound
from events.scan import FIRST_ID, LAST_ID, read_tails, scan_events
from projections.inline import read_model_rows
from projections.rows import StateRow
from service.codec import EventCodec
from service.core_events import Redone, Undone
from service.encounter import AppliedEvent, Encounter, applied_steps
from service.history import earliest_touched
from service.loading import fold_decoded
from service.registry import codec_for

PAGE_EVENTS = 10_000
"""Events per read: large enough that a statement's cost is spread thin."""
PIECE_EVENTS = 250
"""Events folded and projected at a time: their steps (with states before and after) are
dropped after each piece, which keeps the memory a long stream needs small."""
BATCH_EVENTS = 20_000
"""Events per write transaction (whole streams, so a long stream makes a larger one)."""
RANGES_PER_PROCESS = 4
"""Ranges of stream ids each worker process of ``rebuild_all_in_processes`` takes on."""
CHECKPOINT_EVERY = 100
"""Keep the state every this many versions, as the live path keeps snapshots: an undo or
redo refolds from the newest one before what it touches, not from the first event."""

STATE_COLUMNS = ("encounter_id", "ruleset", "name", "version", "schema_version", "state",
                 "created_at", "updated_at")  # fmt: skip
"""encounter_state's columns in the order of StateRow's fields (as the log and roll ones)."""
LOG_COLUMNS = ("encounter_id", "version", "round", "type", "text", "gm_text", "hidden_rolls",
               "gm_only", "recorded_at")  # fmt: skip
PLAIN_LOG_COLUMNS = ("encounter_id", "version", "round", "type", "text", "recorded_at")
"""A line without gm_text or hidden rolls that is not GM-only leaves those columns to their
defaults (NULL, '{}', false), which are the values the live path writes for it: sending
them cost more than the rest of the row (an empty text[] alone about 1 us to encode)."""
ROLL_COLUMNS = ("encounter_id", "roll_id", "version", "round", "record")

_CODE_ROOT = str(Path(__file__).resolve().parent.parent)
"""Where this code's packages are: worker processes import the same code."""
_NO_DATA: dict[str, Any] = {}
_HISTORY_TYPES = frozenset({Undone, Redone})
_LOCK = """SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::uuid[])
           ORDER BY stream_id FOR UPDATE"""
_DELETE = """WITH state AS (DELETE FROM encounter_state WHERE encounter_id = ANY($1::uuid[])),
                  log AS (DELETE FROM log_entries WHERE encounter_id = ANY($1::uuid[]))
             DELETE FROM roll_ledger WHERE encounter_id = ANY($1::uuid[])"""


class _StreamFold:
    """One stream refolded from version 1, and the rows its read models get.

    Fed its stored rows in version order, in as many pieces as they come; keeps every
    event's stored data and a state every ``CHECKPOINT_EVERY`` versions for refolds.
    """

    def __init__(self, stream_id: UUID) -> None:
        self.stream_id = stream_id
        self.version = 0
        self.codec: EventCodec | None = None
        self.state: Encounter[Any] | None = None
        self.stored: list[asyncpg.Record] = []
        """The stored row of each event, version v at v - 1, for refolds (which decode
        again what they need rather than every event being kept decoded)."""
        self.checkpoints: list[Encounter[Any]] = []
        self.state_row: StateRow | None = None
        self.log: list[tuple[Any, ...]] = []
        """log_entries records with every column (LOG_COLUMNS), ready to COPY."""
        self.plain_log: list[tuple[Any, ...]] = []
        """log_entries records of lines everyone sees as they are (PLAIN_LOG_COLUMNS)."""
        self.rolls: list[tuple[Any, ...]] = []
        self.held: list[asyncpg.Record] = []
        """Rows of the last command read, not projected yet (``feed``)."""

    def feed(self, rows: Sequence[asyncpg.Record]) -> None:
        """Fold the stream's next stored events (SCAN_COLUMNS rows) and project them,
        holding back those of a command that may go on in the next rows: a command's
        events are projected together, since a secret roll in any of them makes all of
        them secret (``flush`` projects the rest once the stream's end is read)."""
        rows = [*self.held, *rows]
        last = rows[-1][6]
        cut = len(rows)
        while cut > 0 and rows[cut - 1][6] == last:
            cut -= 1
        self.held = rows[cut:]
        if cut:
            self._project(rows[:cut])

    def flush(self) -> None:
        held, self.held = self.held, []
        if held:
            self._project(held)

    def _project(self, rows: Sequence[asyncpg.Record]) -> None:
        if self.codec is None:
            self.codec = codec_for(_ruleset_of(rows[0]))
        codec = self.codec
        recorded, events = _decode(codec, rows)
        if recorded[0].stream_version != self.version + 1 or (
            recorded[-1].stream_version != self.version + len(recorded)
        ):
            raise ValueError(f"stream {self.stream_id}: events not contiguous after {self.version}")
        self.version += len(recorded)
        self.stored += rows
        rows_out = read_model_rows(codec, self._fold(recorded, events))
        state_row = rows_out.state
        if self.state_row is not None:  # a later piece: the row was created with the first
            state_row = state_row._replace(created_at=self.state_row.created_at)
        self.state_row = state_row
        sid = self.stream_id
        for version, round_no, type_, text, gm_text, hidden, gm_only, at in rows_out.log:
            if gm_text is None and not hidden and not gm_only:
                self.plain_log.append((sid, version, round_no, type_, text, at))
            else:
                self.log.append((sid, version, round_no, type_, text, gm_text, hidden, gm_only, at))
        self.rolls += [(sid, *row) for row in rows_out.rolls]

    def _fold(self, recorded: list[RecordedEvent], events: list[Any]) -> list[AppliedEvent]:
        """Each run of ordinary events through ``applied_steps``; each undo or redo as the
        live path folds it."""
        if _HISTORY_TYPES.isdisjoint(map(type, events)):
            return self._evolve(recorded, events)
        applied: list[AppliedEvent] = []
        start = 0
        for i, event in enumerate(events):
            if type(event) in _HISTORY_TYPES:
                applied += self._evolve(recorded[start:i], events[start:i])
                applied.append(self._rewrite_history(recorded[i], event))
                start = i + 1
        applied += self._evolve(recorded[start:], events[start:])
        return applied

    def _evolve(self, recorded: list[RecordedEvent], events: list[Any]) -> list[AppliedEvent]:
        if not recorded:
            return []
        assert self.codec is not None
        steps = applied_steps(self.codec.ruleset, self.state, recorded, events)
        first = -steps[0].after.version % CHECKPOINT_EVERY
        self.checkpoints += [step.after for step in steps[first::CHECKPOINT_EVERY]]
        self.state = steps[-1].after
        return steps

    def _rewrite_history(self, recorded: RecordedEvent, event: Undone | Redone) -> AppliedEvent:
        """The state after an undo or redo, as service/pipeline.py works it out: states
        (there snapshots) from the first version it touches on are dropped, and the events
        after the newest one left are refolded with only those in effect counted."""
        assert self.codec is not None
        touched = earliest_touched(event)
        while self.checkpoints and self.checkpoints[-1].version >= touched:
            self.checkpoints.pop()
        base = self.checkpoints[-1] if self.checkpoints else None
        start = base.version if base is not None else 0
        decode = self.codec.decode_stored
        tail = [
            decode(row[2], row[3], row[4]) for row in self.stored[start : recorded.stream_version]
        ]
        versions = range(start + 1, recorded.stream_version + 1)
        after = fold_decoded(self.codec.ruleset, base, versions, tail)
        assert after is not None
        if after.version % CHECKPOINT_EVERY == 0:
            self.checkpoints.append(after)
        step = AppliedEvent(recorded, event, self.state, after)
        self.state = after
        return step


def _pieces(rows: list[asyncpg.Record]) -> Iterator[list[asyncpg.Record]]:
    """``rows`` of one stream, PIECE_EVENTS at a time."""
    for at in range(0, len(rows), PIECE_EVENTS):
        yield rows[at : at + PIECE_EVENTS]


def _ruleset_of(first: asyncpg.Record) -> str:
    """The ruleset named by a stream's first event (encounter.created or .forked)."""
    if first[1] != 1:
        raise ValueError(f"stream {first[0]} does not start at version 1")
    name: str = msgspec.json.decode(first[4])["ruleset"]
    return name


def _decode(
    codec: EventCodec, rows: Iterable[asyncpg.Record]
) -> tuple[list[RecordedEvent], list[Any]]:
    """The envelopes and typed events of stored rows.

    The envelopes carry what the projector reads (stream, version, type, time); data,
    metadata, hashes and position stay unread, as in the live path's placeholders
    (service/commit.py), since the typed event holds the data.
    """
    decode = codec.decode_stored
    recorded: list[RecordedEvent] = []
    events: list[Any] = []
    for stream_id, version, type_, type_version, data, recorded_at, command_id in rows:
        recorded.append(
            RecordedEvent(
                global_position=0,
                stream_id=stream_id,
                stream_version=version,
                type=type_,
                type_version=type_version,
                data=_NO_DATA,
                metadata={"command_id": command_id},
                recorded_at=recorded_at,
                prev_hash="",
                hash="",
            )
        )
        events.append(decode(type_, type_version, data))
    return recorded, events


async def _write(conn: Connection, folds: Sequence[_StreamFold]) -> None:
    """Lock the streams, fold in what they gained since read, replace their rows.

    Runs in the caller's transaction; ``folds`` are sorted by stream id.
    """
    ids = [f.stream_id for f in folds]
    heads = await conn.fetch(_LOCK, ids)
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
    await conn.execute(_DELETE, ids)
    states = [f.state_row for f in folds if f.state_row is not None]
    await conn.copy_records_to_table("encounter_state", records=states, columns=STATE_COLUMNS)
    plain = chain.from_iterable(f.plain_log for f in folds)
    await conn.copy_records_to_table("log_entries", records=plain, columns=PLAIN_LOG_COLUMNS)
    if any(f.log for f in folds):
        log = chain.from_iterable(f.log for f in folds)
        await conn.copy_records_to_table("log_entries", records=log, columns=LOG_COLUMNS)
    rolls = chain.from_iterable(f.rolls for f in folds)
    await conn.copy_records_to_table("roll_ledger", records=rolls, columns=ROLL_COLUMNS)


async def rebuild_stream(conn: Connection, encounter_id: UUID) -> int:
    """Rebuild one encounter's read models; returns the number of events folded."""
    fold = _StreamFold(encounter_id)
    async with conn.transaction():
        await _write(conn, [fold])
    return fold.version


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
    conn: Connection, batches: asyncio.Queue[list[_StreamFold] | None]
) -> tuple[int, int]:
    streams = events = 0
    while (batch := await batches.get()) is not None:
        async with conn.transaction():
            await _write(conn, batch)
        streams += len(batch)
        events += sum(f.version for f in batch)
    return streams, events


async def rebuild_all(
    pool: asyncpg.Pool,
    *,
    page_events: int = PAGE_EVENTS,
    batch_events: int = BATCH_EVENTS,
    ids: tuple[UUID, UUID] = (FIRST_ID, LAST_ID),
) -> tuple[int, int]:
    """Rebuild the read models of every stream (with an id in ``ids``, from first to last
    inclusive); returns (streams, events).

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
                    written = tasks.create_task(_write_batches(writer, batches))
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


async def rebuild_all_in_processes(
    database_url: str, processes: int | None = None
) -> tuple[int, int]:
    """``rebuild_all`` shared out to ``processes`` worker processes (default: one per
    CPU); returns (streams, events).

    Folding is Python work, which one process does on one core at a time; with workers,
    each rebuilds ranges of stream ids on connections of its own, taking the next range
    as it finishes one (several ranges per worker, so that one slow range does not leave
    the others idle).  Every batch is still one transaction that locks its streams,
    whichever process runs it.  The workers are ``projections.rebuild_worker``.
    """
    workers = processes or os.cpu_count() or 1
    ranges = deque(_id_ranges(workers * RANGES_PER_PROCESS))
    try:
        async with asyncio.TaskGroup() as tasks:
            runs = [tasks.create_task(_run_worker(database_url, ranges)) for _ in range(workers)]
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None  # the first failure is the cause
    done = [run.result() for run in runs]
    return sum(streams for streams, _ in done), sum(events for _, events in done)


async def _run_worker(database_url: str, ranges: deque[tuple[UUID, UUID]]) -> tuple[int, int]:
    """One worker process, fed ranges from ``ranges`` until none is left."""
    path = os.pathsep.join(filter(None, [_CODE_ROOT, os.environ.get("PYTHONPATH")]))
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "projections.rebuild_worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert worker.stdin is not None and worker.stdout is not None and worker.stderr is not None
    errors = asyncio.create_task(worker.stderr.read())
    streams = events = 0
    try:
        worker.stdin.write(msgspec.json.encode(database_url) + b"\n")
        while ranges:
            worker.stdin.write(msgspec.json.encode(ranges.popleft()) + b"\n")
            await worker.stdin.drain()
            answer = await worker.stdout.readline()
            if not answer:  # it ended without answering
                raise RuntimeError(f"a rebuild worker failed:\n{(await errors).decode()}")
            rebuilt = msgspec.json.decode(answer, type=tuple[int, int])
            streams, events = streams + rebuilt[0], events + rebuilt[1]
        worker.stdin.close()
        if await worker.wait() != 0:
            raise RuntimeError(f"a rebuild worker failed:\n{(await errors).decode()}")
    finally:
        if worker.returncode is None:  # failed or cancelled here: stop it
            worker.kill()
            await worker.wait()
        await errors
    return streams, events


def _id_ranges(count: int) -> list[tuple[UUID, UUID]]:
    """``count`` ranges of equal width covering every stream id (ids are random)."""
    width = (LAST_ID.int + 1) // count
    bounds = [n * width for n in range(count)] + [LAST_ID.int + 1]
    return [(UUID(int=lo), UUID(int=hi - 1)) for lo, hi in pairwise(bounds)]
