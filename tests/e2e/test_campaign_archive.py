"""A campaign moved whole to another service: exported with its encounters, imported as a
new campaign with new encounters whose links are rewritten, attested only as far as a
signature this service can check reaches, and all or nothing."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import msgspec
import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from tests.e2e.conftest import SERVICE_KEY
from tests.e2e.helpers import Client, combatant
from tests.support.chain import line_hash

pytestmark = pytest.mark.asyncio(loop_scope="session")

KEY = "the-campaign-exporting-chain-key"
Lines = list[dict[str, Any]]


@pytest.fixture(scope="module")
async def source(database_url: str) -> AsyncIterator[Client]:
    """The exporting service: a chain key and a service key (sent only where a test says)."""
    settings = Settings(database_url=database_url, service_key=SERVICE_KEY, chain_key=KEY)
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
async def target(other_database: str) -> AsyncIterator[Client]:
    """The importing service: its own database, sharing the exporter's chain key."""
    settings = Settings(database_url=other_database, chain_key=KEY)
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _ok(response: Any) -> Any:
    assert response.status_code in (200, 201), response.text
    return response.json()


async def _campaign(client: Client) -> dict[str, Any]:
    """A party of two, a goblin, a first fight carried over and a second still open: the
    ids of the campaign and its encounters and their GM tokens."""
    service = _bearer(SERVICE_KEY)
    body = {"ruleset": "generic", "name": "Ashes"}
    created = await _ok(await client.post("/campaigns", json=body, headers=service))
    cid, gm = created["campaign_id"], _bearer(created["gm_token"])
    commands = f"/campaigns/{cid}/commands"
    for command in (
        {"type": "campaign.add_member", "sheet": combatant("aria", 22)},
        {"type": "campaign.add_member", "sheet": combatant("borin", 30)},
        {"type": "campaign.add_statblock", "sheet": combatant("goblin", 7)},
    ):
        await _ok(await client.post(commands, json={"command": command}, headers=gm))
    goblin = [{"statblock": "goblin"}]
    start = {"name": "The bridge", "members": ["aria", "borin"], "monsters": goblin}
    first = await _ok(await client.post(f"/campaigns/{cid}/encounters", json=start, headers=gm))
    damage = {"type": "generic.damage", "target": "aria", "amount": 7}
    one = first["encounter_id"]
    path = f"/encounters/{one}/commands"
    await _ok(await client.post(path, json={"command": damage}, headers=_bearer(first["gm_token"])))
    await _ok(await client.post(f"/campaigns/{cid}/encounters/{one}/carry-over", headers=gm))
    start = {"name": "The ford", "members": ["aria"], "monsters": goblin}
    second = await _ok(await client.post(f"/campaigns/{cid}/encounters", json=start, headers=gm))
    two = second["encounter_id"]
    hit = {"type": "generic.damage", "target": "aria", "amount": 3}
    path = f"/encounters/{two}/commands"
    await _ok(await client.post(path, json={"command": hit}, headers=_bearer(second["gm_token"])))
    return {
        "id": cid,
        "gm": gm,
        "encounters": [one, two],
        "tokens": [_bearer(first["gm_token"]), _bearer(second["gm_token"])],
    }


