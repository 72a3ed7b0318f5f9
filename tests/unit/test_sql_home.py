"""Where SQL lives: the write side calls functions of events/ and asks
the read models for their part of the write statement; the one statement's own parts
(guard, head, snapshots, seed, answer) in service/commit.py, and the wrapping that runs
them as statements of their own in service/split_write.py, are its only SQL."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

from projections.rows import ReadModelRows, RollRow, StateRow
from projections.statement import WITH_ROLLS, WITHOUT_ROLLS
from service.commit import _statement

ROOT = Path(__file__).resolve().parents[2]
_SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b")


def test_service_holds_no_sql_but_the_write_statement_s_own_parts() -> None:
    offences = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "service").rglob("*.py"))
        if path.name not in ("commit.py", "split_write.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if _SQL.search(node.value)
    ]
    assert offences == []


def test_the_rows_give_the_roll_ledger_part_only_when_it_writes_or_must_be_shared() -> None:
    at = datetime(2026, 1, 2, tzinfo=UTC)
    state = StateRow(uuid4(), "generic", "x", 1, 1, "{}", at, at)
    quiet = ReadModelRows(state, [], [])
    rolled = quiet._replace(rolls=[RollRow("r1", 1, None, "{}")])
    assert quiet.statement_part(False) is WITHOUT_ROLLS
    assert quiet.statement_part(True) is WITH_ROLLS
    assert rolled.statement_part(False) is WITH_ROLLS
    sql, names = _statement(False, False, WITH_ROLLS, False, False)
    assert "INSERT INTO roll_ledger" in sql and set(rolled.parameters()) <= set(names)
    sql, names = _statement(False, False, WITHOUT_ROLLS, False, False)
    assert "roll_ledger" not in sql and "rolls" not in names
