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
    player_moves: tuple[dict[str, Any], ...] = ()
    """Commands the bound player sends from their own sheet (server dice) in the
    noninterference test: each is decided by the ruleset when no secret is open (allowed,
    or refused by a rule, depending on the run) and held for the GM while one is."""
    gm_moves: tuple[dict[str, Any], ...] = ()
    """Public GM commands besides the secret one played in public, that move the table on
    (a turn ends) so that the player's moves meet more than one state."""
    secret_variants: tuple[tuple[dict[str, Any], list[list[int]]], ...] = ()
    """Other forms of the secret command that differ from it only in what is secret (its
    hidden values: a modifier, a damage notation), with dice for each: the
    noninterference test draws each world's form among them and ``secret`` on its own."""
    players_turn: tuple[int, ...] = ()
    """The GM's public moves, in the noninterference test's numbering (0: the secret
    command played in public with its scenario dice, ``i``: ``gm_moves[i - 1]``), after
    which the player's first move is decided by the ruleset, not refused: the test plays
    that run every time, so each ruleset decides a real command of the player's."""
    quiet_secret: tuple[dict[str, Any], list[list[int]]] | None = None
    """A hidden GM command its ruleset says changes nothing later commands read
    (``secret_changes_nothing``): the noninterference test plays public commands after it
    unsealed, which proves the ruleset right."""
