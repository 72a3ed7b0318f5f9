"""The rows a command adds to the inline read models (current state, replay log, roll
ledger), and how they join the command's one write statement.

projections/inline.py works them out; the command's write statement (events/append.py)
writes them with its events, reading the values of its read models' parameters from
``parameters`` (events/write.py's ``ProjectedRows``).  projections/rebuild.py copies the
same rows in bulk.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

import msgspec

_encode = msgspec.json.Encoder().encode


class StateRow(NamedTuple):
    encounter_id: UUID
    ruleset: str
    name: str
    version: int
    schema_version: int
    state_json: str
    created_at: datetime
    """The first event's time: kept by the upsert, used only when the row is new."""
    updated_at: datetime


class LogRow(NamedTuple):
    version: int
    round: int | None
    type: str
    text: str
    """What players see."""
    gm_text: str | None
    """The full line where it differs: secret rolls shown, or a GM-only note's text."""
    hidden_rolls: list[str]
    gm_only: bool
    recorded_at: datetime


class RollRow(NamedTuple):
    roll_id: str
    version: int
    round: int | None
    record_json: str


class ReadModelRows(NamedTuple):
    """What a command adds to the read models (projections/inline.py works it out)."""

    state: StateRow
    log: list[LogRow]
    rolls: list[RollRow]

    def parameters(self) -> dict[str, Any]:
        """The values of the read models' parameters of the write statement, by name."""
        state = self.state
        return {
            "ruleset": state.ruleset,
            "name": state.name,
            "schema_version": state.schema_version,
            "state": state.state_json,
            "created_at": state.created_at,
            "updated_at": state.updated_at,
            # Rows go as one JSON array each (a row is its NamedTuple's array): one
            # parameter and one msgspec call, where an array parameter per column cost
            # asyncpg an encoder and several abstract-class checks per column and per
            # element.  The statement reads them as jsonb (parsed once), as
            # the events' rows are (events/append.py).
            "log": _encode(self.log).decode(),
            "rolls": _encode(self.rolls).decode(),
        }
