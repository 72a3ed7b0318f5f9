"""Conditional reads answered from what a process last read (api/live/heads.py):
the head and the token check are remembered, and forgotten as soon as a commit's wake-up
or a revocation notice arrives (from this process, or from another where this one follows
the encounter live); with no notice at all, for at most ``read_cache_seconds``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import combatant
from tests.support.live import bearer
from tests.support.tokens import revoke_elsewhere

Client = AsyncTestClient  # type: ignore[type-arg]


@asynccontextmanager
async def _process(database_url: str, read_cache_seconds: float) -> AsyncIterator[Client]:
    """One instance of the service (its own pool, hub and LISTEN connection)."""
    settings = Settings(database_url=database_url, read_cache_seconds=read_cache_seconds)
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


async def _table(client: Client) -> tuple[str, str, str]:
    """An encounter with a combatant: its id, GM token and a player token."""
    created = await client.post("/encounters", json={"ruleset": "generic", "name": "Known"})
    eid, gm = created.json()["encounter_id"], created.json()["gm_token"]
    added = await client.post(
        f"/encounters/{eid}/commands", json={"command": combatant("aria", 9)}, headers=bearer(gm)
    )
    assert added.status_code == 200
    minted = await client.post(
        f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=bearer(gm)
    )
    return eid, gm, minted.json()["token"]


async def _until(
    client: Client, path: str, headers: dict[str, str], status: int, within: float
) -> float:
    """Seconds until ``path`` answers ``status``; fails after ``within``."""
    started = time.monotonic()
    while True:
        answered = await client.get(path, headers=headers)
        if answered.status_code == status:
            return time.monotonic() - started
        assert time.monotonic() - started < within, (answered.status_code, answered.text)
        await asyncio.sleep(0.02)


async def test_a_revocation_through_another_process_ends_its_304s_when_the_notice_comes(
    database_url: str,
) -> None:
    """Process A would trust its check for a minute; B's revocation notice (LISTEN/NOTIFY)
    is what makes A refuse the token."""
    async with _process(database_url, 60) as a, _process(database_url, 60) as b:
        eid, gm, player = await _table(b)
        path = f"/encounters/{eid}"
        seen = await a.get(path, headers=bearer(player))
        assert seen.status_code == 200
        conditional = {**bearer(player), "If-None-Match": seen.headers["etag"]}
        assert (await a.get(path, headers=conditional)).status_code == 304
        revoked = await b.delete(f"{path}/tokens/{player.split('.')[0]}", headers=bearer(gm))
        assert revoked.status_code == 204
        await _until(a, path, conditional, 401, within=5)
        refused = await a.get(path, headers=conditional)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")


async def test_a_commit_through_another_process_ends_its_304s_within_the_cache_time(
    database_url: str,
) -> None:
    """Nobody follows the encounter live in ``a``, so ``b`` sends no wake-up for it
    (api/live/interest.py): ``a`` learns of the commit when what it remembered expires."""
    async with _process(database_url, 1.0) as a, _process(database_url, 1.0) as b:
        eid, gm, _ = await _table(b)
        path = f"/encounters/{eid}"
        seen = await a.get(path, headers=bearer(gm))
        conditional = {**bearer(gm), "If-None-Match": seen.headers["etag"]}
        assert (await a.get(path, headers=conditional)).status_code == 304
        hit: dict[str, Any] = {"type": "generic.damage", "target": "aria", "amount": 2}
        moved = await b.post(f"{path}/commands", json={"command": hit}, headers=bearer(gm))
        assert moved.status_code == 200
        await _until(a, path, conditional, 200, within=1.5)
        fresh = await a.get(path, headers=conditional)
        assert fresh.json()["version"] == seen.json()["version"] + 1


async def test_a_commit_through_the_same_process_is_never_answered_304(database_url: str) -> None:
    async with _process(database_url, 60) as a:
        eid, gm, _ = await _table(a)
        path = f"/encounters/{eid}"
        for n in range(5):
            seen = await a.get(path, headers=bearer(gm))
            conditional = {**bearer(gm), "If-None-Match": seen.headers["etag"]}
            assert (await a.get(path, headers=conditional)).status_code == 304
            hit = {"type": "generic.damage", "target": "aria", "amount": 1}
            sent = await a.post(f"{path}/commands", json={"command": hit}, headers=bearer(gm))
            assert sent.status_code == 200
            after = await a.get(path, headers=conditional)
            assert after.status_code == 200, n
            assert after.json()["version"] == seen.json()["version"] + 1


async def test_without_any_notice_a_revocation_is_respected_within_the_cache_time(
    database_url: str,
) -> None:
    """Revoked straight in the database, as nothing in the service does: no notice ever
    comes, and the remembered check expires after ``read_cache_seconds``."""
    async with _process(database_url, 0.3) as a:
        eid, _, player = await _table(a)
        path = f"/encounters/{eid}"
        seen = await a.get(path, headers=bearer(player))
        conditional = {**bearer(player), "If-None-Match": seen.headers["etag"]}
        assert (await a.get(path, headers=conditional)).status_code == 304
        await revoke_elsewhere(database_url, player)
        waited = await _until(a, path, conditional, 401, within=2)
        assert waited <= 0.3 + 0.25
        assert (await a.get(path, headers=conditional)).status_code == 401


async def test_the_known_head_answers_only_the_token_it_checked(database_url: str) -> None:
    async with _process(database_url, 60) as a:
        eid, gm, player = await _table(a)
        path = f"/encounters/{eid}"
        seen = await a.get(path, headers=bearer(gm))
        tag = {"If-None-Match": seen.headers["etag"]}
        assert (await a.get(path, headers={**bearer(gm), **tag})).status_code == 304
        forged = player.split(".")[0] + ".not-the-secret"
        assert (await a.get(path, headers={**bearer(forged), **tag})).status_code == 401
        anonymous = httpx.Headers(tag)
        assert (await a.get(path, headers=anonymous)).status_code == 401
        # A malformed X-Min-Version is still refused, known head or not.
        garbled = {**bearer(gm), **tag, "X-Min-Version": "soon"}
        assert (await a.get(path, headers=garbled)).status_code == 400
