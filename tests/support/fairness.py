"""The fairness check a player runs, taken verbatim from the project README, so the tests
prove the script the README hands players, not a copy of it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


def readme_fairness_script() -> str:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Provably fair server rolls", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def readme_check() -> Callable[[str, str, str, dict[str, Any]], bool]:
    """The README's ``check(seed_hex, commitment, client_seed, roll)``."""
    namespace: dict[str, Any] = {}
    exec(readme_fairness_script(), namespace)  # the README's own code, as a player runs it
    check: Callable[[str, str, str, dict[str, Any]], bool] = namespace["check"]
    return check
