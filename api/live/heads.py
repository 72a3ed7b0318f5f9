"""What this process recently read of encounters' heads and readers' tokens, kept only
as long as the wake-ups say it is still true: for a conditional read answered without
a round trip to PostgreSQL.

Why: a ``GET /encounters/{id}`` with a current ``If-None-Match`` (a client polling a
table that has not moved) needs only two facts, "this token still opens the encounter"
and "the encounter is still at version V", and with many clients polling the same table
the statement that fetches them was as costly as everything else the request does.

Both facts are the answers of that statement, remembered for at most ``seconds``, and
forgotten at once when this process learns otherwise: a commit (its wake-up, from this
process or another, api/live/hub.py) forgets the encounter's head, a revocation notice
the token, and a lost link (or a link back after an outage) everything.  Wake-ups reach
only the processes that follow the encounter live (through Redis or LISTEN/NOTIFY alike),
so elsewhere ``seconds`` bounds how long a 304 can lag a commit made through another
process.  A commit or revocation made through this process is never answered
from before it.

An answer is remembered only if no wake-up or revocation arrived while it was being
read (``generation``): an older read can never overwrite what a notice just cleared.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TypeVar
from uuid import UUID

from service.tokens import Viewer

_K = TypeVar("_K")
_V = TypeVar("_V")

_CAPACITY = 50_000
"""Entries of each kind before the oldest half is dropped: bounds memory with many
encounters polled, at the cost of a query for the forgotten ones."""


def token_digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class KnownHeads:
    """Heads and token checks of this process's recent reads, forgotten on notice."""

    __slots__ = ("_heads", "_seconds", "_tokens", "answered", "generation")

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._heads: dict[UUID, tuple[int, float]] = {}
        self._tokens: dict[tuple[UUID, str], tuple[bytes, Viewer, float]] = {}
        self.generation = 0
        """Moves on every notice; a read started in an older generation is not kept."""
        self.answered = 0
        """Conditional reads answered from here, without a database (counted so a
        reckoning of reads per database can account for them)."""

    @property
    def enabled(self) -> bool:
        return self._seconds > 0

    def head(self, encounter_id: UUID, now: float) -> int | None:
        """The encounter's version, if read within ``seconds`` and not changed since."""
        entry = self._heads.get(encounter_id)
        if entry is None or now - entry[1] > self._seconds:
            return None
        return entry[0]

    def viewer(self, encounter_id: UUID, token: str, now: float) -> Viewer | None:
        """Whom ``token`` stands for on the encounter, if checked within ``seconds`` and
        not revoked since; None when this process does not know."""
        token_id = token.partition(".")[0]
        entry = self._tokens.get((encounter_id, token_id))
        if entry is None or now - entry[2] > self._seconds:
            return None
        if not hmac.compare_digest(entry[0], token_digest(token)):
            return None
        return entry[1]

    def remember(
        self,
        encounter_id: UUID,
        version: int,
        token: str | None,
        viewer: Viewer | None,
        *,
        asked_at: float,
        generation: int,
    ) -> None:
        """What a read that started at ``asked_at`` in ``generation`` found: the head,
        and the viewer a (non service-key) token was checked to be."""
        if not self.enabled or generation != self.generation:
            return
        if len(self._heads) >= _CAPACITY:
            self._heads = _newer_half(self._heads)
        self._heads[encounter_id] = (version, asked_at)
        if token is not None and viewer is not None and viewer.token_id is not None:
            if len(self._tokens) >= _CAPACITY:
                self._tokens = _newer_half(self._tokens)
            self._tokens[(encounter_id, viewer.token_id)] = (token_digest(token), viewer, asked_at)

    def moved(self, encounter_id: UUID) -> None:
        """A commit on the encounter: its head must be read again."""
        self.generation += 1
        self._heads.pop(encounter_id, None)

    def revoked(self, encounter_id: UUID, token_id: str) -> None:
        self.generation += 1
        self._tokens.pop((encounter_id, token_id), None)

    def forget(self) -> None:
        """Notices may have been lost: nothing known is trusted."""
        self.generation += 1
        self._heads.clear()
        self._tokens.clear()


def _newer_half(entries: dict[_K, _V]) -> dict[_K, _V]:
    """The later-inserted half of ``entries`` (roughly the newer reads)."""
    kept = list(entries.items())
    return dict(kept[len(kept) // 2 :])
