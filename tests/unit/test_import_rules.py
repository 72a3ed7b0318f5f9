"""The import rules of the design, enforced as allow-lists: ``api -> service, projections
-> events``, telemetry beside everything and depending on nothing of ours, and rulesets
that import nothing that does I/O.

Each folder lists what it may import; anything else of ours is an offence, so a new
package or module is refused until a rule admits it.  Read from the source with ``ast``:
a lazy import inside a function counts, and a relative import counts as the module it
names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

OURS = ("api", "service", "projections", "events", "telemetry")
"""The project's top-level packages."""

SERVICE_PURE = (
    "service.campaigns",
    "service.applied",
    "service.carry_over",
    "service.codec",
    "service.combat_facts",
    "service.combat_stats",
    "service.core_events",
    "service.dice",
    "service.encounter",
    "service.envelopes",
    "service.health_seal",
    "service.health_text",
    "service.history",
    "service.registry",
    "service.ruleset",
    "service.secrecy",
)
"""The modules of service/ that do no I/O: the rulesets' interface, the core event types
and the folds over them, which the read side needs to fold a stream as the write side
does."""

ALLOWED: dict[str, tuple[str, ...]] = {
    "api": ("service", "projections", "events", "telemetry"),
    "service": ("events", "telemetry"),
    "projections": ("events", "telemetry", *SERVICE_PURE),
    "events": (),
    "telemetry": (),
}
"""Folder -> the modules of ours (besides its own) its files may import."""

EXCEPTIONS: dict[str, tuple[str, ...]] = {
    "projections": (
        # The read side folds a stream for a player's view, the round replay and the
        # statistics with the write side's loader, which reads PostgreSQL.  The write-path
        # redesign gives the fold a pure home of its own; until then this is the one way
        # the projections reach into service's I/O.
        "service.loading",
        # StoredToken (a row of access_tokens) is declared beside the token checks that
        # read it; it belongs with the access rows in events/, moved with the redesign.
        "service.tokens",
    ),
}
"""Imports that break ``ALLOWED`` today, each with why and what removes it."""

RULESETS_ALLOWED = (
    "__future__",
    "abc",
    "collections",
    "dataclasses",
    "enum",
    "fractions",
    "functools",
    "itertools",
    "math",
    "operator",
    "re",
    "string",
    "typing",
    "msgspec",
    "service.carry_over",
    "service.combat_facts",
    "service.dice",
    "service.health_text",
    "service.options",
    "service.ruleset",
    "service.rulesets",
    "service.secrecy",
)
"""Everything a ruleset may import, standard library included: pure code only, so no
database, network, clock, randomness or environment (the dice are given to ``decide``)."""

FOLDERS = {**{name: name for name in OURS}, "service/rulesets": "service.rulesets"}
"""Folder -> the package it is."""


def _imports(path: Path, source: str | None = None) -> Iterator[str]:
    """Each module the file at ``path`` imports, relative imports resolved; for
    ``from package import name``, ``package.name`` (a module or a name defined in
    ``package``: the rules hold for both)."""
    package = list(path.relative_to(ROOT).parts[:-1])
    text = path.read_text() if source is None else source
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            yield from (f"{module}.{alias.name}" for alias in node.names)


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _offences(folder: str) -> list[str]:
    """What the files of ``folder`` import of ours that its rules do not allow."""
    own = FOLDERS[folder].split(".")[0]
    allowed = ALLOWED[own] + EXCEPTIONS.get(own, ())
    return [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for module in sorted(set(_imports(path)))
        if module.split(".")[0] in OURS
        and module.split(".")[0] != own
        and not _within(module, allowed)
    ]


@pytest.mark.parametrize("folder", OURS)
def test_each_folder_imports_only_what_its_rules_allow(folder: str) -> None:
    assert _offences(folder) == []


def test_rulesets_import_only_pure_code() -> None:
    offences = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in sorted((ROOT / "service" / "rulesets").rglob("*.py"))
        for module in sorted(set(_imports(path)))
        if not _within(module, RULESETS_ALLOWED)
    ]
    assert offences == []


def test_every_exception_is_still_needed() -> None:
    """An exception nothing uses any more goes, so the list says what is left to fix."""
    for folder, modules in EXCEPTIONS.items():
        used = {m for path in (ROOT / folder).rglob("*.py") for m in _imports(path)}
        for exception in modules:
            assert any(_within(m, (exception,)) for m in used), f"{folder}: {exception}"


def test_nothing_outside_routes_imports_a_route() -> None:
    """Controllers are entry points, not a library: the app registers them through
    ``api.routes.route_handlers`` and nothing else reaches into a route module."""
    offences = [
        f"{path.relative_to(ROOT)} imports {module}"
        for folder in OURS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not path.is_relative_to(ROOT / "api" / "routes")
        for module in sorted(set(_imports(path)))
        if _within(module, ("api.routes",)) and module != "api.routes.route_handlers"
    ]
    assert offences == []


def test_api_keeps_at_most_ten_modules_at_its_top_level() -> None:
    """Everything else lives in a room of its own (live/, http/, openapi/, cli/, ...)."""
    assert len(list((ROOT / "api").glob("*.py"))) <= 10


def test_settings_depend_on_nothing_of_ours() -> None:
    """Every process reads them first, the CLI before anything is started."""
    imported = set(_imports(ROOT / "api" / "settings.py"))
    assert not [m for m in imported if m.split(".")[0] in OURS]


def test_the_service_reads_no_environment_variable_itself() -> None:
    """Its settings come from api/settings.py, where every variable is declared once."""
    reads = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((ROOT / "service").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
        and node.attr in ("environ", "getenv", "environb")
    ]
    assert reads == []


def test_the_rules_see_relative_imports_and_catch_offences() -> None:
    probe = ROOT / "projections" / "probe.py"
    source = "from ..service import loading\nfrom ..api.app import x\nfrom .stats import y\n"
    assert set(_imports(probe, source)) == {
        "service.loading",
        "api.app.x",
        "projections.stats.y",
    }
    assert not _within("api.app", ALLOWED["projections"] + EXCEPTIONS["projections"])
    assert _within("service.dice.model", RULESETS_ALLOWED)
    assert not _within("asyncpg.pool", RULESETS_ALLOWED)


def test_the_write_path_is_imported_only_from_api_and_from_itself() -> None:
    """service/write/ stands on the rest of service/ (the rulesets, the fold, the core
    events); nothing below it reaches back into it, so its walk starts at api/."""
    write_path = ROOT / "service" / "write"
    offences = [
        f"{path.relative_to(ROOT)} imports {module}"
        for folder in ("service", "projections", "events", "telemetry")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not path.is_relative_to(write_path)
        for module in sorted(set(_imports(path)))
        if _within(module, ("service.write",))
    ]
    assert offences == []
