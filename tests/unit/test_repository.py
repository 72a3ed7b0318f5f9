"""The repository stands on its own: a clone has everything its README and
docs point at, the license pyproject names, a CI script that runs the README's test
command as the README writes it, and a ``slow`` marker that says what the default run
does with it."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "bench/README.md"]


def test_no_page_points_outside_the_repository_or_at_a_missing_file() -> None:
    broken = []
    for page in _pages():
        text = page.read_text()
        assert "../shared" not in text, f"{page.relative_to(ROOT)} points at ../shared"
        for target in _LINK.findall(text):
            if "://" in target or target.startswith("mailto:"):
                continue
            resolved = (page.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert broken == []


def test_every_ruleset_has_its_docs_page_linked_from_the_readme() -> None:
    from service.registry import RULESETS

    readme = (ROOT / "README.md").read_text()
    for name in RULESETS:
        assert (ROOT / f"docs/rulesets/{name}.md").is_file()
        assert f"(docs/rulesets/{name}.md)" in readme


def test_the_license_pyproject_names_is_there() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_ci_runs_the_readme_test_command_as_written() -> None:
    """The script reads the command from the README; here the same extraction, run by
    the script's own awk program, must find the README's line verbatim."""
    script = (ROOT / ".ci/run").read_text()
    program = re.search(r"awk '([^']+)' README\.md", script)
    assert program is not None, ".ci/run no longer reads its command from the README"
    found = subprocess.run(
        ["awk", program.group(1), "README.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    blocks = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(), re.S)
    assert found in blocks
    assert found.endswith(".venv/bin/pytest")
    assert 'bash -c "$command"' in script


def test_the_slow_marker_says_what_the_default_run_does() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    ini_options = options["ini_options"]
    (slow,) = [m for m in ini_options["markers"] if m.startswith("slow:")]
    excluded = "not slow" in ini_options.get("addopts", "")
    assert ("excluded from the default run" in slow) == excluded
    assert ("part of the default run" in slow) == (not excluded)
