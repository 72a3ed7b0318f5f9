"""A campaign's tokens: the GM's, minted with the campaign, and a player's, bound to one
member of the party.  Stored as a digest only, checked in constant time, exactly as an
encounter's tokens are (service/tokens.py, whose secret handling this reuses)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from uuid import UUID

import asyncpg

from events.campaign_access import (
    copy_campaign_gm_tokens,
    copy_campaign_tokens,
    insert_campaign_token,
    revoke_campaign_token,
    unrevoked_campaign_token,
)
from events.db import Database
from service.tokens import Role, StoredToken, Viewer, checked, secret_digest


async def mint_campaign_token(
    db: Database,
    campaign_id: UUID,
    *,
    role: Role,
    member: str | None = None,
    label: str | None = None,
) -> str:
    """A new token of the campaign (``member`` for a player's); the token itself, shown
    this once."""
    token_id, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
    await insert_campaign_token(
        db, campaign_id, token_id, role, secret_digest(secret), member, label
    )
    return f"{token_id}.{secret}"


async def campaign_viewer(db: Database, campaign_id: UUID, token: str) -> Viewer | None:
    """Who ``token`` stands for on the campaign (a player: its member as its one
    combatant), or None; the same work whether or not the id exists."""
    row = await unrevoked_campaign_token(db, campaign_id, token.partition(".")[0])
    stored = None
    if row is not None:
        members = [row["member"]] if row["member"] is not None else []
        stored = StoredToken(row["role"], bytes(row["secret_sha256"]), members)
    return checked(token, stored)


async def share_with_encounter(
    db: Database, campaign_id: UUID, encounter_id: UUID, members: Sequence[str]
) -> None:
    """The campaign's player tokens of ``members`` open ``encounter_id`` as well."""
    await copy_campaign_tokens(db, campaign_id, encounter_id, members)


async def open_to_campaign_gm(db: Database, campaign_id: UUID, encounter_id: UUID) -> None:
    """The campaign's GM token opens ``encounter_id`` as its GM.  Copied, not resolved
    through the encounter's link to the campaign on each request: a check stays one
    primary-key lookup in the encounter's tokens, the tokens a process remembers
    (``KnownTokens``) and the append's own revocation check cover it unchanged, and
    revoking the campaign's token revokes its copies (``revoke_campaign_token``)."""
    await copy_campaign_gm_tokens(db, campaign_id, encounter_id)


async def mint_player_token(
    pool: asyncpg.Pool,
    campaign_id: UUID,
    member: str,
    away: UUID | None,
    label: str | None,
) -> str:
    """A player's token bound to ``member``; it opens the encounter the member fights in
    now (``away``) and every one the campaign starts with them from now on."""
    async with pool.acquire() as conn, conn.transaction():
        token = await mint_campaign_token(
            conn, campaign_id, role="player", member=member, label=label
        )
        if away is not None:
            await share_with_encounter(conn, campaign_id, away, [member])
    return token


async def revoke_player_token(pool: asyncpg.Pool, campaign_id: UUID, token_id: str) -> bool:
    """The token revoked on the campaign and in every encounter it was copied into, at
    once; False when the campaign has no such token."""
    async with pool.acquire() as conn, conn.transaction():
        return await revoke_campaign_token(conn, campaign_id, token_id)
