"""Token changes made the way another process would make them."""

from __future__ import annotations

import asyncpg


async def revoke_elsewhere(database_url: str, token: str) -> None:
    """As another process would: straight in the database, so this process's cache of
    checked tokens still holds the token."""
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(
            "UPDATE access_tokens SET revoked_at = now() WHERE token_id = $1", token.split(".")[0]
        )
    finally:
        await conn.close()
