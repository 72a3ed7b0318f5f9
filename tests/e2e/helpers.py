from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient

Client = AsyncTestClient  # type: ignore[type-arg]


async def create(client: Client, name: str = "E2E", **extra: Any) -> str:
    response = await client.post("/encounters", json={"ruleset": "generic", "name": name, **extra})
    assert response.status_code == 201, response.text
    return str(response.json()["encounter_id"])


async def command(
    client: Client,
    encounter_id: str,
    cmd: dict[str, Any],
    *,
    expect: int = 200,
    manual: list[list[int]] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"command": cmd}
    if manual is not None:
        body["manual_dice"] = manual
    response = await client.post(
        f"/encounters/{encounter_id}/commands", json=body, headers=headers or {}
    )
    assert response.status_code == expect, response.text
    result: dict[str, Any] = response.json()
    return result


def combatant(ident: str, hp: int, **stats: int) -> dict[str, Any]:
    return {
        "type": "generic.add_combatant",
        "id": ident,
        "name": ident.title(),
        "hp": hp,
        "stats": stats,
    }
