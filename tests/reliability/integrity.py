"""What must hold in the store after any fault: every acknowledged command is there, and
every command in it is whole (all of its events, read models and idempotency record)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.verify import verify_chain


async def assert_acknowledged_are_stored(
    conn: asyncpg.Connection, acknowledged: Iterable[dict[str, Any]]
) -> int:
    """Each 2xx response's events are stored with the same stream, version and hash."""
    wanted = [
        (UUID(str(body["encounter_id"])), e["stream_version"], e["hash"])
        for body in acknowledged
        for e in body["events"]
    ]
    rows = await conn.fetch(
        """SELECT w.s FROM unnest($1::uuid[], $2::int[], $3::text[]) AS w(s, v, h)
           LEFT JOIN events e ON e.stream_id = w.s AND e.stream_version = w.v AND e.hash = w.h
           WHERE e.global_position IS NULL""",
        [w[0] for w in wanted],
        [w[1] for w in wanted],
        [w[2] for w in wanted],
    )
    assert not rows, f"{len(rows)} acknowledged events are missing from the store"
    return len(wanted)


async def assert_every_command_whole(conn: asyncpg.Connection, stream_ids: Iterable[UUID]) -> None:
    for stream_id in stream_ids:
        report = await verify_chain(conn, stream_id)
        assert report.ok, report
        events = await conn.fetch(
            """SELECT stream_version, hash, metadata->>'command_id' AS command,
                      metadata->>'idempotency_key' AS key
               FROM events WHERE stream_id = $1 ORDER BY stream_version""",
            stream_id,
        )
        head = await conn.fetchval("SELECT version FROM streams WHERE stream_id = $1", stream_id)
        assert [e["stream_version"] for e in events] == list(range(1, head + 1))
        state = await conn.fetchval(
            "SELECT version FROM encounter_state WHERE encounter_id = $1", stream_id
        )
        logged = await conn.fetchval(
            "SELECT count(*) FROM log_entries WHERE encounter_id = $1", stream_id
        )
        assert state == head and logged == head, (stream_id, head, state, logged)
        by_command: dict[str, list[str]] = defaultdict(list)
        keys: dict[str, set[str]] = defaultdict(set)
        for e in events:
            by_command[e["command"]].append(e["hash"])
            if e["key"] is not None:
                keys[e["key"]].add(e["command"])
        for key, commands in keys.items():
            assert len(commands) == 1, f"idempotency key {key} was applied {len(commands)} times"
            stored = await conn.fetchval(
                "SELECT response FROM idempotency_keys WHERE stream_id = $1 AND key = $2",
                stream_id,
                key,
            )
            assert stored is not None, f"command with key {key} has no idempotency record"
            response = msgspec.json.decode(stored)
            (command,) = commands
            # The stored response of the command lists exactly the events stored for it.
            assert [e["hash"] for e in response["events"]] == by_command[command]
