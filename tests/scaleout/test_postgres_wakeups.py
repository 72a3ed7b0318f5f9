"""Two processes without Redis: wake-ups cross between them through
PostgreSQL LISTEN/NOTIFY, so a subscriber of one process sees the commands handled by the
other at once, and keeps seeing them after its listening connection is cut.

Both poll PostgreSQL only every 60 s: whatever reaches a subscriber within the test's
seconds came through a notification.
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx

from api.live.postgres_link import LISTENER
from tests.reliability.http import fighter
from tests.scaleout.cluster import api_processes
from tests.scaleout.live_client import Subscriber


async def test_two_workers_without_redis_are_live_through_listen_notify(
    fresh_database: str,
) -> None:
    slow_poll = {"AEON_LIVE_POLL_SECONDS": "60", "AEON_LIVE_KEEPALIVE_SECONDS": "60"}
    with api_processes(fresh_database, "", [slow_poll, slow_poll]) as apis:
        clients = [httpx.AsyncClient(base_url=api.url, timeout=20) for api in apis]
        subscribers: list[Subscriber] = []
        try:
            created = await clients[0].post(
                "/encounters", json={"ruleset": "generic", "name": "Notify"}
            )
            body = created.json()
            eid, headers = body["encounter_id"], {"Authorization": f"Bearer {body['gm_token']}"}

            async def send(n: int, cmd: dict[str, Any]) -> int:
                response = await clients[n % 2].post(
                    f"/encounters/{eid}/commands", json={"command": cmd}, headers=headers
                )
                assert response.status_code == 200, response.text
                version: int = response.json()["version"]
                return version

            for api in apis:
                for _ in range(3):
                    subscriber = Subscriber(api.url, eid, headers)
                    subscriber.start()
                    subscribers.append(subscriber)
            head = 0
            for n in range(10):  # alternate processes: half the wake-ups cross over
                head = await send(n, fighter(f"f{n}"))
                for subscriber in subscribers:
                    await subscriber.wait_for(head, within=3)

            # Cut every listening connection: each process reconnects and reads what it
            # may have missed, and later notifications arrive again.
            conn = await asyncpg.connect(fresh_database)
            try:
                cut = await conn.fetchval(
                    """SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                       WHERE application_name = $1 AND datname = current_database()""",
                    LISTENER,
                )
            finally:
                await conn.close()
            assert cut == 2
            head = await send(0, {"type": "generic.damage", "target": "f0", "amount": 1})
            for subscriber in subscribers:
                await subscriber.wait_for(head, within=5)
            await asyncio.sleep(1)  # both listeners are back
            head = await send(1, {"type": "generic.damage", "target": "f1", "amount": 1})
            for subscriber in subscribers:
                await subscriber.wait_for(head, within=3)
            await asyncio.sleep(0.3)
            for subscriber in subscribers:
                assert subscriber.versions == list(range(1, head + 1))

            # A revocation on one process ends the token's stream on the other at once
            # (keepalive checks are 60 s apart: only the notice can do it in time).
            minted = await clients[1].post(
                f"/encounters/{eid}/tokens", json={"combatants": ["f0"]}, headers=headers
            )
            player = minted.json()
            watcher = Subscriber(apis[0].url, eid, {"Authorization": f"Bearer {player['token']}"})
            watcher.start()
            subscribers.append(watcher)
            await watcher.wait_for(head, within=5)
            token_id = player["info"]["token_id"]
            revoked = await clients[1].delete(
                f"/encounters/{eid}/tokens/{token_id}", headers=headers
            )
            assert revoked.status_code == 204
            await watcher.ended(within=3)
        finally:
            for subscriber in subscribers:
                await subscriber.close()
            for client in clients:
                await client.aclose()
