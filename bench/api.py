"""The two places where a benchmark talks to the service's write API.

Creating an encounter and sending a command are one function each, so that when access
tokens arrive (creation returns a GM token, commands carry it) only these change.
"""

from __future__ import annotations

from typing import Any

import msgspec

from bench.client import Connection, Response

_encode = msgspec.json.Encoder().encode


class Table(msgspec.Struct):
    """An encounter as a client knows it: its id and the headers its commands carry."""

    encounter_id: str
    headers: dict[str, str] = {}


async def create_encounter(http: Connection, name: str) -> Table:
    response = await http.request(
        "POST", "/encounters", _encode({"ruleset": "generic", "name": name})
    )
    if response.status != 201:
        raise RuntimeError(f"creating an encounter failed: {response.status} {response.body!r}")
    body: Any = response.json()
    token = body.get("gm_token")
    return Table(str(body["encounter_id"]), {"authorization": f"Bearer {token}"} if token else {})


async def send_command(
    http: Connection,
    table: Table,
    command: dict[str, Any],
    manual: list[list[int]] | None = None,
    *,
    hidden: bool = False,
) -> Response:
    body: dict[str, Any] = {"command": command}
    if hidden:
        body["hidden"] = True
    if manual is not None:
        body["manual_dice"] = manual
    return await http.request(
        "POST", f"/encounters/{table.encounter_id}/commands", _encode(body), table.headers
    )
