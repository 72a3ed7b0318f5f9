"""The shape of a secrecy scenario (scenarios.py gathers one per ruleset)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Dice = list[list[int]] | None


@dataclass(frozen=True)
class Scenario:
    options: dict[str, Any]
    setup: list[tuple[dict[str, Any], Dice]]
    player: list[str]
    """What the player token is bound to (its combatants, units or sides)."""
    secret: tuple[dict[str, Any], list[list[int]]]
    """The hidden GM command and its manual dice: distinctive faces, so that a leak of a
    face or a total is easy to see."""
    player_move: dict[str, Any] | None = None
    """A command the bound player may send from their sheet (server dice), for the
    noninterference test; None: it sends the GM's command and is refused the same way."""
    quiet_secret: tuple[dict[str, Any], list[list[int]]] | None = None
    """A hidden GM command its ruleset says changes nothing later commands read
    (``secret_changes_nothing``): the noninterference test plays public commands after it
    unsealed, which proves the ruleset right."""
