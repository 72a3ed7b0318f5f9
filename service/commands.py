"""What the service layer takes and gives back, independent of HTTP.

These Structs are not events: an event records what happened, these carry a request
(who asks, which command, which dice) and its answer.
"""

from __future__ import annotations

from typing import Any, Literal, Required, TypedDict
from uuid import UUID

import msgspec

from events.envelope import RecordedEvent
from service.encounter import ForkOrigin


class Actor(msgspec.Struct, frozen=True, kw_only=True):
    """Who issued a command, as recorded in event metadata (never a token)."""

    role: Literal["gm", "player", "service"] = "gm"
    token_id: str | None = None
    correlation_id: str | None = None


class Write(TypedDict, total=False):
    """Who writes and on what terms: the same for every command-like request, so the
    pipeline's methods take them as ``**write`` and routes build them once
    (``api.http.writes``)."""

    actor: Required[Actor]
    expected_version: int | None
    """If-Match: the stream version the client read; a stale one is a 409."""
    idempotency_key: str | None
    request_hash: str
    """Fingerprint of the request body, to refuse a reused key with another body."""


class CommandEnvelope(msgspec.Struct, frozen=True, kw_only=True):
    command: Any
    """A command Struct of the encounter's ruleset."""
    manual_dice: list[list[int]] | None = None
    """Physical dice entered by the GM: one list of faces per roll the command makes."""
    hidden: bool = False
    """Secret GM roll: players see that it happened, not the result."""


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: UUID
    version: int
    events: list[RecordedEvent]


class CreatedEncounter(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: UUID
    ruleset: str
    name: str
    version: int
    dice_commitment: str
    """sha256(seed) of fairness epoch 1, published before any roll."""
    client_seed: str
    forked_from: ForkOrigin | None = None
    """For a fork: the encounter and version its state started from."""
    events: list[RecordedEvent]
    gm_token: str | None = None
    """The GM token, in the answer to the request that created the encounter only."""
