"""Export an encounter, import it into another service's database, and find the same chain."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.archives import ATTACK, export, gm_token_printed, import_cli, play
from tests.e2e.helpers import Client


@pytest.fixture(scope="module")
async def other_service(other_database: str) -> AsyncIterator[Client]:
    """The service archives are imported into; one for the module, since each test
    imports an encounter of its own (an app's start-up takes about 1.8 s of CPU)."""
    app = create_app(Settings(database_url=other_database))
    async with AsyncTestClient(app=app) as client:
        yield client


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
    eid = await play(client)
    archive = tmp_path / "archive.jsonl"
    lines = await export(client, eid, archive)
    assert lines[0]["kind"] == "encounter" and lines[0]["seeds"] == "revealed"
    assert lines[-1]["kind"] == "end" and lines[-1]["events"] == len(lines) - 2
    assert not [line for line in lines if line["kind"] == "seed"]

    status, out, err = await import_cli(archive, other_database)
    assert status == 0, err
    assert "hash chain verified" in out and "server rolls are refused" in out
    token = gm_token_printed(out)
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

    again, _, err = await import_cli(archive, other_database)
    assert again == 1 and "already stored" in err


async def test_only_the_service_key_exports_unpublished_seeds_and_players_export_nothing(
    client: Client,
) -> None:
    eid = await play(client)
    as_gm = await client.get(f"/encounters/{eid}/export", params={"seeds": "all"})
    assert as_gm.status_code == 403
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["alice"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    assert (await client.get(f"/encounters/{eid}/export", headers=player)).status_code == 403


@pytest.mark.parametrize("damage", ["changed event", "cut off", "reordered"])
async def test_a_damaged_archive_is_refused_and_nothing_is_written(
    client: Client, other_service: Client, other_database: str, tmp_path: Path, damage: str
) -> None:
    eid = await play(client)
    archive = tmp_path / "damaged.jsonl"
    await export(client, eid, archive)
    lines = archive.read_bytes().splitlines()
    if damage == "changed event":
        lines[3] = lines[3].replace(b'"hp":20', b'"hp":200')  # alice joins stronger
        assert b'"hp":200' in lines[3]
    elif damage == "cut off":
        lines = lines[:-3]
    else:
        lines[4], lines[5] = lines[5], lines[4]
    archive.write_bytes(b"\n".join(lines) + b"\n")
    status, _, err = await import_cli(archive, other_database)
    assert status == 1 and "nothing was imported" in err
    listing = await other_service.get("/encounters")
    assert eid not in [e["encounter_id"] for e in listing.json().get("encounters", [])]


async def test_the_log_reads_as_markdown_with_undone_entries_struck_through(
    client: Client,
) -> None:
    eid = await play(client)
    text = (await client.get(f"/encounters/{eid}/log.md")).text
    assert text.startswith("## Setup\n") and "## Round 1" in text
    struck = [line for line in text.splitlines() if "~~" in line]
    assert struck and "(undone at #" in struck[0]
