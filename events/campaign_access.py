"""The campaign_tokens table: who may open a campaign.  SQL only; what a token means is
service/campaign_store/tokens.py's (the secret's digest is service/tokens.py's)."""

from __future__ import annotations

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
