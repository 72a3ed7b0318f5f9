"""Tamper evidence beyond the database (docs/tamper-evidence.md).

Each tampering is done the way a database administrator would do it, in SQL with the
events' immutability trigger disabled, and verify must name it: a truncated tail with the
head rewound (the pinned head and the head signature), a chain re-hashed from an edited
event (the head signature), and forged read models (the deep verify).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from events.hashing import event_hash
from events.signing import sign_head
from projections.rebuild import rebuild_stream
from tests.e2e.helpers import Client, GmTokens, combatant, command, create

CHAIN_KEY = "chain-key-for-tests"
KEY = CHAIN_KEY.encode()


@pytest.fixture(scope="session")
async def keyed(database_url: str) -> AsyncIterator[Client]:
    """A GM client of an app that signs chain heads."""
    app = create_app(Settings(database_url=database_url, snapshot_every=5, chain_key=CHAIN_KEY))
    async with AsyncTestClient(app=app) as client:
        client.auth = GmTokens()
        yield client


def head_of(response: Any) -> tuple[int, str]:
    version, _, digest = response.headers["Aeon-Chain-Head"].partition(":")
    return int(version), digest


async def verify(client: Client, eid: str, **params: Any) -> dict[str, Any]:
    response = await client.get(f"/encounters/{eid}/verify", params=params)
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


async def play(client: Client, name: str) -> str:
    """An encounter with rolls, a hidden roll, a GM-only note and an undo."""
    eid = await create(client, name)
    await command(client, eid, combatant("a", 20, ac=10))
    await command(client, eid, combatant("b", 20, ac=10))
    await command(client, eid, {"type": "generic.roll_initiative"})
    attack = {
        "type": "generic.attack",
        "attacker": "a",
        "target": "b",
        "notation": "1d20+3",
        "target_number": 5,
        "damage": "1d6",
    }
    await command(client, eid, attack)
    body = {"command": attack, "hidden": True}
    response = await client.post(f"/encounters/{eid}/commands", json=body)
    assert response.status_code == 200, response.text
    note = {"text": "b is a spy", "gm_only": True}
    assert (await client.post(f"/encounters/{eid}/notes", json=note)).status_code == 200
    await command(client, eid, {"type": "generic.damage", "target": "b", "amount": 3})
    assert (await client.post(f"/encounters/{eid}/undo")).status_code == 200
    await command(client, eid, {"type": "generic.damage", "target": "a", "amount": 2})
    return eid


async def tamper(database_url: str, *statements: tuple[str, list[Any]]) -> None:
    """Run ``statements`` as a DBA would: with the events' immutability trigger off."""
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
            for sql, args in statements:
                await conn.execute(sql, *args)
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
    finally:
        await conn.close()


async def test_every_answer_carries_the_signed_chain_head(keyed: Client) -> None:
    created = await keyed.post("/encounters", json={"ruleset": "generic", "name": "Heads"})
    assert created.status_code == 201
    eid = created.json()["encounter_id"]
    assert head_of(created) == (2, created.json()["events"][-1]["hash"])
    answer = await keyed.post(
        f"/encounters/{eid}/commands", json={"command": combatant("a", 10, ac=10)}
    )
    assert answer.status_code == 200
    assert head_of(answer) == (3, answer.json()["events"][-1]["hash"])
    assert answer.headers["ETag"] == '"3"'
    signature = sign_head(KEY, UUID(eid), 3, answer.json()["events"][-1]["hash"])
    for path in ("", "/events", "/log", "/log.txt", "/rolls"):
        read = await keyed.get(f"/encounters/{eid}{path}")
        assert read.status_code == 200, path
        assert head_of(read) == head_of(answer), path
        assert read.headers["Aeon-Chain-Signature"] == signature, path
    version, digest = head_of(answer)
    report = await verify(keyed, eid, version=version, hash=digest)
    assert report["ok"] is True
    assert report["head"] == {
        "version": 3,
        "hash": digest,
        "signed": True,
        "ok": True,
        "reason": None,
    }
    assert report["pin"]["ok"] is True
    # An older pin is extended by the chain as well.
    assert (await verify(keyed, eid, version=2, hash=created.json()["events"][-1]["hash"]))["ok"]


