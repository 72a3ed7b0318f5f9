"""A campaign's tokens: the GM's, minted with the campaign, a player's, bound to one
member of the party, and a spectator's, bound to none, which reads as players do.
Stored as a digest only, checked in constant time, exactly as an encounter's tokens are
(service/tokens.py, whose secret handling this reuses)."""

from __future__ import annotations

import secrets
from uuid import UUID

import asyncpg

from events.campaign_access import (
    copy_campaign_token,
    insert_campaign_token,
    lock_campaign_tokens,
    revoke_campaign_token,
    unrevoked_campaign_token,
)
from events.db import Database
from events.heads import lock_stream_of
from events.kinds import CAMPAIGN
from service.campaign_store.stream import load
from service.campaigns.state import Campaign
from service.tokens import RevokeOutcome, Role, StoredToken, Viewer, checked, secret_digest


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
        if away is not None:  # this token only: the member's others are there already
            await copy_campaign_token(conn, campaign_id, token.partition(".")[0], [away])
    return token


async def mint_spectator_token(pool: asyncpg.Pool, campaign_id: UUID, label: str | None) -> str:
    """A spectator's token: it reads the campaign as its players do, and is an encounter
    spectator token in every encounter under way now and every one the campaign starts
    from now on (``copy_campaign_tokens``).  Minted under the campaign's lock, which
    starting an encounter takes too, so no encounter starts between the two and is
    missed."""
    async with pool.acquire() as conn, conn.transaction():
        await lock_stream_of(conn, campaign_id, CAMPAIGN)
        campaign = (await load(conn, campaign_id)).state
        assert isinstance(campaign, Campaign)  # load found its campaign.created
        current = [eid for eid, encounter in campaign.encounters.items() if encounter.open]
        token = await mint_campaign_token(conn, campaign_id, role="spectator", label=label)
        await copy_campaign_token(conn, campaign_id, token.partition(".")[0], current)
    return token


async def revoke_token(
    pool: asyncpg.Pool, campaign_id: UUID, token_id: str
) -> tuple[RevokeOutcome, list[UUID]]:
    """The token revoked on the campaign and in every encounter it was copied into, at
    once (and those encounters), unless it is the campaign's last valid GM token: nobody
    could run the campaign after that (an encounter keeps its own last GM token the same way,
    ``service.tokens.revoke``).  The campaign's tokens are locked while deciding."""
    async with pool.acquire() as conn, conn.transaction():
        rows = await lock_campaign_tokens(conn, campaign_id)
        target = next((r for r in rows if r["token_id"] == token_id), None)
        if target is None:
            return "not_found", []
        live_gms = [r for r in rows if r["role"] == "gm" and r["live"]]
        if target["live"] and target["role"] == "gm" and len(live_gms) == 1:
            return "last_gm", []
        encounters = await revoke_campaign_token(conn, campaign_id, token_id)
    return "revoked", encounters or []
