"""Migration 0020 gives every encounter started from a campaign before it a copy of the
campaign's GM token, as starting one does since, so the campaign's GM opens those too;
a revoked GM token, a player's token and an encounter of no campaign get nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from uuid import UUID, uuid4

import asyncpg
import pytest

from events.migrate import apply_migrations
from tests.support.databases import migrated_before


@pytest.fixture
async def at_0019(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A fresh database migrated up to, not including, 0020."""
    async with migrated_before(postgres_url, "0020") as conn:
        yield conn


async def _stream(conn: asyncpg.Connection, kind: str, first: str, data: dict[str, str]) -> UUID:
    stream_id = uuid4()
    await conn.execute(
        "INSERT INTO streams (stream_id, version, last_hash, kind) VALUES ($1, 1, '', $2)",
        stream_id,
        kind,
    )
    await conn.execute(
        """INSERT INTO events (stream_id, stream_version, type, data, metadata, recorded_at,
                               prev_hash, hash, shard, shard_position)
           VALUES ($1, 1, $2, $3::json, '{}', now(), '', '', aeon_shard($1),
                   (SELECT count(*) + 1 FROM events WHERE shard = aeon_shard($1)))""",
        stream_id,
        first,
        json.dumps(data),
    )
    return stream_id


async def _token(
    conn: asyncpg.Connection, campaign: UUID, token_id: str, role: str, revoked: bool = False
) -> None:
    await conn.execute(
        """INSERT INTO campaign_tokens (campaign_id, token_id, role, secret_sha256, member,
                                        revoked_at)
           VALUES ($1, $2, $3, $4, $5, CASE WHEN $6 THEN now() END)""",
        campaign,
        token_id,
        role,
        token_id.encode(),
        "aria" if role == "player" else None,
        revoked,
    )


async def test_encounters_started_before_open_to_the_campaign_gm(
    at_0019: asyncpg.Connection,
) -> None:
    conn = at_0019
    campaign = await _stream(conn, "campaign", "campaign.created", {"name": "Ashes"})
    other = await _stream(conn, "campaign", "campaign.created", {"name": "Embers"})
    await _token(conn, campaign, "gm1", "gm")
    await _token(conn, campaign, "player1", "player")
    await _token(conn, other, "gm2", "gm", revoked=True)
    linked = await _stream(conn, "encounter", "encounter.created", {"campaign": str(campaign)})
    of_other = await _stream(conn, "encounter", "encounter.created", {"campaign": str(other)})
    plain = await _stream(conn, "encounter", "encounter.created", {"name": "Plain"})

    applied = await apply_migrations(conn)
    assert applied[0] == "0020_campaign_gm_opens_encounters.sql"

    rows = await conn.fetch(
        "SELECT encounter_id, token_id, role, secret_sha256, combatants, label FROM access_tokens"
    )
    assert [tuple(r) for r in rows] == [(linked, "gm1", "gm", b"gm1", [], "campaign GM")]
    assert {of_other, plain}.isdisjoint(r["encounter_id"] for r in rows)