async def test_a_truncated_tail_with_the_head_rewound_is_named(
    keyed: Client, database_url: str
) -> None:
    eid = await play(keyed, "Truncated")
    pinned = head_of(await keyed.get(f"/encounters/{eid}/events"))
    assert (await verify(keyed, eid, version=pinned[0], hash=pinned[1]))["ok"] is True
    keep = pinned[0] - 2
    conn = await asyncpg.connect(database_url)
    try:
        kept_hash = await conn.fetchval(
            "SELECT hash FROM events WHERE stream_id = $1 AND stream_version = $2", UUID(eid), keep
        )
    finally:
        await conn.close()
    await tamper(
        database_url,
        ("DELETE FROM events WHERE stream_id = $1 AND stream_version > $2", [UUID(eid), keep]),
        (
            "UPDATE streams SET version = $2, last_hash = $3 WHERE stream_id = $1",
            [UUID(eid), keep, kept_hash],
        ),
    )
    report = await verify(keyed, eid, version=pinned[0], hash=pinned[1])
    assert report["ok"] is False
    assert report["chain"]["ok"] is True  # what is left is a consistent chain
    assert report["pin"]["ok"] is False
    assert report["pin"]["reason"].startswith(
        f"the chain no longer holds version {pinned[0]} with the hash you pinned:"
        " truncated or rewritten"
    )
    assert report["head"]["ok"] is False
    assert report["head"]["reason"].startswith("the head signature does not match")
    # A DBA who also blanks the signature gains nothing: a keyed service signs every head.
    await tamper(
        database_url,
        ("UPDATE streams SET head_signature = NULL WHERE stream_id = $1", [UUID(eid)]),
    )
    report = await verify(keyed, eid)
    assert report["ok"] is False
    assert report["head"]["signed"] is False and report["head"]["ok"] is False


async def test_a_chain_rehashed_from_an_edited_event_fails_the_head_signature(
    keyed: Client, database_url: str
) -> None:
    eid = await create(keyed, "Rehashed")
    await command(keyed, eid, combatant("a", 10, ac=10))
    await command(keyed, eid, combatant("b", 10, ac=10))
    await command(keyed, eid, {"type": "generic.damage", "target": "b", "amount": 3})
    answer = await keyed.post(
        f"/encounters/{eid}/commands",
        json={"command": {"type": "generic.damage", "target": "a", "amount": 1}},
    )
    pinned = head_of(answer)
    await rehash_from(database_url, UUID(eid), 5, {"amount": 9})
    report = await verify(keyed, eid, version=pinned[0], hash=pinned[1])
    assert report["chain"]["ok"] is True  # every hash recomputed: the chain alone holds
    assert report["head"]["ok"] is False
    assert report["head"]["reason"] == (
        "the head signature does not match: the chain was rewritten or truncated by someone"
        " without the service's key"
    )
    assert report["pin"]["ok"] is False
    assert report["ok"] is False


