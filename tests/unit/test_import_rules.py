"""The import rules of the design, enforced (design section 1; issue 17 item 3):
``api -> service, projections -> events``, and rulesets import nothing that does I/O.

Read from the source with ``ast``, so a lazy import inside a function counts as well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "events": ("service", "projections", "api"),
    "service": ("api", "projections"),
    "projections": ("api",),
    "telemetry": ("events", "service", "projections", "api"),
    "service/rulesets": (
        "api", "projections", "events", "asyncpg", "redis", "litestar", "httpx", "uvicorn",
        "logging", "random", "time", "datetime", "socket", "os", "subprocess",
        "service.pipeline", "service.loading", "service.commit", "service.tokens",
        "service.group_commit",
    ),
}  # fmt: skip
"""Package (a folder under the project root) -> modules none of its files may import."""


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _breaks(module: str, forbidden: tuple[str, ...]) -> bool:
    return any(module == f or module.startswith(f + ".") for f in forbidden)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_module_imports_against_the_direction_of_the_layers(package: str) -> None:
    offences = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module in sorted(_imports(path))
        if _breaks(module, FORBIDDEN[package])
    ]
    assert offences == []


def test_the_rule_catches_an_offence() -> None:
    assert _breaks("asyncpg.pool", FORBIDDEN["service/rulesets"])
    assert not _breaks("service.dice.model", FORBIDDEN["service/rulesets"])
