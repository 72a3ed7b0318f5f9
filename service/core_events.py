"""Events every encounter has, whatever its ruleset: creation and the dice commitments.

They use the ``encounter.`` and ``dice.`` tag prefixes, which no ruleset may use.
"""

from __future__ import annotations

from typing import Any

import msgspec


class EncounterCreated(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="encounter.created"
):
    """The first event of every stream: which rules, which options, what it is called."""

    name: str
    ruleset: str
    options: dict[str, Any]


class SeedCommitted(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.seed_committed"
):
    """The server's public promise for a fairness epoch: sha256 of a secret seed.

    Server die k of this epoch is HMAC-SHA256(seed, f"{client_seed}:{k}") mapped to a
    face without modulo bias (service/dice/fair.py); nobody can check it until the seed
    is revealed, and nobody, the server included, can change it after this event.
    """

    epoch: int
    commitment: str
    client_seed: str


class SeedRevealed(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="dice.seed_revealed"
):
    """The GM published the seed of an epoch: every roll of it can now be recomputed."""

    epoch: int
    seed: str
    """The seed as lowercase hex."""


CoreEvent = EncounterCreated | SeedCommitted | SeedRevealed
CORE_EVENT_TYPES: tuple[type[msgspec.Struct], ...] = (EncounterCreated, SeedCommitted, SeedRevealed)
CORE_TAG_PREFIXES = ("encounter.", "dice.")
