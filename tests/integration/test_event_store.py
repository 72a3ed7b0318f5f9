"""The event store on a real PostgreSQL: append, conflicts, immutability, chain, idempotency."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg
import msgspec
import pytest

from events.envelope import GENESIS_HASH, NewEvent
from events.errors import IdempotencyKeyReused, VersionConflict
from events.idempotency import find_response
from events.store import (
    StreamHead,
    append,
    create_stream,
    latest_snapshot,
    read_stream,
    save_snapshot,
    stream_head,
)
from events.verify import verify_chain
from projections.log_queries import rolls


async def _new_stream(pool: asyncpg.Pool, events: int = 0) -> UUID:
    stream_id = uuid4()
    async with pool.acquire() as conn, conn.transaction():
        head = await create_stream(conn, stream_id)
        if events:
            await append(
                conn,
                stream_id,
                head,
                [NewEvent(type="t.e", data={"n": i}) for i in range(events)],
                metadata={"actor": {"role": "gm"}},
                recorded_at=datetime.now(UTC),
            )
    return stream_id


async def test_append_assigns_gapless_versions_and_chains_hashes(pool: asyncpg.Pool) -> None:
    stream_id = await _new_stream(pool, events=3)
    events = await read_stream(pool, stream_id)
    assert [e.stream_version for e in events] == [1, 2, 3]
    assert events[0].prev_hash == GENESIS_HASH
    assert events[1].prev_hash == events[0].hash and events[2].prev_hash == events[1].hash
    assert (await stream_head(pool, stream_id)).last_hash == events[2].hash
    assert (await verify_chain(pool, stream_id)).ok


async def test_stale_expected_version_is_a_conflict_across_connections(pool: asyncpg.Pool) -> None:
    stream_id = await _new_stream(pool, events=1)
    head = await stream_head(pool, stream_id)

    async def writer(n: int) -> str:
        async with pool.acquire() as conn:
            try:
                async with conn.transaction():
                    await append(
                        conn,
                        stream_id,
                        head,
                        [NewEvent(type="t.e", data={"w": n})],
                        metadata={},
                        recorded_at=datetime.now(UTC),
                    )
                    await asyncio.sleep(0.05)  # hold the transaction open so both overlap
                return "won"
            except VersionConflict as exc:
                assert exc.actual == 2 and exc.expected == 1
                return "conflict"

    results = await asyncio.gather(writer(1), writer(2))
    assert sorted(results) == ["conflict", "won"]
    assert [e.stream_version for e in await read_stream(pool, stream_id)] == [1, 2]


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET data = '{}'::json WHERE stream_id = $1",
        "DELETE FROM events WHERE stream_id = $1",
    ],
)
async def test_events_cannot_be_updated_or_deleted(pool: asyncpg.Pool, statement: str) -> None:
    stream_id = await _new_stream(pool, events=2)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="events are immutable"):
        await pool.execute(statement, stream_id)
    assert len(await read_stream(pool, stream_id)) == 2


async def test_events_cannot_be_truncated(pool: asyncpg.Pool) -> None:
    await _new_stream(pool, events=1)
    with pytest.raises(asyncpg.InsufficientPrivilegeError, match="TRUNCATE"):
        await pool.execute("TRUNCATE events CASCADE")


async def test_verify_names_the_first_altered_event(pool: asyncpg.Pool) -> None:
    stream_id = await _new_stream(pool, events=4)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        await conn.execute(
            "UPDATE events SET data = '{\"n\": 99}'::json"
            " WHERE stream_id = $1 AND stream_version = 3",
            stream_id,
        )
        await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
    report = await verify_chain(pool, stream_id)
    assert not report.ok
    assert report.first_broken is not None
    assert report.first_broken.stream_id == stream_id
    assert report.first_broken.version == 3
    assert "altered" in report.first_broken.reason
    assert report.events_checked == 2


async def test_verify_names_a_deleted_event(pool: asyncpg.Pool) -> None:
    stream_id = await _new_stream(pool, events=3)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        await conn.execute(
            "DELETE FROM events WHERE stream_id = $1 AND stream_version = 2", stream_id
        )
        await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
    report = await verify_chain(pool, stream_id)
    assert report.first_broken is not None and report.first_broken.version == 2
    assert "missing" in report.first_broken.reason


async def test_idempotency_key_returns_first_response_and_refuses_other_bodies(
    pool: asyncpg.Pool,
) -> None:
    stream_id = await _new_stream(pool)
    store = (
        "INSERT INTO idempotency_keys (stream_id, key, request_hash, response)"
        " VALUES ($1, $2, $3, $4)"
    )
    await pool.execute(store, stream_id, "k1", "hash-a", b'{"version": 1}')
    assert await find_response(pool, stream_id, "k1", "hash-a") == b'{"version": 1}'
    assert await find_response(pool, stream_id, "k2", "hash-a") is None
    with pytest.raises(IdempotencyKeyReused):
        await find_response(pool, stream_id, "k1", "hash-b")
    with pytest.raises(asyncpg.UniqueViolationError):
        await pool.execute(store, stream_id, "k1", "hash-a", b'{"version": 2}')


async def test_append_to_missing_stream_is_refused(pool: asyncpg.Pool) -> None:
    from events.errors import StreamNotFound

    async with pool.acquire() as conn:
        with pytest.raises(StreamNotFound):
            async with conn.transaction():
                await append(
                    conn,
                    uuid4(),
                    StreamHead(0, GENESIS_HASH),
                    [NewEvent(type="t", data={})],
                    metadata={},
                    recorded_at=datetime.now(UTC),
                )


async def test_event_data_and_snapshots_keep_their_key_order(pool: asyncpg.Pool) -> None:
    """Maps come back in the order the decider wrote them (jsonb would put short keys
    first), so a state from storage iterates exactly like the one in memory."""
    stream = uuid4()
    ordered = {"zeta": 1, "a": 2, "mid": {"9,9": 1, "0,0": 2, "10,-3": 3}}
    async with pool.acquire() as conn, conn.transaction():
        head = await create_stream(conn, stream)
        await append(
            conn,
            stream,
            head,
            [NewEvent(type="t.x", data=ordered)],
            metadata={},
            recorded_at=datetime.now(UTC),
        )
        await save_snapshot(conn, stream, 1, 1, msgspec.json.encode(ordered))
    (event,) = await read_stream(pool, stream)
    assert list(event.data) == ["zeta", "a", "mid"]
    assert list(event.data["mid"]) == ["9,9", "0,0", "10,-3"]
    snapshot = await latest_snapshot(pool, stream, 1)
    assert snapshot is not None
    assert list(msgspec.json.decode(snapshot.state)["mid"]) == ["9,9", "0,0", "10,-3"]


async def test_large_states_and_snapshots_are_compressed_with_lz4_where_built(
    pool: asyncpg.Pool,
) -> None:
    """Migration 0007: a state big enough to be compressed uses lz4 when the server has
    it (pglz cost 5% of the database's CPU per command), and pglz otherwise."""
    stream = uuid4()
    big = msgspec.json.encode({f"combatant {i}": {"hp": i, "notes": "x" * i} for i in range(120)})
    async with pool.acquire() as conn:
        try:
            async with conn.transaction():
                await conn.execute("CREATE TEMP TABLE lz4_probe (j json COMPRESSION lz4)")
                expected = "lz4"
                raise _RollBack
        except asyncpg.FeatureNotSupportedError:
            expected = "pglz"
        except _RollBack:
            pass
        async with conn.transaction():
            await create_stream(conn, stream)
            await save_snapshot(conn, stream, 1, 1, big)
        used = await conn.fetchval(
            "SELECT pg_column_compression(state) FROM snapshots WHERE stream_id = $1", stream
        )
    assert used == expected


class _RollBack(Exception):
    """Leaves a probing transaction without keeping what it created."""


async def test_roll_ids_compare_as_bytes_and_the_ledger_keeps_number_order(
    pool: asyncpg.Pool,
) -> None:
    """Migration 0008: roll ids use the "C" collation (a byte comparison in the roll
    ledger's key, not the database's collation), and the ledger still lists r2 before r10
    and r10 before r11, as it did under the database's collation."""
    collation = await pool.fetchval(
        """SELECT collation_name FROM information_schema.columns
           WHERE table_name = 'roll_ledger' AND column_name = 'roll_id'"""
    )
    assert collation == "C"
    encounter = uuid4()
    shuffled = [11, 2, 10, 1, 12, 9]
    await pool.executemany(
        "INSERT INTO roll_ledger (encounter_id, roll_id, version, round, record)"
        " VALUES ($1, $2, 3, 1, $3)",
        [
            (encounter, f"r{n}", msgspec.json.encode({"roll_id": f"r{n}"}).decode())
            for n in shuffled
        ],
    )
    listed = await rolls(pool, encounter, after_version=0, limit=100)
    assert [r["roll_id"] for r in listed] == ["r1", "r2", "r9", "r10", "r11", "r12"]


async def test_state_rows_are_updated_in_place_while_others_read(pool: asyncpg.Pool) -> None:
    """Migration 0009: encounter_state pages are filled to half, so the next version of a
    row fits on its page even while another transaction's snapshot keeps the old one
    alive (a HOT update: no index entries, no row left behind elsewhere).  With full
    pages, the row would move to another page."""
    streams = [uuid4() for _ in range(4)]
    state = msgspec.json.encode({"noise": uuid4().hex * 50}).decode()  # 1.6 KB, inline
    async with pool.acquire() as conn:
        for stream in streams:
            await create_stream(conn, stream)
        await conn.executemany(
            "INSERT INTO encounter_state (encounter_id, ruleset, name, version, schema_version,"
            " state, created_at, updated_at) VALUES ($1, 'generic', 'n', 1, 1, $2, now(), now())",
            [(stream, state) for stream in streams],
        )
    page = "SELECT (ctid::text::point)[0] FROM encounter_state WHERE encounter_id = $1"
    before = await pool.fetchval(page, streams[0])
    async with pool.acquire() as reader, reader.transaction(isolation="repeatable_read"):
        assert await reader.fetchval("SELECT count(*) FROM encounter_state") >= 4
        await pool.execute(
            "UPDATE encounter_state SET version = 2, state = $2 WHERE encounter_id = $1",
            streams[0],
            state,
        )
        assert await pool.fetchval(page, streams[0]) == before
