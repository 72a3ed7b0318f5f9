"""A campaign's tokens: the GM's, minted with the campaign, and a player's, bound to one
member of the party.  Stored as a digest only, checked in constant time, exactly as an
encounter's tokens are (service/tokens.py, whose secret handling this reuses)."""

from __future__ import annotations

import secrets
from uuid import UUID

from events.campaign_access import insert_campaign_token, unrevoked_campaign_token
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
