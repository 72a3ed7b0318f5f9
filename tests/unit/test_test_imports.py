"""Tests share helpers through tests/support (and a folder's own helper modules), never by
importing another test module: a test file is run by pytest, not used as a library, and
one that serves others cannot be changed or removed on its own terms."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _imported(path: Path, source: str | None = None) -> Iterator[tuple[int, str]]:
    """Each module the file at ``path`` imports, with relative imports resolved, by
    line (``source``: the file's text, when it is not on disk)."""
    package = ".".join(path.relative_to(TESTS.parent).parent.parts)
    text = path.read_text() if source is None else source
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            yield node.lineno, base
            for alias in node.names:  # ``from tests.e2e import test_live`` imports a module
                yield node.lineno, f"{base}.{alias.name}"


def _is_test_module(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return name.startswith("tests.") and last.startswith("test_")


def test_no_test_imports_a_test_module() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}:{line}: {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, name in _imported(path)
        if _is_test_module(name)
    ]
    assert found == [], "move what is shared to tests/support:\n" + "\n".join(found)


def test_the_root_conftest_does_not_reach_into_a_test_folder() -> None:
    """The root conftest runs for every test; what it needs lives in tests/support."""
    names = [name for _, name in _imported(TESTS / "conftest.py")]
    outside = [n for n in names if n.startswith("tests.") and not n.startswith("tests.support")]
    assert outside == []


def test_the_check_sees_absolute_relative_and_from_imports() -> None:
    probe = TESTS / "e2e" / "secrecy" / "probe.py"
    lines = ["import tests.e2e.test_live", "from .. import test_live", "from ..test_live import x"]
    imported = [n for _, n in _imported(probe, "\n".join(lines)) if _is_test_module(n)]
    assert imported == ["tests.e2e.test_live"] * 3
    assert not [n for _, n in _imported(probe, "from .scenarios import x") if _is_test_module(n)]
