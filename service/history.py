"""Undo and redo as pure decisions over the shape of a stream (design section 4).

Nothing is deleted: an undo appends ``history.undone`` naming the commands it takes
back, a redo appends ``history.redone``.  Which events are in effect at a version is
therefore a function of the history events up to it, and everything here works on a
compact outline of the stream (one ``Entry`` per command) rather than on states.

Choices where the issue leaves room, also stated in docs/storage-and-undo.md:

- Only ruleset commands can be undone.  Creation, forks and dice commitments and
  reveals are never taken back (a revealed seed cannot be unrevealed), and are skipped
  when counting commands.
- ``POST /undo`` with no arguments takes back the last command.  When that command is
  itself an undo, it is redone, and when it is a redo, that redo is undone: undo of an
  undo is a redo.  ``steps`` and ``to_version`` count ruleset commands only, so they go
  further back through the game.
- Redo works like an editor's: every undo since the last ruleset command can be redone,
  newest first; a ruleset command appended after an undo ends that.
- ``to_version`` must fall on a boundary between commands, so a command is never half
  taken back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from events.hashing import SEALED
from service.core_events import CommandSpan, HistoryEvent, Redone, Undone

Kind = Literal["core", "game", "undo", "redo"]


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One command of the stream: the versions it appended and what kind it was."""

    span: CommandSpan
    kind: Kind
    history: HistoryEvent | None = None


class CannotUndo(Exception):
    """Undo would take back nothing or reach past the start: 422."""


class NothingToRedo(Exception):
    """No undo is waiting to be redone: 409, with the reason."""


def kind_of(event_type: str) -> Kind:
    if event_type == "history.undone":
        return "undo"
    if event_type == "history.redone":
        return "redo"
    if event_type == SEALED:  # a sealed command is a game command, taken back as one
        return "game"
    if event_type.startswith(("encounter.", "dice.")):
        return "core"
    return "game"


def reverted_versions(history: Iterable[HistoryEvent]) -> set[int]:
    """The versions out of effect after these history events, applied in order."""
    reverted: set[int] = set()
    for event in history:
        versions = {v for span in event.commands for v in span.versions()}
        if isinstance(event, Undone):
            reverted |= versions
        else:
            reverted -= versions
    return reverted


def earliest_touched(event: HistoryEvent) -> int:
    """The first version whose effect this history event changes: snapshots from it on
    describe a history that no longer holds."""
    return min(span.first for span in event.commands)


class Outline:
    """The stream as commands, with what is out of effect and what can be redone."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = tuple(entries)
        self.reverted: set[int] = set()
        self.redo_stack: list[Entry] = []
        """Undo entries that can still be redone, newest last."""
        self.last_game: Entry | None = None
        for entry in self.entries:
            match entry.kind:
                case "game":
                    self.redo_stack.clear()
                    self.last_game = entry
                case "undo":
                    assert entry.history is not None
                    self.reverted |= set(_versions(entry.history.commands))
                    self.redo_stack.append(entry)
                case "redo":
                    assert isinstance(entry.history, Redone)
                    self.reverted -= set(_versions(entry.history.commands))
                    if self.redo_stack and self.redo_stack[-1].span.first == (
                        entry.history.undo_version
                    ):
                        self.redo_stack.pop()
                case "core":
                    pass

    def in_effect(self, entry: Entry) -> bool:
        return entry.kind == "game" and entry.span.first not in self.reverted

    def active_game(self) -> list[Entry]:
        return [e for e in self.entries if self.in_effect(e)]


def _versions(spans: Iterable[CommandSpan]) -> list[int]:
    return [v for span in spans for v in span.versions()]


def plan_undo(
    outline: Outline,
    *,
    steps: int | None = None,
    to_version: int | None = None,
    reason: str | None = None,
) -> Undone | Redone:
    """The history event an undo request appends, or CannotUndo saying why not."""
    if steps is not None and to_version is not None:
        raise CannotUndo("give either steps or to_version, not both")
    if to_version is not None:
        return _undo_to(outline, to_version, reason)
    if steps is None:
        last = _last_undoable(outline)
        if last.kind == "undo":
            assert isinstance(last.history, Undone)
            return Redone(
                undo_version=last.span.first, commands=last.history.commands, reason=reason
            )
        if last.kind == "redo":
            assert last.history is not None
            return Undone(commands=last.history.commands, reason=reason)
        return Undone(commands=(last.span,), reason=reason)
    active = outline.active_game()
    if steps > len(active):
        raise CannotUndo(
            f"cannot undo {steps} commands: only {len(active)} in effect since the start of"
            " the encounter, and undoing past the start is refused"
        )
    return Undone(commands=tuple(e.span for e in active[-steps:]), reason=reason)


def _last_undoable(outline: Outline) -> Entry:
    for entry in reversed(outline.entries):
        if entry.kind in ("undo", "redo") or outline.in_effect(entry):
            return entry
    raise CannotUndo(
        "there is nothing to undo: no command in effect since the start of the encounter"
    )


def _undo_to(outline: Outline, to_version: int, reason: str | None) -> Undone:
    start = outline.entries[0].span.last if outline.entries else 0
    if to_version < start:
        raise CannotUndo(
            f"cannot undo to version {to_version}: the encounter starts at version {start},"
            " and undoing past the start is refused"
        )
    for entry in outline.entries:
        if entry.span.first <= to_version < entry.span.last:
            raise CannotUndo(
                f"version {to_version} is in the middle of {entry.span.command_type}"
                f" (versions {entry.span.first}-{entry.span.last}); undo to version"
                f" {entry.span.first - 1} or {entry.span.last} so no command is half taken back"
            )
    later = [e.span for e in outline.active_game() if e.span.first > to_version]
    if not later:
        raise CannotUndo(f"there is nothing to undo after version {to_version}")
    return Undone(commands=tuple(later), reason=reason)


def plan_redo(outline: Outline, *, reason: str | None = None) -> Redone:
    """Re-apply what the newest undo still waiting took back, or NothingToRedo."""
    if outline.redo_stack:
        undo = outline.redo_stack[-1]
        assert undo.history is not None
        return Redone(undo_version=undo.span.first, commands=undo.history.commands, reason=reason)
    undos = [e for e in outline.entries if e.kind == "undo"]
    if not undos:
        raise NothingToRedo("there is nothing to redo: no command has been undone")
    last_undo = undos[-1]
    later = [e for e in outline.entries if e.kind == "game" and e.span.first > last_undo.span.first]
    if later:
        first = later[0].span
        raise NothingToRedo(
            f"cannot redo: {first.command_type} (version {first.first}) came in after the undo"
            f" at version {last_undo.span.first}; redo is possible only until a new command"
            " is appended"
        )
    raise NothingToRedo("there is nothing left to redo: every undo has been redone")
