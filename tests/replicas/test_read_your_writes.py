"""Reads from a streaming replica never lose the client's own write: with replay paused
on the replica, reads that state the version they need go to the primary; once replay
resumes they go back to the replica; reads that state nothing stay on the primary."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from events.replicas import ReadReplicas
from tests.e2e.helpers import Client, GmTokens, combatant, command, create
from tests.e2e.secrecy.scenarios import SCENARIOS
from tests.e2e.secrecy.tables import mentions, play
from tests.replicas.cluster import Pair, replay_paused
from tests.support.live import bearer

WAIT = 0.2


@pytest.fixture(scope="module")
async def client(pair: Pair) -> AsyncIterator[Client]:
    settings = Settings(
        database_url=pair.primary.url,
        read_database_urls=(pair.replica.url,),
        read_replica_wait_seconds=WAIT,
        rate_limit_per_minute=0,
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        client.auth = GmTokens()
        yield client


def served(client: Client) -> Counter[str]:
    replicas = client.app.state.services.replicas
    assert isinstance(replicas, ReadReplicas)
    return replicas.served


async def fight(client: Client) -> tuple[str, int]:
    encounter = await create(client, "replicas")
    await command(client, encounter, combatant("a", 1000, ac=10))
    await command(client, encounter, combatant("b", 1000, ac=10))
    result = await command(client, encounter, {"type": "generic.roll_initiative"})
    return encounter, int(result["version"])


async def hit(client: Client, encounter: str) -> int:
    result = await command(
        client, encounter, {"type": "generic.damage", "target": "b", "amount": 1}
    )
    return int(result["version"])


async def test_read_your_writes_with_replay_paused_then_back_to_the_replica(
    client: Client, pair: Pair
) -> None:
    encounter, version = await fight(client)
    await pair.wait_replayed()
    before = served(client).copy()
    r = await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(version)})
    assert r.status_code == 200 and r.json()["version"] == version
    assert served(client) - before == Counter(replica=1)

    replica = await asyncpg.connect(pair.replica.url)
    try:
        await replica.execute("SELECT pg_wal_replay_pause()")
        written = await hit(client, encounter)
        assert written == version + 1

        before = served(client).copy()
        reads: list[Any] = [
            await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(written)}),
            await client.get(
                f"/encounters/{encounter}/events",
                params={"after_version": version},
                headers={"X-Min-Version": str(written)},
            ),
            await client.get(f"/encounters/{encounter}/log", params={"at": written}),
            await client.get(f"/encounters/{encounter}/rolls", params={"at": written}),
            await client.get(f"/encounters/{encounter}", headers={"If-None-Match": f'"{written}"'}),
        ]
        assert [r.status_code for r in reads] == [200, 200, 200, 200, 304]
        assert reads[0].json()["version"] == written
        assert [e["stream_version"] for e in reads[1].json()["events"]] == [written]
        assert reads[2].json()["entries"][-1]["version"] == written
        # Every one of them waited for the paused replica, then the primary answered.
        assert served(client) - before == Counter(primary=5)

        # Versions the paused replica holds are still read there: the client asked for
        # nothing newer, and gets nothing older than it asked for.
        old = await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(version)})
        assert old.json()["version"] == version
        page = await client.get(
            f"/encounters/{encounter}/events", params={"after_version": version}
        )
        assert page.json()["events"] == []
        assert served(client) - before == Counter(primary=5, replica=2)

        # A read that states nothing is the primary's.
        plain = await client.get(f"/encounters/{encounter}")
        assert plain.json()["version"] == written
        assert served(client)["primary-unstated"] >= 1
    finally:
        await replica.execute("SELECT pg_wal_replay_resume()")
        await replica.close()

    await pair.wait_replayed()
    before = served(client).copy()
    back = await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(written)})
    assert back.json()["version"] == written
    assert served(client) - before == Counter(replica=1)


async def test_a_malformed_min_version_is_a_400_naming_the_header(client: Client) -> None:
    encounter, _ = await fight(client)
    r = await client.get(f"/encounters/{encounter}/events", headers={"X-Min-Version": "7a"})
    assert r.status_code == 400
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "X-Min-Version" in r.json()["detail"]


async def test_an_encounter_the_replica_has_not_replayed_is_read_on_the_primary(
    client: Client, pair: Pair
) -> None:
    replica = await asyncpg.connect(pair.replica.url)
    try:
        await replica.execute("SELECT pg_wal_replay_pause()")
        encounter, version = await fight(client)
        r = await client.get(f"/encounters/{encounter}/events", params={"after_version": 0})
        assert r.status_code == 200
        assert r.json()["events"][-1]["stream_version"] == version
    finally:
        await replica.execute("SELECT pg_wal_replay_resume()")
        await replica.close()


async def test_share_of_reads_the_replica_serves_under_load(client: Client, pair: Pair) -> None:
    """Writers each read their own write back at once (X-Min-Version); spectators poll
    with the ETag they hold.  Every read sees what its client wrote or saw; the share of
    reads the replica answered is printed (docs/scale-out.md records it)."""
    tables = [await fight(client) for _ in range(4)]
    await pair.wait_replayed()
    before = served(client).copy()
    replicas = client.app.state.services.replicas
    waited, waited_seconds = replicas.waited, replicas.waited_seconds
    known = client.app.state.services.live.hub.known
    remembered = known.answered
    rng = random.Random(25)

    async def writer(encounter: str) -> None:
        for _ in range(15):
            written = await hit(client, encounter)
            r = await client.get(
                f"/encounters/{encounter}", headers={"X-Min-Version": str(written)}
            )
            assert r.json()["version"] >= written

    async def spectator(encounter: str, seen: int) -> None:
        for _ in range(40):
            r = await client.get(f"/encounters/{encounter}", headers={"If-None-Match": f'"{seen}"'})
            if r.status_code == 200:
                assert r.json()["version"] >= seen
                seen = r.json()["version"]
            else:
                assert r.status_code == 304
            await asyncio.sleep(rng.uniform(0, 0.02))

    await asyncio.gather(
        *(writer(e) for e, _ in tables), *(spectator(e, v) for e, v in tables for _ in range(2))
    )
    counts = served(client) - before
    total = sum(counts.values())
    share = counts["replica"] / total
    waits = replicas.waited - waited
    mean = (replicas.waited_seconds - waited_seconds) / waits * 1000 if waits else 0.0
    from_memory = known.answered - remembered  # 304s from the last read (api/live/heads.py)
    print(
        f"\nreads {total + from_memory}: replica {counts['replica']}, primary "
        f"{counts['primary']} ({share:.0%} of those on the replica), {from_memory} 304s "
        f"without a database; {waits} waited for replay, {mean:.1f} ms on average"
    )
    assert total + from_memory == 4 * 15 + 8 * 40
    assert counts["replica"] > 0


async def test_players_read_from_the_replica_nothing_a_secret_roll_decided(
    client: Client, pair: Pair
) -> None:
    """The replica holds the same rows and the same redaction runs on them."""
    table = await play(client, "generic", SCENARIOS["generic"])
    head = table.secret_events[-1]["stream_version"]
    await pair.wait_replayed()
    player = {**bearer(table.player), "X-Min-Version": str(head)}
    before = served(client).copy()
    now = await client.get(f"/encounters/{table.eid}", headers=player)
    past = await client.get(f"/encounters/{table.eid}?at={table.before}", headers=player)
    assert now.json()["version"] == head
    assert now.json()["state"]["game"] == past.json()["state"]["game"]
    events = await client.get(
        f"/encounters/{table.eid}/events?after_version={table.before}", headers=player
    )
    seen = events.json()["events"]
    assert [e["stream_version"] for e in seen] == [e["stream_version"] for e in table.secret_events]
    assert all(e["type"] == "encounter.sealed" for e in seen)
    assert all(not {"events", "salt"} & e["data"].keys() for e in seen)
    log = await client.get(
        f"/encounters/{table.eid}/log?after_version={table.before}", headers=player
    )
    lines = [e["text"] for e in log.json()["entries"]]
    assert len(lines) == len(seen)
    assert not any(mentions(line, table.numbers()) for line in lines), lines
    assert served(client) - before == Counter(replica=4)


async def test_round_replay_statistics_export_and_verify_follow_the_stated_version(
    client: Client, pair: Pair
) -> None:
    """The same rule for the other reads: a stated version (X-Min-Version, ?at, verify's
    pinned head) may be read on a replica that holds it, else on the primary; an answer
    from the replica says the version it is as of."""
    encounter, version = await fight(client)
    await hit(client, encounter)  # round 1 has an event
    version += 1
    await pair.wait_replayed()
    at = {"X-Min-Version": str(version)}

    async def export(headers: dict[str, str]) -> list[dict[str, Any]]:
        r = await client.get(f"/encounters/{encounter}/export", headers=headers)
        assert r.status_code == 200, r.text
        return [json.loads(line) for line in r.text.splitlines()]

    before = served(client).copy()
    assert (await client.get(f"/encounters/{encounter}/rounds/1", headers=at)).status_code == 200
    stats = await client.get(f"/encounters/{encounter}/stats", headers=at)
    assert stats.json()["version"] == version
    lines = await export(at)
    assert lines[-1] == {
        **lines[-1],
        "kind": "end",
        "events": version,
        "last_hash": lines[-2]["hash"],
    }
    pin = lines[-2]
    report = await client.get(f"/encounters/{encounter}/verify?deep=true", headers=at)
    assert report.json()["ok"] is True and report.json()["head"]["version"] == version
    assert report.json()["read_models"]["ok"] is True  # refolded on the replica
    # An export's head and its streamed body are two reads.
    assert served(client) - before == Counter(replica=5)

    async with replay_paused(pair):
        written = await hit(client, encounter)
        now = {"X-Min-Version": str(written)}
        before = served(client).copy()
        replay = await client.get(f"/encounters/{encounter}/rounds/1", headers=now)
        assert replay.json()["steps"][-1]["version"] == written
        stats = await client.get(f"/encounters/{encounter}/stats", params={"at": written})
        assert stats.json()["version"] == written
        lines = await export(now)
        assert lines[-1]["events"] == written
        pinned = await client.get(
            f"/encounters/{encounter}/verify",
            params={"version": written, "hash": lines[-2]["hash"]},
        )
        assert pinned.json()["ok"] is True and pinned.json()["head"]["version"] == written
        assert served(client) - before == Counter(primary=4)

        # What the paused replica holds, it still answers, as of its own head.
        before = served(client).copy()
        old = await client.get(f"/encounters/{encounter}/stats", params={"at": version})
        assert old.json()["version"] == version
        pinned = await client.get(
            f"/encounters/{encounter}/verify", params={"version": version, "hash": pin["hash"]}
        )
        assert pinned.json()["ok"] is True and pinned.json()["pin"]["ok"] is True
        assert pinned.json()["head"]["version"] == version  # checked up to the replica's head
        assert (await export(at))[-1]["events"] == version
        assert served(client) - before == Counter(replica=4)

        # Stating nothing reads the primary.
        plain = await client.get(f"/encounters/{encounter}/verify")
        assert plain.json()["head"]["version"] == written
        assert served(client) - before == Counter({"replica": 4, "primary-unstated": 1})

    await pair.wait_replayed()
    before = served(client).copy()
    pinned = await client.get(
        f"/encounters/{encounter}/verify", params={"version": written, "hash": lines[-2]["hash"]}
    )
    assert pinned.json()["ok"] is True and pinned.json()["head"]["version"] == written
    assert served(client) - before == Counter(replica=1)


async def test_metrics_count_the_reads_by_where_they_ran(client: Client, pair: Pair) -> None:
    encounter, version = await fight(client)
    await pair.wait_replayed()

    async def routed() -> dict[str, float]:
        text = (await client.get("/metrics")).text
        found = re.findall(
            r'^aeon_reads_routed_total\{kind="request",place="([\w-]+)"\} (\S+)$', text, re.M
        )
        return {place: float(value) for place, value in found}

    before = await routed()
    await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(version)})
    await client.get(f"/encounters/{encounter}")
    after = await routed()
    assert after["replica"] - before.get("replica", 0) == 1
    assert after["primary-unstated"] - before.get("primary-unstated", 0) == 1


async def test_reads_go_to_the_primary_while_the_replica_is_down(
    client: Client, pair: Pair
) -> None:
    """Last in this module: it stops the replica."""
    encounter, version = await fight(client)
    await asyncio.to_thread(pair.replica.stop, "immediate")
    before = served(client).copy()
    for _ in range(3):
        r = await client.get(f"/encounters/{encounter}", headers={"X-Min-Version": str(version)})
        assert r.status_code == 200 and r.json()["version"] == version
    assert served(client) - before == Counter(primary=3)
