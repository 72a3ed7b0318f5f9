from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

Client = AsyncTestClient  # type: ignore[type-arg]

_ENCOUNTER = re.compile(r"^/encounters/([0-9a-f-]{36})")


class GmTokens(httpx.Auth):
    """Remembers the GM token of every encounter or fork created through the client and
    sends it with each later request to that encounter, unless the request carries its
    own Authorization header."""

    requires_response_body = True

    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        match = _ENCOUNTER.match(request.url.path)
        if "authorization" not in request.headers and match and match[1] in self.tokens:
            request.headers["Authorization"] = f"Bearer {self.tokens[match[1]]}"
        response = yield request
        if request.method == "POST" and response.status_code == 201:
            body = response.json()
            if isinstance(body, dict) and body.get("gm_token") and "encounter_id" in body:
                self.tokens[body["encounter_id"]] = body["gm_token"]


def gm_token(client: Client, encounter_id: str) -> str:
    auth = client.auth
    assert isinstance(auth, GmTokens)
    return auth.tokens[encounter_id]


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


def inner_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as their commands decided them: a sealed command's envelope
    (``encounter.sealed``) in place of the inner events it holds, for the GM's eyes."""
    out: list[dict[str, Any]] = []
    for event in events:
        if event["type"] == "encounter.sealed" and "events" in event["data"]:
            out += event["data"]["events"]
        else:
            out.append(event)
    return out


async def posted(
    client: httpx.AsyncClient, path: str, body: Any, auth: dict[str, str] | None = None
) -> Any:
    """POST ``body`` and the answer's JSON, failing the test unless it is a 200 or 201."""
    answer = await client.post(path, json=body, headers=auth or {})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


async def campaign_with_party(client: Client, name: str) -> tuple[str, dict[str, str]]:
    """A generic campaign with Aria (22 hp) and Borin (30) in its party and a goblin
    statblock (7 hp, rolled with 2d6): its id and its GM's Authorization header."""
    created = await posted(client, "/campaigns", {"ruleset": "generic", "name": name}, {})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    for sheet in (combatant("aria", 22), combatant("borin", 30)):
        member = {"type": "campaign.add_member", "sheet": sheet}
        await posted(client, commands, {"command": member}, gm)
    goblin = {
        "type": "campaign.add_statblock",
        "sheet": combatant("goblin", 7),
        "hit_points": "2d6",
    }
    await posted(client, commands, {"command": goblin}, gm)
    return campaign, gm
