"""One stream's events folded from version 1 into the rows its read models get.

The rebuilds (projections/rebuild.py, projections/stream_rebuild.py) and the deep verify
(projections/verify.py) all fold with ``_StreamFold``: the live path's own
``applied_steps`` (service/encounter.py) and ``read_model_rows`` (projections/inline.py),
so none can drift from what the live path writes.  An undo or redo is refolded as the
live path refolds it (``_StreamFold._rewrite_history``, after service/write/prepare.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.envelope import RecordedEvent
from events.upcasting import MissingUpcaster
from projections.inline import read_model_rows
from projections.rows import StateRow
from service.codec import EventCodec
from service.core_events import Redone, Undone
from service.encounter import AppliedEvent, Encounter, applied_steps
from service.history import earliest_touched, kind_of
from service.loading import fold_decoded
from service.registry import codec_for

PIECE_EVENTS = 250
"""Events folded and projected at a time: their steps (with states before and after) are
dropped after each piece, which keeps the memory a long stream needs small."""
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

_NO_DATA: dict[str, Any] = {}
_HISTORY_TYPES = frozenset({Undone, Redone})


class DamagedStream(Exception):
    """A stream whose events cannot be folded; its read models were left as they were."""

    def __init__(self, stream_id: UUID, reason: str) -> None:
        super().__init__(f"encounter {stream_id}: {reason}")
        self.stream_id, self.reason = stream_id, reason


class _StreamFold:
    """One stream refolded from version 1, and the rows its read models get.

    Fed its stored rows in version order, in as many pieces as they come; keeps a state
    every ``CHECKPOINT_EVERY`` versions and events' stored data for refolds: every
    event's, or with ``keep_every_row=False`` only those after the newest kept state,
    so that its memory does not grow with the stream (an undo or redo reaching further
    back then needs those rows given back first: ``refold_reach`` and ``restore``).
    """

    def __init__(self, stream_id: UUID, *, keep_every_row: bool = True) -> None:
        self.stream_id = stream_id
        self.version = 0
        self.codec: EventCodec | None = None
        self.state: Encounter[Any] | None = None
        self.keep_every_row = keep_every_row
        self.stored: list[asyncpg.Record] = []
        """The stored rows of versions ``stored_from + 1`` on, in order, for refolds
        (which decode again what they need rather than every event being kept decoded)."""
        self.stored_from = 0
        self.checkpoints: list[Encounter[Any]] = []
        self.state_row: StateRow | None = None
        self.log: list[tuple[Any, ...]] = []
        """log_entries records with every column (LOG_COLUMNS), ready to COPY."""
        self.plain_log: list[tuple[Any, ...]] = []
        """log_entries records of lines everyone sees as they are (PLAIN_LOG_COLUMNS)."""
        self.rolls: list[tuple[Any, ...]] = []
        self.held: list[asyncpg.Record] = []
        """Rows of the last command read, not projected yet (``feed``)."""
        self.damage: str | None = None
        """Why the stream's events cannot be folded (a gap in its versions, an event
        that does not decode): its read models are left alone, and the rebuild says so."""

    def feed(self, rows: Sequence[asyncpg.Record]) -> None:
        """Fold the stream's next stored events (SCAN_COLUMNS rows) and project them,
        holding back those of a command that may go on in the next rows: a command's
        events are projected together, since a secret roll in any of them makes all of
        them secret (``flush`` projects the rest once the stream's end is read)."""
        if self.damage is not None:
            return
        rows = [*self.held, *rows]
        last = rows[-1][6]
        cut = len(rows)
        while cut > 0 and rows[cut - 1][6] == last:
            cut -= 1
        self.held = rows[cut:]
        if cut:
            self._project_or_note(rows[:cut])

    def refold_reach(self, rows: Sequence[asyncpg.Record]) -> int | None:
        """The first version an undo or redo among the rows held and ``rows`` may refold
        from that this fold no longer keeps the row of, or None.

        An undo or redo touching version t refolds from the newest kept state before t;
        later history events can only drop states at or after their own t, so the newest
        state now kept before the smallest t is as far back as any of them can reach.
        """
        if self.stored_from == 0 or self.codec is None or self.damage is not None:
            return None
        decode = self.codec.decode_stored
        try:
            touched = [
                earliest_touched(decode(row[2], row[3], row[4]))
                for row in (*self.held, *rows)
                if kind_of(row[2]) in ("undo", "redo")
            ]
        except (ValueError, MissingUpcaster):
            return None  # folding the row notes the damage
        if not touched:
            return None
        reach = min(touched)
        base = max((c.version for c in self.checkpoints if c.version < reach), default=0)
        return base + 1 if base < self.stored_from else None

    def restore(self, first: int, rows: Sequence[asyncpg.Record]) -> None:
        """Give back the stored rows of versions ``first`` to ``stored_from``, the ones
        ``refold_reach`` asked for (read again after the fold dropped them)."""
        if [row[1] for row in rows] != list(range(first, self.stored_from + 1)):
            self.damage, self.held = f"versions {first} to {self.stored_from} went missing", []
            return
        self.stored[:0] = rows
        self.stored_from = first - 1

    def flush(self) -> None:
        held, self.held = self.held, []
        if held and self.damage is None:
            self._project_or_note(held)

    def _project_or_note(self, rows: Sequence[asyncpg.Record]) -> None:
        try:
            self._project(rows)
        except (ValueError, MissingUpcaster) as exc:  # msgspec's errors are ValueErrors
            self.damage, self.held = str(exc), []

    def _project(self, rows: Sequence[asyncpg.Record]) -> None:
        if self.codec is None:
            self.codec = codec_for(_ruleset_of(rows[0]))
        codec = self.codec
        recorded, events = _decode(codec, rows)
        if recorded[0].stream_version != self.version + 1 or (
            recorded[-1].stream_version != self.version + len(recorded)
        ):
            missing, stored = _first_gap(self.version + 1, recorded)
            raise ValueError(
                f"its events have a gap: version {missing} is missing (the next stored is {stored})"
            )
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
        if not self.keep_every_row and self.checkpoints:
            drop = self.checkpoints[-1].version - self.stored_from
            if drop > 0:
                del self.stored[:drop]
                self.stored_from += drop

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
        """The state after an undo or redo, as the live path works it out
        (service/write/prepare.py): states (there snapshots) from the first version it touches
        on are dropped, and the events after the newest one left are refolded with only
        those in effect counted."""
        assert self.codec is not None
        touched = earliest_touched(event)
        while self.checkpoints and self.checkpoints[-1].version >= touched:
            self.checkpoints.pop()
        base = self.checkpoints[-1] if self.checkpoints else None
        start = base.version if base is not None else 0
        decode = self.codec.decode_stored
        kept = self.stored[start - self.stored_from : recorded.stream_version - self.stored_from]
        if start < self.stored_from:
            raise AssertionError(f"version {start + 1} was not given back to refold from")
        tail = [decode(row[2], row[3], row[4]) for row in kept]
        versions = range(start + 1, recorded.stream_version + 1)
        after = fold_decoded(self.codec.ruleset, base, versions, tail)
        assert after is not None
        if after.version % CHECKPOINT_EVERY == 0:
            self.checkpoints.append(after)
        step = AppliedEvent(recorded, event, self.state, after)
        self.state = after
        return step


def _first_gap(expected: int, recorded: Sequence[RecordedEvent]) -> tuple[int, int]:
    """The first version missing from ``recorded`` (which should start at ``expected``)
    and the version stored in its place."""
    for event in recorded:
        if event.stream_version != expected:
            return expected, event.stream_version
        expected += 1
    raise AssertionError("no gap")


def _pieces(rows: list[asyncpg.Record]) -> Iterator[list[asyncpg.Record]]:
    """``rows`` of one stream, PIECE_EVENTS at a time."""
    for at in range(0, len(rows), PIECE_EVENTS):
        yield rows[at : at + PIECE_EVENTS]


def _ruleset_of(first: asyncpg.Record) -> str:
    """The ruleset named by a stream's first event (encounter.created or .forked)."""
    if first[1] != 1:
        raise ValueError(f"its events do not start at version 1 (the first is {first[1]})")
    name: str = msgspec.json.decode(first[4])["ruleset"]
    return name


def _decode(
    codec: EventCodec, rows: Iterable[asyncpg.Record]
) -> tuple[list[RecordedEvent], list[Any]]:
    """The envelopes and typed events of stored rows.

    The envelopes carry what the projector reads (stream, version, type, time); data,
    metadata, hashes and position stay unread, as in the live path's placeholders
    (events/append.py), since the typed event holds the data.
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
