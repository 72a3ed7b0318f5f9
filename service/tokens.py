"""Access tokens: minted by the GM, bound to one encounter, stored only as a hash.

A token reads ``<token_id>.<secret>``: the id is public (it is what events record as
the actor), the secret is 256 random bits of which only a SHA-256 is kept.  Checking
one is a primary-key lookup and a constant-time comparison of digests.  The table's SQL
is events/access.py's.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Literal, NamedTuple, cast
from uuid import UUID

import asyncpg
import msgspec

from events.access import (
    encounters_of_token,
    insert_token,
    lock_tokens,
    mark_revoked,
    token_live,
    tokens_of,
    unrevoked_token,
)
from events.db import Database
from service.lru import LRU

Role = Literal["gm", "player", "spectator"]
"""A spectator reads what a player reads and follows the live stream, and issues nothing:
a table's screen or a stream overlay, which must never be able to act."""


class Viewer(msgspec.Struct, frozen=True, kw_only=True):
    """Who is asking, once their token checked out (never the token itself)."""

    role: Literal["gm", "player", "spectator", "service"]
    token_id: str | None = None
    combatants: frozenset[str] = frozenset()
    """What a player may act for: combatant, unit or side ids of the ruleset."""

    @property
    def is_gm(self) -> bool:
        return self.role in ("gm", "service")


class TokenInfo(msgspec.Struct, frozen=True, kw_only=True):
    token_id: str
    role: Role
    combatants: list[str]
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = None


class MintedToken(msgspec.Struct, frozen=True, kw_only=True):
    """The only answer that ever carries the secret token."""

    token: str
    info: TokenInfo


def secret_digest(secret: str) -> bytes:
    """What is stored of a token's secret (campaign tokens keep it the same way)."""
    return hashlib.sha256(secret.encode()).digest()


async def mint(
    db: Database,
    encounter_id: UUID,
    *,
    role: Role,
    combatants: Sequence[str] = (),
    label: str | None = None,
) -> MintedToken:
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    created_at = await insert_token(
        db, encounter_id, token_id, role, secret_digest(secret), combatants, label
    )
    info = TokenInfo(
        token_id=token_id,
        role=role,
        combatants=list(combatants),
        label=label,
        created_at=created_at,
    )
    return MintedToken(token=f"{token_id}.{secret}", info=info)


async def authenticate(db: Database, encounter_id: UUID, token: str) -> Viewer | None:
    """The viewer a token stands for on this encounter, or None (wrong, revoked, other
    encounter's).  The same work is done whether or not the id exists."""
    row = await unrevoked_token(db, encounter_id, token.partition(".")[0])
    if row is None:
        return checked(token, None)
    return checked(token, StoredToken(row["role"], bytes(row["secret_sha256"]), row["combatants"]))


class StoredToken(NamedTuple):
    role: str
    secret_sha256: bytes
    combatants: Sequence[str]


def checked(token: str, stored: StoredToken | None) -> Viewer | None:
    """The viewer ``token`` stands for if ``stored`` (its unrevoked row, read by the
    caller in whatever statement suits it) matches its secret; the same work is done
    whether or not there is a row."""
    token_id, _, secret = token.partition(".")
    expected = stored.secret_sha256 if stored is not None else b"\0" * 32
    if not hmac.compare_digest(expected, secret_digest(secret)) or stored is None:
        return None
    role = cast("Role", stored.role)  # the table's CHECK allows only the roles there are
    return Viewer(role=role, token_id=token_id, combatants=frozenset(stored.combatants))


async def is_live(db: Database, encounter_id: UUID, token_id: str) -> bool:
    """Whether the token still opens the encounter (not revoked)."""
    return await token_live(db, encounter_id, token_id)


async def encounters_opened_by(db: Database, token: str) -> list[UUID]:
    """The encounters a valid token opens (one, for tokens minted here)."""
    token_id, _, secret = token.partition(".")
    return await encounters_of_token(db, token_id, secret_digest(secret))


class TokenRevoked(Exception):
    """A write came with a token that was revoked after it was last checked."""

    def __str__(self) -> str:
        return "the token was revoked"


class KnownTokens:
    """Tokens this process has checked: a write needs no query to know who is asking.

    Trusted only where the write re-checks revocation in its own statement
    (events/append.py), so a revoked token is refused from the next request on, on
    every process; reads and token management always query.  Keyed by a digest of the
    whole token, so the secret is never held.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._viewers: LRU[tuple[UUID, bytes], Viewer] = LRU(capacity)

    async def authenticate(self, db: Database, encounter_id: UUID, token: str) -> Viewer | None:
        key = (encounter_id, secret_digest(token))
        viewer = self._viewers.get(key)
        if viewer is None:
            viewer = await authenticate(db, encounter_id, token)
            if viewer is not None:
                self._viewers.put(key, viewer)
        return viewer


async def list_tokens(db: Database, encounter_id: UUID) -> list[TokenInfo]:
    return [TokenInfo(**dict(r)) for r in await tokens_of(db, encounter_id)]


RevokeOutcome = Literal["revoked", "not_found", "last_gm"]


async def revoke(pool: asyncpg.Pool, encounter_id: UUID, token_id: str) -> RevokeOutcome:
    """Revoke a token (idempotent), unless it is the encounter's last valid GM token:
    nobody could run the table after that.  The encounter's tokens are locked while
    deciding, so two GMs revoking each other's tokens cannot both succeed."""
    async with pool.acquire() as conn, conn.transaction():
        rows = await lock_tokens(conn, encounter_id)
        target = next((r for r in rows if r["token_id"] == token_id), None)
        if target is None:
            return "not_found"
        live_gms = [r for r in rows if r["role"] == "gm" and r["live"]]
        if target["live"] and target["role"] == "gm" and len(live_gms) == 1:
            return "last_gm"
        await mark_revoked(conn, encounter_id, token_id)
    return "revoked"
