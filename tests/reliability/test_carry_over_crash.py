"""Crash safety of the carry-over: SIGKILL the service while its process manager is
inside a carry-over's transaction; after a restart every ended encounter of the campaign
is carried over exactly once, and the campaign's hash chain is whole."""

from __future__ import annotations

import asyncio
from itertools import pairwise
from typing import Any

import asyncpg
import httpx

from tests.support.processes import running_service

MEMBERS = 4


def _member(ident: str) -> dict[str, Any]:
    sheet = {"type": "generic.add_combatant", "id": ident, "name": ident.title(), "hp": 20}
    return {"command": {"type": "campaign.add_member", "sheet": sheet}}


async def _setup(http: httpx.AsyncClient) -> tuple[str, dict[str, str], list[tuple[str, str]]]:
    created = (await http.post("/campaigns", json={"ruleset": "generic", "name": "Crash"})).json()
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    encounters = []
    for i in range(MEMBERS):
        added = await http.post(
            f"/campaigns/{campaign}/commands", json=_member(f"m{i}"), headers=gm
        )
        assert added.status_code == 200, added.text
        started = await http.post(
            f"/campaigns/{campaign}/encounters",
            json={"name": f"Fight {i}", "members": [f"m{i}"]},
            headers=gm,
        )
        assert started.status_code == 201, started.text
        encounters.append((started.json()["encounter_id"], started.json()["gm_token"]))
    return campaign, gm, encounters


async def _carried(conn: asyncpg.Connection, campaign: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT data->>'encounter' AS e FROM events WHERE stream_id = $1::uuid"
        " AND type = 'campaign.carried_over'",
        campaign,
    )
    return sorted(r["e"] for r in rows)


_SHARE_CAMPAIGN = "SELECT FROM streams WHERE stream_id = $1::uuid FOR SHARE"
"""A lock the carry-over's append (FOR UPDATE of the campaign's row) waits for, and that
two holders can take at once."""


async def test_kill_9_during_carry_over_leaves_exactly_one(database_url: str) -> None:
    conn = await asyncpg.connect(database_url)
    early, holder = await asyncpg.connect(database_url), await asyncpg.connect(database_url)
    try:
        with running_service(database_url, workers=2) as service:
            async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
                campaign, _, encounters = await _setup(http)
                # Hold the campaign's row: a carry-over transaction then waits inside it.
                # By transaction the store is read only below the oldest transaction
                # still running, so the ends must commit after one holder began (or the
                # process manager could carry them over before the row is held) and
                # before another, which keeps the row once the first lets go.
                first, hold = early.transaction(), holder.transaction()
                await first.start()
                await early.execute(_SHARE_CAMPAIGN, campaign)
                for encounter, token in encounters:
                    ended = await http.post(
                        f"/encounters/{encounter}/commands",
                        json={"command": {"type": "generic.end_encounter"}},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    assert ended.status_code == 200, ended.text
                await hold.start()
                await holder.execute(_SHARE_CAMPAIGN, campaign)
                await first.rollback()
                waiting = 0
                for _ in range(200):
                    # Waits in this test's database only: another session's (a
                    # parallel worker's) on the same server say nothing of this one.
                    waiting = await conn.fetchval(
                        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
                        " WHERE NOT l.granted AND l.locktype <> 'virtualxid'"
                        " AND a.datname = current_database()"
                    )
                    if waiting:
                        break
                    await asyncio.sleep(0.05)
                assert waiting, "the process manager must be inside a carry-over"
            await asyncio.to_thread(service.kill9)
        await hold.rollback()
        assert await _carried(conn, campaign) == []

        with running_service(database_url, workers=2):
            expected = sorted(e for e, _ in encounters)
            for _ in range(400):
                if await _carried(conn, campaign) == expected:
                    break
                await asyncio.sleep(0.05)
            assert await _carried(conn, campaign) == expected
            await asyncio.sleep(1.5)  # more turns of both processes carry nothing more
            assert await _carried(conn, campaign) == expected
        rows = await conn.fetch(
            "SELECT stream_version, prev_hash, hash FROM events WHERE stream_id = $1::uuid"
            " ORDER BY stream_version",
            campaign,
        )
        assert [r["stream_version"] for r in rows] == list(range(1, len(rows) + 1))
        assert all(b["prev_hash"] == a["hash"] for a, b in pairwise(rows))
    finally:
        await early.close()
        await holder.close()
        await conn.close()
