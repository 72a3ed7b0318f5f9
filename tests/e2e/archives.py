"""Archives for the export and import tests: a game to export, the export, the import
command run as an operator runs it."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

import msgspec

from tests.e2e.helpers import Client, combatant, command, create

ATTACK = {
    "type": "generic.attack",
    "attacker": "alice",
    "target": "orc",
    "notation": "1d20+5",
    "damage": "1d8+2",
}


async def import_cli(path: Path, database_url: str, **env: str) -> tuple[int, str, str]:
    """``aeon-ledger import`` in a process of its own, with ``env`` added to its environment."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api.cli.main", "import", str(path), "--database-url", database_url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env={**os.environ, **env},
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def gm_token_printed(printed: str) -> str:
    line = next(line for line in printed.splitlines() if line.startswith("GM token"))
    return line.rsplit(": ", 1)[1]


async def play(client: Client, **create_args: Any) -> str:
    eid = await create(client, "Archive me", **create_args)
    for c in (combatant("alice", 20, ac=14), combatant("orc", 15, ac=13)):
        await command(client, eid, c)
    await command(client, eid, {"type": "generic.roll_initiative"}, manual=[[10], [9]])
    await command(client, eid, ATTACK, manual=[[11], [6]])
    await command(client, eid, ATTACK)  # server dice
    secret = await client.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK, "hidden": True}
    )
    assert secret.status_code == 200, secret.text
    await client.post(f"/encounters/{eid}/undo", json={"reason": "wrong target"})
    return eid


async def export(client: Client, eid: str, path: Path, **params: str) -> list[dict[str, Any]]:
    response = await client.get(f"/encounters/{eid}/export", params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/jsonl")
    await asyncio.to_thread(path.write_bytes, response.content)
    return [msgspec.json.decode(line) for line in response.content.splitlines()]
