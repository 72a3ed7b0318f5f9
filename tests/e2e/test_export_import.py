"""Export an encounter, import it into another service's database, and find the same chain."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import Client, combatant, command, create
from tests.support.databases import create_database, drop_database

ATTACK = {
    "type": "generic.attack",
    "attacker": "alice",
    "target": "orc",
    "notation": "1d20+5",
    "damage": "1d8+2",
}


@pytest.fixture(scope="module")
async def other_database(postgres_url: str) -> AsyncIterator[str]:
    """The database of another service, where archives are imported."""
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)


@pytest.fixture
async def other_service(other_database: str) -> AsyncIterator[Client]:
    app = create_app(Settings(database_url=other_database))
    async with AsyncTestClient(app=app) as client:
        yield client


async def _import(path: Path, database_url: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api.cli", "import", str(path), "--database-url", database_url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def _gm_token(printed: str) -> str:
    line = next(line for line in printed.splitlines() if line.startswith("GM token"))
    return line.rsplit(": ", 1)[1]


async def _play(client: Client, **create_args: Any) -> str:
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


async def _export(client: Client, eid: str, path: Path, **params: str) -> list[dict[str, Any]]:
    response = await client.get(f"/encounters/{eid}/export", params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/jsonl")
    await asyncio.to_thread(path.write_bytes, response.content)
    return [msgspec.json.decode(line) for line in response.content.splitlines()]


async def _events(client: Client, eid: str, token: str | None = None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await client.get(f"/encounters/{eid}/events", headers=headers)
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def _chain(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    fields = ("stream_version", "type", "data", "metadata", "recorded_at", "prev_hash", "hash")
    return [tuple(e[f] for f in fields) for e in events]


async def test_a_gm_archive_imports_with_the_same_chain_and_plays_on_with_manual_dice(
    client: Client, other_service: Client, other_database: str, tmp_path: Path
) -> None:
    eid = await _play(client)
    archive = tmp_path / "archive.jsonl"
    lines = await _export(client, eid, archive)
    assert lines[0]["kind"] == "encounter" and lines[0]["seeds"] == "revealed"
    assert lines[-1]["kind"] == "end" and lines[-1]["events"] == len(lines) - 2
    assert not [line for line in lines if line["kind"] == "seed"]

    status, out, err = await _import(archive, other_database)
    assert status == 0, err
    assert "hash chain verified" in out and "server rolls are refused" in out
    token = _gm_token(out)
    assert _chain(await _events(other_service, eid, token)) == _chain(await _events(client, eid))

    bearer = {"Authorization": f"Bearer {token}"}
    verified = await other_service.get(f"/encounters/{eid}/verify", headers=bearer)
    assert verified.status_code == 200 and verified.json()["ok"], verified.text
    here = (await other_service.get(f"/encounters/{eid}", headers=bearer)).json()
    there = (await client.get(f"/encounters/{eid}")).json()
    assert here["state"] == there["state"] and here["version"] == there["version"]

    server = await other_service.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer
    )
    assert server.status_code == 422
    assert "server dice are unavailable" in server.json()["detail"]
    manual = await other_service.post(
        f"/encounters/{eid}/commands",
        json={"command": ATTACK, "manual_dice": [[2]]},
        headers=bearer,
    )
    assert manual.status_code == 200, manual.text

    again, _, err = await _import(archive, other_database)
    assert again == 1 and "already stored" in err


async def test_a_full_export_by_the_service_key_moves_the_game_with_its_server_dice(
    service_client: Client, other_service: Client, other_database: str, tmp_path: Path
) -> None:
    eid = await _play(service_client)
    archive = tmp_path / "full.jsonl"
    lines = await _export(service_client, eid, archive, seeds="all")
    assert lines[0]["seeds"] == "all"
    assert {line["epoch"] for line in lines if line["kind"] == "seed"} == {1, -1}

    status, out, err = await _import(archive, other_database)
    assert status == 0, err and "server rolls are refused" not in out
    bearer = {"Authorization": f"Bearer {_gm_token(out)}"}
    rolled = await other_service.post(
        f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer
    )
    assert rolled.status_code == 200, rolled.text
    revealed = await other_service.post(f"/encounters/{eid}/dice/reveal", headers=bearer)
    assert revealed.status_code == 200, revealed.text
    report = (await other_service.get(f"/encounters/{eid}/verify", headers=bearer)).json()
    assert report["ok"], report


async def test_only_the_service_key_exports_unpublished_seeds_and_players_export_nothing(
    client: Client,
) -> None:
    eid = await _play(client)
    as_gm = await client.get(f"/encounters/{eid}/export", params={"seeds": "all"})
    assert as_gm.status_code == 403
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["alice"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    assert (await client.get(f"/encounters/{eid}/export", headers=player)).status_code == 403


@pytest.mark.parametrize("damage", ["changed event", "cut off", "reordered"])
async def test_a_damaged_archive_is_refused_and_nothing_is_written(
    client: Client, other_service: Client, other_database: str, tmp_path: Path, damage: str
) -> None:
    eid = await _play(client)
    archive = tmp_path / "damaged.jsonl"
    await _export(client, eid, archive)
    lines = archive.read_bytes().splitlines()
    if damage == "changed event":
        lines[3] = lines[3].replace(b'"hp":20', b'"hp":200')  # alice joins stronger
        assert b'"hp":200' in lines[3]
    elif damage == "cut off":
        lines = lines[:-3]
    else:
        lines[4], lines[5] = lines[5], lines[4]
    archive.write_bytes(b"\n".join(lines) + b"\n")
    status, _, err = await _import(archive, other_database)
    assert status == 1 and "nothing was imported" in err
    listing = await other_service.get("/encounters")
    assert eid not in [e["encounter_id"] for e in listing.json().get("encounters", [])]


async def test_the_log_reads_as_markdown_with_undone_entries_struck_through(
    client: Client,
) -> None:
    eid = await _play(client)
    text = (await client.get(f"/encounters/{eid}/log.md")).text
    assert text.startswith("## Setup\n") and "## Round 1" in text
    struck = [line for line in text.splitlines() if "~~" in line]
    assert struck and "(undone at #" in struck[0]