async def rehash_from(
    database_url: str, stream_id: UUID, version: int, data_changes: dict[str, Any]
) -> None:
    """Edit the data of event ``version`` and recompute every hash from it to the head."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            """SELECT stream_version, type, type_version, data::text AS data,
                      metadata::text AS metadata, recorded_at, prev_hash
               FROM events WHERE stream_id = $1 AND stream_version >= $2
               ORDER BY stream_version""",
            stream_id,
            version,
        )
        prev = rows[0]["prev_hash"]
        statements: list[tuple[str, list[Any]]] = []
        for row in rows:
            data = msgspec.json.decode(row["data"])
            if row["stream_version"] == version:
                data.update(data_changes)
            digest = event_hash(
                prev,
                stream_id=stream_id,
                stream_version=row["stream_version"],
                type=row["type"],
                type_version=row["type_version"],
                data=data,
                metadata=msgspec.json.decode(row["metadata"]),
                recorded_at=row["recorded_at"],
            )
            edited = msgspec.json.encode(data).decode()
            statements.append(
                (
                    "UPDATE events SET data = $3::json, prev_hash = $4, hash = $5"
                    " WHERE stream_id = $1 AND stream_version = $2",
                    [stream_id, row["stream_version"], edited, prev, digest],
                )
            )
            prev = digest
    finally:
        await conn.close()
    statements.append(("UPDATE streams SET last_hash = $2 WHERE stream_id = $1", [stream_id, prev]))
    await tamper(database_url, *statements)


async def test_deep_verify_passes_an_untouched_encounter(keyed: Client) -> None:
    eid = await play(keyed, "Untouched")
    report = await verify(keyed, eid, deep="true")
    assert report["ok"] is True, report
    assert report["read_models"]["ok"] is True
    assert report["read_models"]["events_folded"] == report["chain"]["head_version"]
    assert (await verify(keyed, eid))["read_models"] is None


async def test_deep_verify_names_a_forged_state(keyed: Client, database_url: str) -> None:
    eid = await play(keyed, "Forged state")
    version = (await keyed.get(f"/encounters/{eid}")).json()["version"]
    await tamper(
        database_url,
        (
            """UPDATE encounter_state
               SET state = jsonb_set(state::jsonb, '{game,combatants,b,hp}', '999')::json
               WHERE encounter_id = $1""",
            [UUID(eid)],
        ),
    )
    state = (await keyed.get(f"/encounters/{eid}")).json()["state"]
    assert state["game"]["combatants"]["b"]["hp"] == 999  # served as stored
    shallow = await verify(keyed, eid)
    assert shallow["ok"] is True  # events, chain, head and dice are all intact
    report = await verify(keyed, eid, deep="true")
    assert report["ok"] is False
    assert report["read_models"]["first_difference"] == {
        "table": "encounter_state",
        "version": version,
        "reason": f"encounter_state differs from the events at version {version} (state)",
    }


async def test_deep_verify_names_a_forged_log_line(keyed: Client, database_url: str) -> None:
    eid = await play(keyed, "Forged log")
    await tamper(
        database_url,
        (
            "UPDATE log_entries SET text = 'A misses B.' WHERE encounter_id = $1 AND version = 6",
            [UUID(eid)],
        ),
    )
    report = await verify(keyed, eid, deep="true")
    assert report["ok"] is False
    assert report["read_models"]["first_difference"]["reason"] == (
        "log_entries differs from the events at version 6 (text)"
    )


async def test_deep_verify_names_an_inserted_log_line(keyed: Client, database_url: str) -> None:
    eid = await play(keyed, "Inserted log")
    await tamper(
        database_url,
        (
            """INSERT INTO log_entries (encounter_id, version, round, type, text, recorded_at)
               VALUES ($1, 1000, 1, 'encounter.note_added', 'The GM forgives the debt.', now())""",
            [UUID(eid)],
        ),
    )
    difference = (await verify(keyed, eid, deep="true"))["read_models"]["first_difference"]
    assert difference["reason"] == (
        "log_entries has a row at version 1000 that the events do not give"
    )


async def test_deep_verify_names_a_forged_roll(keyed: Client, database_url: str) -> None:
    eid = await play(keyed, "Forged roll")
    conn = await asyncpg.connect(database_url)
    try:
        roll_id, version = await conn.fetchrow(
            "SELECT roll_id, version FROM roll_ledger WHERE encounter_id = $1"
            " ORDER BY version LIMIT 1",
            UUID(eid),
        )
    finally:
        await conn.close()
    await tamper(
        database_url,
        (
            """UPDATE roll_ledger SET record = jsonb_set(record::jsonb, '{total}', '20')::json
               WHERE encounter_id = $1 AND roll_id = $2""",
            [UUID(eid), roll_id],
        ),
    )
    report = await verify(keyed, eid, deep="true")
    assert report["ok"] is False
    assert report["read_models"]["first_difference"] == {
        "table": "roll_ledger",
        "version": version,
        "reason": f"roll_ledger differs from the events at version {version} (record)",
    }


async def test_without_a_key_heads_are_unsigned_and_verify_says_so(client: Client) -> None:
    eid = await create(client, "Unsigned")
    answer = await client.post(
        f"/encounters/{eid}/commands", json={"command": combatant("a", 10, ac=10)}
    )
    read = await client.get(f"/encounters/{eid}/events")
    assert head_of(read) == head_of(answer) == (3, answer.json()["events"][-1]["hash"])
    assert "Aeon-Chain-Signature" not in read.headers
    report = await verify(client, eid)
    assert report["ok"] is True
    assert report["head"]["signed"] is False
    assert report["head"]["reason"].startswith(
        "unsigned: a database administrator can rewrite this history undetected"
    )
    assert "AEON_CHAIN_KEY" in report["head"]["reason"]


async def test_without_a_key_a_rehashed_history_passes_and_verify_says_it_could(
    client: Client, database_url: str
) -> None:
    """What a key is for: without one, an edited event with every hash recomputed passes
    the chain and the head, so the answer says plainly that it proves nothing against
    whoever can write the database."""
    eid = await create(client, "Unsigned forgery")
    await command(client, eid, combatant("a", 10, ac=10))
    await command(client, eid, combatant("b", 10, ac=10))
    await command(client, eid, {"type": "generic.damage", "target": "b", "amount": 3})
    await rehash_from(database_url, UUID(eid), 5, {"amount": 9})
    report = await verify(client, eid)
    assert report["ok"] is True and report["chain"]["ok"] is True  # the forgery holds
    assert report["head"]["reason"].startswith(
        "unsigned: a database administrator can rewrite this history undetected"
    )


async def test_a_pin_needs_both_version_and_hash(client: Client) -> None:
    eid = await create(client, "Half pin")
    response = await client.get(f"/encounters/{eid}/verify", params={"version": 2})
    assert response.status_code == 400
    assert "bad-pin" in response.text
    report = await verify(client, eid, version=9, hash="0" * 64)
    assert report["ok"] is False
    assert report["pin"]["reason"] == (
        "the chain no longer holds version 9 with the hash you pinned: truncated or rewritten"
        " (the head is at version 2)"
    )


async def test_a_stream_whose_tail_was_deleted_refuses_writes_with_a_503_that_says_verify(
    client: Client, database_url: str
) -> None:
    """A DBA deletes the last events and rewinds the head, leaving the read models' rows
    past it: every later write used to be a 500 (log_entries_pkey). Now it is a 503 that
    says to run verify, nothing is written, and a rebuild lets the table play on."""
    eid = await play(client, "Cut short")
    head = head_of(await client.get(f"/encounters/{eid}/events"))[0]
    keep = head - 2
    conn = await asyncpg.connect(database_url)
    try:
        kept_hash = await conn.fetchval(
            "SELECT hash FROM events WHERE stream_id = $1 AND stream_version = $2", UUID(eid), keep
        )
        await tamper(
            database_url,
            ("DELETE FROM events WHERE stream_id = $1 AND stream_version > $2", [UUID(eid), keep]),
            (
                "UPDATE streams SET version = $2, last_hash = $3 WHERE stream_id = $1",
                [UUID(eid), keep, kept_hash],
            ),
        )
        damage = {"type": "generic.damage", "target": "a", "amount": 1}
        for _ in range(2):  # every write, not only the first
            r = await client.post(f"/encounters/{eid}/commands", json={"command": damage})
            assert r.status_code == 503, r.text
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["type"].endswith("/stream-damaged")
            assert f"/encounters/{eid}/verify" in r.json()["detail"]
        count = "SELECT count(*) FROM events WHERE stream_id = $1"
        assert await conn.fetchval(count, UUID(eid)) == keep  # nothing half-written
        assert (await verify(client, eid, deep="true"))["ok"] is False
        await rebuild_stream(conn, UUID(eid))
    finally:
        await conn.close()
    r = await client.post(f"/encounters/{eid}/commands", json={"command": damage})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == keep + 1
