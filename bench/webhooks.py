"""Webhook delivery rate: how fast one service process delivers a backlog of events to a
receiver on loopback that answers at once, for webhooks with the players' view (each
event redacted as of its version) and GM-only webhooks (events as stored).

    python -m bench.webhooks                      # 8 encounters of about 150 events
    python -m bench.webhooks --encounters 16 --commands 100

The service runs as production runs it (``aeon-ledger serve``, one worker) in a fresh
database; the receiver is a bare ASGI app under uvicorn in this process.  Each run
registers one webhook per encounter, starting at the encounter's first event, and times
until every event has been accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import httpx
import uvicorn

from bench.harness import fresh_database, service


class Counter:
    """Accepts every request and counts them."""

    def __init__(self) -> None:
        self.count = 0
        self.changed = asyncio.Condition()

    async def reach(self, count: int) -> None:
        async with self.changed:
            await self.changed.wait_for(lambda: self.count >= count)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        async with self.changed:
            self.count += 1
            self.changed.notify_all()
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def play(url: str, encounters: int, commands: int) -> tuple[list[tuple[str, str]], int]:
    """Encounters in combat with ``commands`` attacks each; their ids and GM tokens and
    the total number of events."""
    tables, total = [], 0
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for i in range(encounters):
            r = await http.post("/encounters", json={"ruleset": "generic", "name": f"bench {i}"})
            eid, token = r.json()["encounter_id"], r.json()["gm_token"]
            auth = {"Authorization": f"Bearer {token}"}
            for who in ("a", "b"):
                body = {"type": "generic.add_combatant", "id": who, "name": who, "hp": 10**6,
                        "stats": {"ac": 10}}  # fmt: skip
                await http.post(f"/encounters/{eid}/commands", json={"command": body}, headers=auth)
            await http.post(
                f"/encounters/{eid}/commands",
                json={"command": {"type": "generic.roll_initiative"}},
                headers=auth,
            )
            for _ in range(commands):
                attack = {"type": "generic.attack", "attacker": "a", "target": "b",
                          "notation": "1d20+2", "damage": "2d6"}  # fmt: skip
                r = await http.post(
                    f"/encounters/{eid}/commands", json={"command": attack}, headers=auth
                )
                assert r.status_code == 200, r.text
            state = await http.get(f"/encounters/{eid}", headers=auth)
            total += int(state.json()["version"])
            tables.append((eid, token))
    return tables, total


async def deliver(url: str, target: str, tables: list[tuple[str, str]], gm_only: bool) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for eid, token in tables:
            r = await http.post(
                f"/encounters/{eid}/webhooks",
                json={"url": target, "gm_only": gm_only},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert r.status_code == 201, r.text


async def main(encounters: int, commands: int) -> None:
    counter = Counter()
    server = uvicorn.Server(
        uvicorn.Config(counter, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    )
    serving = asyncio.create_task(server.serve())
    await asyncio.sleep(0.5)
    assert server.started, "the receiver did not start"
    port = server.servers[0].sockets[0].getsockname()[1]
    target = f"http://127.0.0.1:{port}/hook"
    env = {"AEON_WEBHOOK_ALLOW": "127.0.0.1", "AEON_WEBHOOK_POLL_SECONDS": "0.05"}
    try:
        async with fresh_database("aeon_bench_webhooks") as database_url:
            with service(database_url, workers=1, extra_env=env) as (url, _process):
                tables, total = await play(url, encounters, commands)
                print(f"{encounters} encounters, {total} events, one process, 2 lanes")
                print(f"{'view':<10} {'events':>7} {'seconds':>8} {'deliveries/s':>13}")
                for gm_only in (False, True):
                    before = counter.count
                    started = time.perf_counter()
                    await deliver(url, target, tables, gm_only)
                    await counter.reach(before + total)
                    took = time.perf_counter() - started
                    view = "gm" if gm_only else "players"
                    print(f"{view:<10} {total:>7} {took:>8.2f} {total / took:>13.0f}")
    finally:
        server.should_exit = True
        await serving


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encounters", type=int, default=8)
    parser.add_argument("--commands", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(main(args.encounters, args.commands))


if __name__ == "__main__":
    cli()