async def _export(client: Client, cid: str, headers: dict[str, str]) -> bytes:
    response = await client.get(f"/campaigns/{cid}/export", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/jsonl")
    return response.content


def _parsed(archive: bytes) -> Lines:
    return [msgspec.json.decode(line) for line in archive.splitlines()]


def _joined(lines: Lines) -> bytes:
    return b"".join(msgspec.json.encode(line) + b"\n" for line in lines)


def _renamed(value: Any, ids: dict[str, str]) -> Any:
    """``value`` as JSON text with every id of ``ids`` replaced by its new one, but for
    the client seed of an encounter's dice (its id by default): it is part of the dice's
    proof, which the import keeps."""
    text = msgspec.json.encode(value).decode()
    for old, new in ids.items():
        text = re.sub(rf"(?<!client seed ')(?<!\"client_seed\":\"){old}", new, text)
    return msgspec.json.decode(text)


async def _import(target: Client, archive: bytes) -> Any:
    return await target.post(
        "/campaigns/import", content=archive, headers={"Content-Type": "application/jsonl"}
    )


async def _stream_count(client: Client) -> int:
    conn = await asyncpg.connect(client.app.state.services.settings.database_url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM streams"))
    finally:
        await conn.close()


async def test_a_campaign_moves_whole_and_plays_on(source: Client, target: Client) -> None:
    original = await _campaign(source)
    cid, gm = original["id"], original["gm"]
    lines = _parsed(await _export(source, cid, gm))
    assert lines[0]["kind"] == "campaign" and lines[-1]["kind"] == "campaign_end"
    assert lines[0]["encounters"] == original["encounters"]
    assert [ln["encounter_id"] for ln in lines if ln["kind"] == "encounter"] == [
        cid,
        *original["encounters"],
    ]
    assert lines[-1]["signature"] and lines[-1]["streams"] == 3

    imported = await _ok(await _import(target, _joined(lines)))
    new_cid = imported["campaign"]["id"]
    assert imported["campaign"]["original_id"] == cid != new_cid
    assert [e["original_id"] for e in imported["encounters"]] == original["encounters"]
    ids = {cid: new_cid} | {e["original_id"]: e["id"] for e in imported["encounters"]}
    assert set(ids.values()).isdisjoint(ids)
    new_gm = _bearer(imported["campaign"]["gm_token"])

    for read in ("", "/log"):
        before = (await source.get(f"/campaigns/{cid}{read}", headers=gm)).json()
        after = await _ok(await target.get(f"/campaigns/{new_cid}{read}", headers=new_gm))
        assert after == _renamed(before, ids)
    events_before = (await source.get(f"/campaigns/{cid}/events", headers=gm)).json()["events"]
    events_after = (await target.get(f"/campaigns/{new_cid}/events", headers=new_gm)).json()
    assert [e["data"] for e in events_after["events"]] == _renamed(
        [e["data"] for e in events_before], ids
    )
    for (old, token), new in zip(
        zip(original["encounters"], original["tokens"], strict=True),
        imported["encounters"],
        strict=True,
    ):
        for read in ("", "/log"):
            before = (await source.get(f"/encounters/{old}{read}", headers=token)).json()
            after = await target.get(
                f"/encounters/{new['id']}{read}", headers=_bearer(new["gm_token"])
            )
            assert _strip_heads(after.json()) == _strip_heads(_renamed(before, ids))

    verdict = f"imported, attested up to version {events_before[-1]['stream_version']}"
    report = await _ok(await target.get(f"/campaigns/{new_cid}/verify", headers=new_gm))
    assert report["ok"] and report["chain"]["ok"] and report["head"]["signed"]
    assert report["provenance"]["verdict"] == verdict
    assert report["provenance"]["origin"] == cid
    for new in imported["encounters"]:
        path = f"/encounters/{new['id']}/verify"
        report = await _ok(await target.get(path, headers=_bearer(new["gm_token"])))
        assert report["ok"], report
        # The new campaign's GM opens its encounters, as those the campaign starts.
        await _ok(await target.get(path, headers=new_gm))
        assert report["provenance"]["verdict"].startswith("imported, attested up to version")

    # The second encounter plays on, carries over and the party starts a third from there.
    second = imported["encounters"][1]
    hit = {"type": "generic.damage", "target": "aria", "amount": 2}  # 22 - 7 - 3 - 2 = 10
    path = f"/encounters/{second['id']}/commands"
    await _ok(await target.post(path, json={"command": hit}, headers=_bearer(second["gm_token"])))
    carry = f"/campaigns/{new_cid}/encounters/{second['id']}/carry-over"
    await _ok(await target.post(carry, headers=new_gm))
    view = await _ok(await target.get(f"/campaigns/{new_cid}", headers=new_gm))
    party = {m["member"]: m for m in view["party"]}
    assert party["aria"]["condition"]["hp"] == 10 and party["aria"]["away"] is None
    start = {"name": "The keep", "members": ["aria", "borin"]}
    third = await _ok(
        await target.post(f"/campaigns/{new_cid}/encounters", json=start, headers=new_gm)
    )
    state = await _ok(
        await target.get(f"/encounters/{third['encounter_id']}", headers=_bearer(third["gm_token"]))
    )
    assert _hp(state, "aria") == 10 and _hp(state, "borin") == 30


def _strip_heads(body: Any) -> Any:
    """An encounter's read without what names its own stream's chain (new hashes)."""
    if isinstance(body, dict):
        return {k: _strip_heads(v) for k, v in body.items() if k not in ("hash", "prev_hash")}
    if isinstance(body, list):
        return [_strip_heads(v) for v in body]
    return body


def _hp(read: dict[str, Any], who: str) -> int:
    return int(read["state"]["game"]["combatants"][who]["hp"])


def _forged(lines: Lines) -> Lines:
    """The campaign's own section edited (Aria's sheet gets 99 hp) and re-hashed under
    the same id, its header and end line made to match: the chain holds."""
    forged: Lines = msgspec.json.decode(msgspec.json.encode(lines))
    cid = uuid.UUID(forged[0]["campaign_id"])
    section = [ln for ln in forged[1:] if ln["kind"] != "campaign_end"]
    end = next(i for i, ln in enumerate(section) if ln["kind"] == "end")
    events = [ln for ln in section[: end + 1] if ln["kind"] == "event"]
    prev = "0" * 64
    for event in events:
        if event["type"] == "campaign.member_added" and event["data"]["member"] == "aria":
            event["data"]["sheet"]["hp"] = 99
        event["prev_hash"] = prev
        event["hash"] = prev = line_hash(prev, cid, event)
    section[0]["last_hash"] = section[end]["last_hash"] = prev
    return forged


def _unsigned(lines: Lines) -> Lines:
    """The campaign's section and the set unsigned; the encounters' sections keep their
    signatures."""
    first_end = next(line for line in lines if line["kind"] == "end")
    for line in (first_end, lines[-1]):
        line.pop("signature", None)
        line.pop("signed_by", None)
    return lines


async def test_a_forged_campaign_is_refused_or_unattested(source: Client, target: Client) -> None:
    original = await _campaign(source)
    lines = _parsed(await _export(source, original["id"], original["gm"]))
    before = await _stream_count(target)

    refused = await _import(target, _joined(_forged(lines)))
    assert refused.status_code == 422, refused.text
    assert refused.json()["type"].endswith("/broken-archive")
    assert "changed after it was exported" in refused.json()["detail"]
    assert await _stream_count(target) == before

    imported = await _ok(await _import(target, _joined(_unsigned(_forged(lines)))))
    new_gm = _bearer(imported["campaign"]["gm_token"])
    new_cid = imported["campaign"]["id"]
    report = await _ok(await target.get(f"/campaigns/{new_cid}/verify", headers=new_gm))
    assert report["provenance"]["verdict"] == "imported, unattested"
    assert report["provenance"]["attested_by"] is None
    view = await _ok(await target.get(f"/campaigns/{new_cid}", headers=new_gm))
    assert next(m for m in view["party"] if m["member"] == "aria")["sheet"]["hp"] == 99
    for new in imported["encounters"]:
        assert new["attestation"] == "unattested"  # the set is vouched for by nobody


async def test_a_cut_or_broken_archive_writes_nothing(source: Client, target: Client) -> None:
    original = await _campaign(source)
    archive = await _export(source, original["id"], original["gm"])
    lines = archive.splitlines(keepends=True)
    before = await _stream_count(target)
    second_section = [i for i, ln in enumerate(lines) if b'"kind":"encounter"' in ln][2]
    for broken in (
        b"".join(lines[: second_section + 3]),  # cut in the middle of the last encounter
        b"".join(lines[:-1]),  # no campaign end line
        b"".join(lines[:second_section] + lines[-1:]),  # an encounter left out
        archive.replace(b'"amount":3', b'"amount":4'),  # edited, not re-hashed
        b"not json\n",
    ):
        response = await _import(target, broken)
        assert response.status_code == 422, response.text
        assert response.json()["type"].endswith("/broken-archive")
        assert await _stream_count(target) == before


async def test_who_may_export_and_verify(source: Client) -> None:
    original = await _campaign(source)
    cid, gm = original["id"], original["gm"]
    token = await _ok(
        await source.post(f"/campaigns/{cid}/tokens", json={"member": "aria"}, headers=gm)
    )
    player = _bearer(token["token"])
    refused = await source.get(f"/campaigns/{cid}/export", headers=player)
    assert refused.status_code == 403 and "only the GM" in refused.json()["detail"]
    assert (await source.get(f"/campaigns/{cid}/export")).status_code == 401
    seeds = await source.get(f"/campaigns/{cid}/export", params={"seeds": "all"}, headers=gm)
    assert seeds.status_code == 403
    full = await source.get(
        f"/campaigns/{cid}/export", params={"seeds": "all"}, headers=_bearer(SERVICE_KEY)
    )
    assert full.status_code == 200 and b'"kind":"seed"' in full.content
    assert token["token"].encode() not in full.content  # tokens stay home
    report = await _ok(await source.get(f"/campaigns/{cid}/verify", headers=player))
    assert report["ok"] and report["provenance"] is None
    missing = await source.get(f"/campaigns/{uuid.uuid4()}/export", headers=_bearer(SERVICE_KEY))
    assert missing.status_code == 404


async def test_an_archive_over_the_size_limit_is_refused(other_database: str) -> None:
    settings = Settings(database_url=other_database, max_import_bytes=100)
    async with AsyncTestClient(app=create_app(settings)) as client:
        response = await _import(client, b'{"kind":"campaign"}\n' * 10)
    assert response.status_code == 413, response.text
    assert response.json()["type"].endswith("/archive-too-large")
