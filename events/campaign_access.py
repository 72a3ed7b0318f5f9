"""The campaign_tokens table: who may open a campaign.  SQL only; what a token means is
service/campaign_store/tokens.py's (the secret's digest is service/tokens.py's)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from events.db import Database


async def insert_campaign_token(
    db: Database,
    campaign_id: UUID,
    token_id: str,
    role: str,
    secret_sha256: bytes,
    member: str | None,
    label: str | None,
) -> None:
    await db.execute(
        """INSERT INTO campaign_tokens (campaign_id, token_id, role, secret_sha256, member,
                                        label)
           VALUES ($1, $2, $3, $4, $5, $6)""",
        campaign_id,
        token_id,
        role,
        secret_sha256,
        member,
        label,
    )


async def unrevoked_campaign_token(
    db: Database, campaign_id: UUID, token_id: str
) -> asyncpg.Record | None:
    """The unrevoked token's ``role``, ``secret_sha256`` and ``member``, or None."""
    return await db.fetchrow(
        """SELECT role, secret_sha256, member FROM campaign_tokens
           WHERE campaign_id = $1 AND token_id = $2 AND revoked_at IS NULL""",
        campaign_id,
        token_id,
    )


async def copy_campaign_tokens(
    db: Database, campaign_id: UUID, encounter_id: UUID, members: Sequence[str]
) -> None:
    """Every unrevoked player token of the campaign bound to one of ``members``, and every
    unrevoked spectator token, becomes a token of the encounter too (a player's bound to
    that member): the same id and secret, so one token opens every encounter the campaign
    starts, with exactly an encounter token's rights, through every path that checks one."""
    await db.execute(
        """INSERT INTO access_tokens (encounter_id, token_id, role, secret_sha256, combatants,
                                      label)
           SELECT $2, token_id, role, secret_sha256,
                  CASE WHEN role = 'player' THEN ARRAY[member] ELSE ARRAY[]::text[] END, label
           FROM campaign_tokens
           WHERE campaign_id = $1 AND revoked_at IS NULL
             AND (role = 'spectator' OR (role = 'player' AND member = ANY($3::text[])))""",
        campaign_id,
        encounter_id,
        list(members),
    )


async def copy_campaign_gm_tokens(db: Database, campaign_id: UUID, encounter_id: UUID) -> None:
    """Every unrevoked GM token of the campaign becomes a GM token of the encounter (same
    id and secret), so the campaign's GM opens every encounter the campaign starts (or
    imports) with an encounter GM's rights.  Copied, not resolved through the encounter's
    link to the campaign on each request: a check stays one primary-key lookup in the
    encounter's tokens, the tokens a process remembers and the append's own revocation
    check cover it unchanged, and revoking the campaign's token revokes its copies
    (``revoke_campaign_token``)."""
    await db.execute(
        """INSERT INTO access_tokens (encounter_id, token_id, role, secret_sha256, combatants,
                                      label)
           SELECT $2, token_id, 'gm', secret_sha256, '{}', 'campaign GM'
           FROM campaign_tokens
           WHERE campaign_id = $1 AND role = 'gm' AND revoked_at IS NULL""",
        campaign_id,
        encounter_id,
    )


async def copy_campaign_token(
    db: Database, campaign_id: UUID, token_id: str, encounter_ids: Sequence[UUID]
) -> None:
    """The campaign's player or spectator token ``token_id`` becomes a token of each of
    ``encounter_ids`` (the same id, secret and role; a player's bound to its member)."""
    await db.execute(
        """INSERT INTO access_tokens (encounter_id, token_id, role, secret_sha256, combatants,
                                      label)
           SELECT e, token_id, role, secret_sha256,
                  CASE WHEN role = 'player' THEN ARRAY[member] ELSE ARRAY[]::text[] END, label
           FROM campaign_tokens, unnest($3::uuid[]) AS e
           WHERE campaign_id = $1 AND token_id = $2 AND role IN ('player', 'spectator')""",
        campaign_id,
        token_id,
        list(encounter_ids),
    )


async def campaign_tokens_of(db: Database, campaign_id: UUID) -> list[asyncpg.Record]:
    """The campaign's tokens, oldest first: ``token_id``, ``role``, ``member``, ``label``,
    ``created_at``, ``revoked_at`` (never the secret's digest)."""
    return await db.fetch(
        """SELECT token_id, role, member, label, created_at, revoked_at FROM campaign_tokens
           WHERE campaign_id = $1 ORDER BY created_at, token_id""",
        campaign_id,
    )


async def lock_campaign_tokens(db: Database, campaign_id: UUID) -> list[asyncpg.Record]:
    """The campaign's tokens (``token_id``, ``role``, ``live``), locked for the caller's
    transaction, as ``lock_tokens`` locks an encounter's."""
    return await db.fetch(
        """SELECT token_id, role, revoked_at IS NULL AS live FROM campaign_tokens
           WHERE campaign_id = $1 FOR UPDATE""",
        campaign_id,
    )


async def revoke_campaign_token(
    db: Database, campaign_id: UUID, token_id: str
) -> list[UUID] | None:
    """Revoke a campaign token and every copy of it in the campaign's encounters, in the
    caller's transaction: the encounters whose copy it revoked now (their open live
    streams of the token are to end), None when the campaign has no such token."""
    # The condition is in WHERE, not ``coalesce(revoked_at, now())``: Citus refuses a
    # function that is not immutable inside COALESCE or CASE of a distributed UPDATE.
    revoked = await db.fetchval(
        """UPDATE campaign_tokens SET revoked_at = now()
           WHERE campaign_id = $1 AND token_id = $2 AND revoked_at IS NULL
           RETURNING true""",
        campaign_id,
        token_id,
    )
    if revoked is None and not await db.fetchval(
        "SELECT true FROM campaign_tokens WHERE campaign_id = $1 AND token_id = $2",
        campaign_id,
        token_id,
    ):
        return None
    rows = await db.fetch(
        """UPDATE access_tokens AS a SET revoked_at = now()
           WHERE a.token_id = $2 AND a.revoked_at IS NULL
             AND EXISTS (SELECT FROM events AS e
                         WHERE e.stream_id = a.encounter_id AND e.stream_version = 1
                           AND e.data->>'campaign' = $1)
           RETURNING a.encounter_id""",
        str(campaign_id),
        token_id,
    )
    return [r["encounter_id"] for r in rows]
