"""An imported history is vouched for only as far as a signature this service can check
reaches: forged archives (edited and re-hashed, given a chosen seed) are refused or import
as unattested, and verify says which."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from events.committed_health import COMMITMENTS, SALTS, commitment, value_at
from tests.conftest import create_database, drop_database
from tests.e2e.archives import ATTACK, export, gm_token_printed, import_cli, play
from tests.e2e.conftest import SERVICE_KEY
from tests.e2e.helpers import Client
from tests.support.chain import line_hash

KEY = "the-exporting-service-chain-key"
OTHER_KEY = "the-importing-service-chain-key"


@pytest.fixture(scope="module")
async def signing(database_url: str) -> AsyncIterator[Client]:
    """A service with a chain key, driven with its service key (GM everywhere); one for
    the module, since each test plays an encounter of its own (an app's start-up, which
    builds the OpenAPI document, takes about 1.8 s of CPU)."""
    settings = Settings(database_url=database_url, service_key=SERVICE_KEY, chain_key=KEY)
    async with AsyncTestClient(app=create_app(settings)) as client:
        client.headers["Authorization"] = f"Bearer {SERVICE_KEY}"
        yield client


async def _target(url: str, chain_key: str) -> AsyncTestClient:  # type: ignore[type-arg]
    return AsyncTestClient(app=create_app(Settings(database_url=url, chain_key=chain_key)))


def _lines(path: Path) -> list[dict[str, Any]]:
    return [msgspec.json.decode(line) for line in path.read_bytes().splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> None:
    path.write_bytes(b"".join(msgspec.json.encode(line) + b"\n" for line in lines))


def _rehash(lines: list[dict[str, Any]], stream_id: uuid.UUID) -> None:
    """What a forger does after editing: a new id, every health commitment and every hash
    recomputed (a GM's archive holds the salts), header and end line made to match.  The
    chain holds; only a signature can tell."""
    prev = "0" * 64
    for line in lines:
        if line["kind"] != "event":
            continue
        salts = line["data"].get(SALTS, {})
        line["data"][COMMITMENTS] = {
            ptr: commitment(salt, value_at(line["data"], ptr)[1]) for ptr, salt in salts.items()
        } or line["data"].get(COMMITMENTS)
        if line["data"][COMMITMENTS] is None:
            del line["data"][COMMITMENTS]
        line["prev_hash"] = prev
        line["hash"] = prev = line_hash(prev, stream_id, line)
    lines[0]["encounter_id"] = str(stream_id)
    lines[0]["last_hash"] = lines[-1]["last_hash"] = prev


async def _verify(client: AsyncTestClient, eid: str, token: str) -> dict[str, Any]:  # type: ignore[type-arg]
    bearer = {"Authorization": f"Bearer {token}"}
    response = await client.get(f"/encounters/{eid}/verify", headers=bearer)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


async def test_an_edited_rehashed_archive_is_refused_or_imports_unattested(
    signing: Client, other_database: str, tmp_path: Path
) -> None:
    eid = await play(signing)
    archive = tmp_path / "gm.jsonl"
    lines = await export(signing, eid, archive)
    assert lines[-1]["signature"] and lines[-1]["signed_by"]
    joins = next(i for i, x in enumerate(lines) if b'"hp":20,' in msgspec.json.encode(x))
    data = msgspec.json.encode(lines[joins]["data"]).replace(b'"hp":20,', b'"hp":200,')
    lines[joins]["data"] = msgspec.json.decode(data)  # alice joins stronger
    forged_id = uuid.uuid4()
    _rehash(lines, forged_id)
    forged = tmp_path / "forged.jsonl"
    _write(forged, lines)

    status, _, err = await import_cli(forged, other_database, AEON_CHAIN_KEY=KEY)
    assert status == 1, err
    assert "names this service's chain key but does not hold" in err

    del lines[-1]["signature"], lines[-1]["signed_by"]  # the forger drops the signature
    _write(forged, lines)
    status, out, err = await import_cli(forged, other_database, AEON_CHAIN_KEY=KEY)
    assert status == 0, err
    assert "unattested" in out
    async with await _target(other_database, KEY) as target:
        token = gm_token_printed(out)
        report = await _verify(target, str(forged_id), token)
        assert report["provenance"]["verdict"] == "imported, unattested"
        assert report["provenance"]["attested_by"] is None
        assert report["provenance"]["version"] == len(lines) - 2
        bearer = {"Authorization": f"Bearer {token}"}
        again = await target.get(f"/encounters/{forged_id}/export", headers=bearer)
        end = msgspec.json.decode(again.content.splitlines()[-1])
        assert end.get("signature") is None  # never re-signed as if witnessed here


async def test_a_gm_archive_with_a_chosen_seed_for_the_open_epoch_is_refused(
    signing: Client, other_database: str, tmp_path: Path
) -> None:
    eid = await play(signing)
    archive = tmp_path / "gm.jsonl"
    lines = await export(signing, eid, archive)
    assert lines[0]["seeds"] == "revealed"
    chosen = {"kind": "seed", "epoch": 1, "seed": "00" * 32, "client_seed": "x",
              "commitment": "00" * 32}  # fmt: skip
    lines.insert(len(lines) - 1, chosen)
    _write(archive, lines)
    status, _, err = await import_cli(archive, other_database, AEON_CHAIN_KEY=KEY)
    assert status == 1 and "does not hold" in err  # the signature covers the seed lines

    del lines[-1]["signature"], lines[-1]["signed_by"]
    _write(archive, lines)
    status, _, err = await import_cli(archive, other_database, AEON_CHAIN_KEY=KEY)
    assert status == 1, err
    assert "carries a seed for dice epoch 1, which its events never revealed" in err


@pytest.mark.parametrize("trust", ["same key", "trusted key"])
async def test_a_signed_full_export_imports_attested_with_its_server_dice(
    signing: Client, postgres_url: str, tmp_path: Path, trust: str
) -> None:
    eid = await play(signing)
    archive = tmp_path / "full.jsonl"
    lines = await export(signing, eid, archive, seeds="all")
    assert {line["epoch"] for line in lines if line["kind"] == "seed"} == {1, -1}
    env = {"AEON_CHAIN_KEY": KEY}
    if trust == "trusted key":
        env = {"AEON_CHAIN_KEY": OTHER_KEY, "AEON_TRUSTED_CHAIN_KEYS": f"spare,{KEY}"}
    url = await create_database(postgres_url)
    try:
        status, out, err = await import_cli(archive, url, **env)
        assert status == 0, err
        assert "server rolls are refused" not in out
        who = "this service" if trust == "same key" else "a trusted service"
        assert f"attested by {who} up to version {len(lines) - 4}" in out
        async with await _target(url, env["AEON_CHAIN_KEY"]) as target:
            token = gm_token_printed(out)
            bearer = {"Authorization": f"Bearer {token}"}
            rolled = await target.post(
                f"/encounters/{eid}/commands", json={"command": ATTACK}, headers=bearer
            )
            assert rolled.status_code == 200, rolled.text
            report = await _verify(target, eid, token)
            assert report["ok"], report
            provenance = report["provenance"]
            assert provenance["verdict"] == f"imported, attested up to version {len(lines) - 4}"
            assert provenance["attested_by"] == trust.replace(" key", "-service").replace(
                "same", "this"
            )
    finally:
        await drop_database(postgres_url, url)
