"""The rows a command adds to the inline read models (current state, replay log, roll
ledger), and how they join the command's one write statement.

projections/inline.py works them out; service/commit.py writes them, asking them for
their statement part and its parameters (service/commit.py's ``ProjectedRows``: the
write side knows that protocol, not this module).  projections/rebuild.py copies the
same rows in bulk.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple
from uuid import UUID

import msgspec

from projections.statement import WITH_ROLLS, WITHOUT_ROLLS

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

    def statement_part(self, every_part: bool) -> str:
        """The CTEs writing these rows (projections/statement.py); ``every_part`` keeps
        the roll ledger's even with no rolls, so that writes can share one statement."""
        return WITH_ROLLS if every_part or self.rolls else WITHOUT_ROLLS

    def parameters(self) -> dict[str, Any]:
        """The named parameters of ``statement_part`` (either variant)."""
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
            # events.store's INSERT_EVENTS does.
            "log": _encode(self.log).decode(),
            "rolls": _encode(self.rolls).decode(),
        }
