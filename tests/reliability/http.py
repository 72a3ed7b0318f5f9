"""The two places where reliability tests talk to a running service's write API, so that
adding access tokens (creation returns a GM token, commands carry it) changes only these."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx


class Table:
    """An encounter as a client holds it: its id and the headers its commands carry."""

    def __init__(self, encounter_id: str, headers: dict[str, str] | None = None) -> None:
        self.encounter_id = encounter_id
        self.headers = headers or {}


async def create_encounter(client: httpx.AsyncClient, name: str = "reliability") -> Table:
    response = await client.post("/encounters", json={"ruleset": "generic", "name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    token = body.get("gm_token")
    return Table(str(body["encounter_id"]), {"Authorization": f"Bearer {token}"} if token else {})


async def setup_table(url: str, name: str) -> Table:
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        table = await create_encounter(client, name)
        for command in (fighter("a"), fighter("b"), {"type": "generic.roll_initiative"}):
            r = await send_command(client, table, command)
            assert r.status_code == 200, r.text
        return table


def open_table(url: str, name: str) -> Table:
    """From synchronous code: an encounter in combat between ``a`` and ``b``."""
    return asyncio.run(setup_table(url, name))


async def send_command(
    client: httpx.AsyncClient,
    table: Table,
    command: dict[str, Any],
    *,
    idempotency_key: str | None = None,
) -> httpx.Response:
    headers = dict(table.headers)
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return await client.post(
        f"/encounters/{table.encounter_id}/commands", json={"command": command}, headers=headers
    )


def fighter(ident: str) -> dict[str, Any]:
    return {
        "type": "generic.add_combatant",
        "id": ident,
        "name": ident.title(),
        "hp": 1_000_000,
        "stats": {"ac": 10},
    }


def command_mix(n: int) -> dict[str, Any]:
    """Commands that are always legal once ``fighter("a")`` and ``fighter("b")`` have
    rolled initiative: attacks with damage, rolled damage, next turn (server dice)."""
    match n % 3:
        case 0:
            return {
                "type": "generic.attack",
                "attacker": "a",
                "target": "b",
                "notation": "1d20+2",
                "damage": "2d6",
            }
        case 1:
            return {"type": "generic.damage", "target": "a", "notation": "3d4"}
        case _:
            return {"type": "generic.next_turn"}


def post_raw(client: httpx.Client, table: Table, body: bytes, content_type: str) -> httpx.Response:
    """A command request with any body at all (fuzzing and abuse), on a sync client."""
    return client.post(
        f"/encounters/{table.encounter_id}/commands",
        content=body,
        headers={**table.headers, "content-type": content_type},
    )
