"""Reads of the replay log and the roll ledger, as a reader may see them: the lines, the
rolls and the marks (undone, secret, revealed) that decide what each reader is shown."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from projections.audience import players_audience
from projections.redaction import HIDDEN_TYPE, redact_roll
from service.health_text import render_health

_decode_any = msgspec.json.Decoder()


class UndoneMark(msgspec.Struct, frozen=True, kw_only=True):
    """Shown on a log entry or roll that an undo took back: it stays visible, struck
    through, so a re-roll after an undo is plain to every player."""

    undo_version: int
    """The version of the ``history.undone`` event."""
    by: dict[str, Any]
    """The actor who undid it (role and token id, never a token)."""
    at: datetime


class LogEntry(msgspec.Struct, frozen=True, kw_only=True):
    version: int
    round: int | None
    type: str
    text: str
    recorded_at: datetime
    rolls: list[Any] = []
    undone: UndoneMark | None = None


class Marks(msgspec.Struct, frozen=True):
    """What later events say about earlier ones, as of some version."""

    undone: dict[int, UndoneMark]
    """Versions out of effect, with who undid them."""
    revealed: frozenset[str]
    """Secret rolls the GM has shown the table."""
    hidden: dict[int, frozenset[str]] = {}
    """Versions whose command made hidden rolls, with their ids (read for players only)."""

    def secret_versions(self) -> frozenset[int]:
        """Versions players may not see in full: some roll of their command is hidden."""
        return frozenset(v for v, ids in self.hidden.items() if not ids <= self.revealed)

    def secret_sequels(self) -> frozenset[int]:
        """Secret versions after the first of their command (whose events all carry the
        command's roll ids, and no two commands share a roll)."""
        return frozenset(
            v for v in self.secret_versions() if self.hidden.get(v - 1) == self.hidden[v]
        )


async def read_marks(
    db: Database, encounter_id: UUID, *, up_to_version: int | None = None, secrets: bool = False
) -> Marks:
    """Undos, redos and reveals as of ``up_to_version`` (default: now).

    Worked out from those events themselves (a partial index keeps this to their few
    rows), so time travel and the current view can never disagree.
    """
    rows = await db.fetch(
        """SELECT stream_version, type, data, metadata->'actor' AS actor, recorded_at
           FROM events
           WHERE stream_id = $1
             AND (type LIKE 'history.%' OR type = 'dice.rolls_revealed')
             AND ($2::int IS NULL OR stream_version <= $2)
           ORDER BY stream_version""",
        encounter_id,
        up_to_version,
    )
    marks: dict[int, UndoneMark] = {}
    revealed: set[str] = set()
    for row in rows:
        data = _decode_any.decode(row["data"])
        if row["type"] == "dice.rolls_revealed":
            revealed.update(data["roll_ids"])
            continue
        versions = [v for span in data["commands"] for v in range(span["first"], span["last"] + 1)]
        if row["type"] == "history.undone":
            mark = UndoneMark(
                undo_version=row["stream_version"],
                by=_decode_any.decode(row["actor"]) if row["actor"] else {},
                at=row["recorded_at"],
            )
            marks.update(dict.fromkeys(versions, mark))
        else:
            for version in versions:
                marks.pop(version, None)
    hidden: dict[int, frozenset[str]] = {}
    if secrets:
        rows = await db.fetch(
            """SELECT version, hidden_rolls FROM log_entries
               WHERE encounter_id = $1 AND hidden_rolls <> '{}'
                 AND ($2::int IS NULL OR version <= $2)""",
            encounter_id,
            up_to_version,
        )
        hidden = {r["version"]: frozenset(r["hidden_rolls"]) for r in rows}
    return Marks(marks, frozenset(revealed), hidden)


async def log_entries(
    db: Database,
    encounter_id: UUID,
    *,
    after_version: int,
    limit: int,
    up_to_version: int | None = None,
    round_number: int | None = None,
    gm: bool = True,
) -> list[LogEntry]:
    """Log entries with their rolls; for players (``gm=False``) secret rolls not yet
    revealed are redacted and their line is the one that hides them, and each line's
    health parts are rendered for players (service/health_text.py), for the GM exactly.

    Each line is filed in the round the GM's table was in after it.  Players read every
    line from the first one still secret to them ($6) on in the public round instead,
    that of the last line before it: while a secret is open every command
    that could move the round is sealed, so a sealed turn that starts a round, one played
    in a round it started, and a note written meanwhile say so only once the secret opens
    (the ledger's records alike)."""
    marks = await read_marks(db, encounter_id, up_to_version=up_to_version, secrets=not gm)
    secret = marks.secret_versions() if not gm else frozenset()
    # The public round is a join of its own rather than a lateral subquery around the
    # line: Citus refuses a correlated subquery inside a subquery without FROM.
    rows = await db.fetch(
        """WITH public AS (
               SELECT p.round FROM log_entries p
               WHERE p.encounter_id = $1 AND p.version < $6
               ORDER BY p.version DESC LIMIT 1
           ), seen AS (
               SELECT l.*, CASE WHEN l.version >= $6 THEN coalesce(public.round, l.round)
                                ELSE l.round END AS seen_round
               FROM log_entries l LEFT JOIN public ON true
               WHERE l.encounter_id = $1 AND l.version > $2
                 AND ($4::int IS NULL OR l.version <= $4)
           )
           SELECT l.version, l.seen_round AS round, l.type, l.text, l.gm_text, l.hidden_rolls,
                  l.gm_only, l.recorded_at,
                  coalesce((SELECT json_agg(r.record ORDER BY length(r.roll_id), r.roll_id)
                            FROM roll_ledger r
                            WHERE r.encounter_id = l.encounter_id AND r.version = l.version),
                           '[]') AS rolls
           FROM seen l
           WHERE ($5::int IS NULL OR l.seen_round = $5)
           ORDER BY l.version LIMIT $3""",
        encounter_id,
        after_version,
        limit,
        up_to_version,
        round_number,
        min(secret, default=None),
    )
    if not rows:
        return []
    audience = None if gm else await players_audience(db, encounter_id)
    sequels = marks.secret_sequels()
    entries = []
    for r in rows:
        rolls = _decode_any.decode(r["rolls"])
        shows_all = gm or (not r["gm_only"] and marks.revealed.issuperset(r["hidden_rolls"]))
        if not gm:
            if r["version"] in secret:
                rolls = [roll for roll in rolls if not is_sealed_roll(roll["roll_id"])]
            rolls = [redact_roll(roll, marks.revealed) for roll in rolls]
        entries.append(
            LogEntry(
                version=r["version"],
                round=r["round"],
                type=HIDDEN_TYPE if r["version"] in sequels else r["type"],
                text=render_health(
                    r["gm_text"] if shows_all and r["gm_text"] else r["text"], audience
                ),
                recorded_at=r["recorded_at"],
                rolls=rolls,
                undone=marks.undone.get(r["version"]),
            )
        )
    return entries


async def rolls(
    db: Database,
    encounter_id: UUID,
    *,
    after_version: int,
    limit: int,
    up_to_version: int | None = None,
    gm: bool = True,
) -> list[dict[str, Any]]:
    """The roll ledger; for players (``gm=False``) secret rolls not yet revealed are
    redacted."""
    sealed: list[int] = []
    if not gm:
        # A sealed command shows players its one marker record (its seal id), not how
        # many rolls it made: its own records are left out in the query, so a page of
        # the ledger holds the same records whatever the secret rolled.
        marks = await read_marks(db, encounter_id, up_to_version=up_to_version, secrets=True)
        sealed = sorted(marks.secret_versions())
    rows = await db.fetch(
        """SELECT r.version,
                  CASE WHEN r.version >= $6 THEN
                    coalesce((SELECT p.round FROM log_entries p
                              WHERE p.encounter_id = $1 AND p.version < $6
                              ORDER BY p.version DESC LIMIT 1), r.round)
                  ELSE r.round END AS round,
                  r.record
           FROM roll_ledger r
           WHERE r.encounter_id = $1 AND r.version > $2
             AND ($4::int IS NULL OR r.version <= $4)
             AND NOT (r.version = ANY($5::int[]) AND r.roll_id LIKE 's%.%')
           ORDER BY r.version, length(r.roll_id), r.roll_id LIMIT $3""",
        encounter_id,
        after_version,
        limit,
        up_to_version,
        sealed,
        min(sealed, default=None),
    )
    if not rows:
        return []
    if gm:
        marks = await read_marks(db, encounter_id, up_to_version=up_to_version)
    found = []
    for r in rows:
        undone = marks.undone.get(r["version"])
        record = {
            "version": r["version"],
            "round": r["round"],
            **_decode_any.decode(r["record"]),
            "undone": msgspec.to_builtins(undone) if undone else None,
        }
        found.append(record if gm else redact_roll(record, marks.revealed))
    return found


def is_sealed_roll(roll_id: str) -> bool:
    """A roll of a sealed command (``s3.1``), not its marker (``s3``) nor a public roll."""
    return roll_id.startswith("s") and "." in roll_id
