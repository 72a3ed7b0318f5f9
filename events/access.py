"""The access_tokens table: who may open an encounter.  SQL only; what a token means (its
secret, its role, which one is the last GM's) is service/tokens.py's.

The write statement checks a writer's token is unrevoked itself (events/append.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from events.db import Connection, Database


async def insert_token(
    db: Database,
    encounter_id: UUID,
    token_id: str,
    role: str,
    secret_sha256: bytes,
    combatants: Sequence[str],
    label: str | None,
) -> datetime:
    """Store a new token; when it was created."""
    row = await db.fetchrow(
        """INSERT INTO access_tokens (encounter_id, token_id, role, secret_sha256, combatants,
                                      label)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at""",
        encounter_id,
        token_id,
        role,
        secret_sha256,
        list(combatants),
        label,
    )
    assert row is not None
    created_at: datetime = row["created_at"]
    return created_at


async def unrevoked_token(db: Database, encounter_id: UUID, token_id: str) -> asyncpg.Record | None:
    """The unrevoked token's ``role``, ``secret_sha256`` and ``combatants``, or None."""
    return await db.fetchrow(
        """SELECT role, secret_sha256, combatants FROM access_tokens
           WHERE encounter_id = $1 AND token_id = $2 AND revoked_at IS NULL""",
        encounter_id,
        token_id,
    )


async def token_live(db: Database, encounter_id: UUID, token_id: str) -> bool:
    """Whether the token exists on the encounter and is not revoked."""
    live = await db.fetchval(
        """SELECT revoked_at IS NULL FROM access_tokens
           WHERE encounter_id = $1 AND token_id = $2""",
        encounter_id,
        token_id,
    )
    return bool(live)


async def live_token_ids(db: Database, encounter_id: UUID, token_ids: Sequence[str]) -> set[str]:
    """Which of ``token_ids`` still open the encounter (exist there and are not revoked)."""
    rows = await db.fetch(
        """SELECT token_id FROM access_tokens
           WHERE encounter_id = $1 AND token_id = ANY($2::text[]) AND revoked_at IS NULL""",
        encounter_id,
        list(token_ids),
    )
    return {r["token_id"] for r in rows}


async def is_stored(db: Database, token_id: str, secret_sha256: bytes) -> bool:
    """Whether a token with this id and secret digest was ever minted (revoked or not)."""
    found = await db.fetchval(
        "SELECT true FROM access_tokens WHERE token_id = $1 AND secret_sha256 = $2 LIMIT 1",
        token_id,
        secret_sha256,
    )
    return bool(found)


async def player_combatants(db: Database, encounter_id: UUID) -> frozenset[str]:
    """Combatants some live player token of the encounter is bound to."""
    rows = await db.fetch(
        """SELECT DISTINCT unnest(combatants) AS id FROM access_tokens
           WHERE encounter_id = $1 AND role = 'player' AND revoked_at IS NULL""",
        encounter_id,
    )
    return frozenset(r["id"] for r in rows)


async def health_audience(
    db: Database, encounter_id: UUID, *, with_state: bool = False
) -> tuple[str, frozenset[str], str | None]:
    """The encounter's ``npc_health`` setting, its player combatants (as
    ``player_combatants``) and, when asked, its stored state, in one statement: what a
    read of the log, the events or the statistics needs to show health to players."""
    row = await db.fetchrow(
        """SELECT (SELECT state->>'npc_health' FROM encounter_state
                   WHERE encounter_id = $1) AS npc_health,
                  (SELECT state::text FROM encounter_state
                   WHERE encounter_id = $1 AND $2) AS state,
                  ARRAY(SELECT DISTINCT unnest(combatants) FROM access_tokens
                        WHERE encounter_id = $1 AND role = 'player'
                          AND revoked_at IS NULL) AS players""",
        encounter_id,
        with_state,
    )
    assert row is not None
    return row["npc_health"] or "descriptor", frozenset(row["players"]), row["state"]


async def encounters_of_token(db: Database, token_id: str, secret_sha256: bytes) -> list[UUID]:
    """The encounters an unrevoked token with this id and secret digest opens."""
    rows = await db.fetch(
        """SELECT encounter_id FROM access_tokens
           WHERE token_id = $1 AND secret_sha256 = $2 AND revoked_at IS NULL""",
        token_id,
        secret_sha256,
    )
    return [r["encounter_id"] for r in rows]


async def tokens_of(db: Database, encounter_id: UUID) -> list[asyncpg.Record]:
    """The encounter's tokens, oldest first: ``token_id``, ``role``, ``combatants``,
    ``label``, ``created_at``, ``revoked_at`` (never the secret's digest)."""
    return await db.fetch(
        """SELECT token_id, role, combatants, label, created_at, revoked_at FROM access_tokens
           WHERE encounter_id = $1 ORDER BY created_at, token_id""",
        encounter_id,
    )


async def lock_tokens(conn: Connection, encounter_id: UUID) -> list[asyncpg.Record]:
    """The encounter's tokens (``token_id``, ``role``, ``live``), locked for the caller's
    transaction."""
    return await conn.fetch(
        """SELECT token_id, role, revoked_at IS NULL AS live FROM access_tokens
           WHERE encounter_id = $1 FOR UPDATE""",
        encounter_id,
    )


async def mark_revoked(conn: Connection, encounter_id: UUID, token_id: str) -> None:
    """Revoke the token; a token already revoked keeps when it was.

    The condition is in WHERE, not ``coalesce(revoked_at, now())``: Citus refuses a
    function that is not immutable inside COALESCE or CASE of a distributed UPDATE."""
    await conn.execute(
        """UPDATE access_tokens SET revoked_at = now()
           WHERE encounter_id = $1 AND token_id = $2 AND revoked_at IS NULL""",
        encounter_id,
        token_id,
    )
