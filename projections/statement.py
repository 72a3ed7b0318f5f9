"""The inline read models' part of a command's one write statement (service/commit.py).

service/commit.py assembles the statement from the events' part (events/append.py's
INSERT_EVENTS), the guard, snapshot, seed and answer parts of its own, and these: the
data-modifying CTEs that write the rows ``ReadModelRows`` (projections/rows.py) hold.
It asks the rows for them (``ReadModelRows.statement_part``), as an event store asks the
inline projections registered on it, so the write side holds no read model SQL.

The conventions of the statement a part joins (service/commit.py): ``$1`` is the stream
id, ``$3`` the version after the command; the CTE ``moved`` has a row exactly when the
write goes ahead; a part is a list of CTEs each starting ``, name AS (``; parameters are
named ``@name`` and given by ``ReadModelRows.parameters``.
"""

from __future__ import annotations

STATE_AND_LOG = """, state AS (
    INSERT INTO encounter_state (encounter_id, ruleset, name, version, schema_version, state,
                                 created_at, updated_at)
    SELECT $1, @ruleset, @name, $3, @schema_version, @state::json, @created_at, @updated_at
    WHERE EXISTS (SELECT FROM moved)
    ON CONFLICT (encounter_id) DO UPDATE
    SET name = EXCLUDED.name, version = EXCLUDED.version,
        schema_version = EXCLUDED.schema_version, state = EXCLUDED.state,
        updated_at = EXCLUDED.updated_at
), log AS (
    INSERT INTO log_entries (encounter_id, version, round, type, text, gm_text, hidden_rolls,
                             gm_only, recorded_at)
    SELECT $1, (l->>0)::int, (l->>1)::int, l->>2, l->>3, l->>4,
           ARRAY(SELECT jsonb_array_elements_text(l->5)), (l->>6)::boolean,
           (l->>7)::timestamptz
    FROM jsonb_array_elements(@log::jsonb) AS l
    WHERE EXISTS (SELECT FROM moved)
)"""
"""The current state (an upsert) and the replay log lines: every command writes both."""
ROLLS = """, rolls AS (
    INSERT INTO roll_ledger (encounter_id, roll_id, version, round, record)
    SELECT $1, r->>0, (r->>1)::int, (r->>2)::int, (r->>3)::json
    FROM jsonb_array_elements(@rolls::jsonb) AS r
    WHERE EXISTS (SELECT FROM moved)
)"""
"""The roll ledger: only for a command that rolled (or a group sharing one statement)."""

WITHOUT_ROLLS = STATE_AND_LOG
WITH_ROLLS = STATE_AND_LOG + ROLLS
"""The two variants, built once: service/commit.py caches a statement per variant, and
the same str object each time keeps that lookup to a cached hash."""
