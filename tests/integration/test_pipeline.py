"""The command pipeline on a real database: atomicity, concurrency, caches across processes."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

import asyncpg
import msgspec
import pytest

from events.errors import VersionConflict
from events.store import read_stream
from projections.inline import read_model_rows
from service.commands import CommandEnvelope
from service.loading import load
from service.ruleset import RuleViolation
from service.rulesets.generic.commands import AddCombatant, Attack, Damage
from service.write.pipeline import CommandPipeline, Opened
from tests.support.pipeline import GM, add, new_encounter, run


async def test_rejected_command_appends_nothing(
    pipeline: CommandPipeline, pool: asyncpg.Pool
) -> None:
    encounter_id = await new_encounter(pipeline)
    await add(pipeline, encounter_id, "alice")
    before = await read_stream(pool, encounter_id)
    with pytest.raises(RuleViolation):
        await run(pipeline, encounter_id, AddCombatant(id="alice", name="Alice again", hp=5))
    assert await read_stream(pool, encounter_id) == before
    state_version = await pool.fetchval(
        "SELECT version FROM encounter_state WHERE encounter_id = $1", encounter_id
    )
    assert state_version == before[-1].stream_version


async def test_if_match_conflict_reports_current_version(pipeline: CommandPipeline) -> None:
    encounter_id = await new_encounter(pipeline)
    await add(pipeline, encounter_id, "alice")
    with pytest.raises(VersionConflict) as info:
        await run(pipeline, encounter_id, Damage(target="alice", amount=1), expected_version=2)
    assert info.value.actual == 3


async def test_two_writers_with_same_expected_version_one_wins(pool: asyncpg.Pool) -> None:
    a = CommandPipeline(pool, read_model_rows)
    b = CommandPipeline(pool, read_model_rows)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=20)
    await load(pool, encounter_id)

    async def hit(p: CommandPipeline) -> str:
        try:
            await run(p, encounter_id, Damage(target="alice", amount=1), expected_version=3)
            return "ok"
        except VersionConflict as exc:
            assert exc.actual == 4
            return "conflict"

    assert sorted(await asyncio.gather(hit(a), hit(b))) == ["conflict", "ok"]


async def test_200_concurrent_commands_from_20_clients_leave_versions_gapless(
    pool: asyncpg.Pool,
) -> None:
    # Four pipelines stand for four processes: each has its own stale-able cache.
    pipelines = [CommandPipeline(pool, read_model_rows) for _ in range(4)]
    encounter_id = await new_encounter(pipelines[0])
    await add(pipelines[0], encounter_id, "ogre", hp=1000)

    async def client(n: int) -> None:
        for i in range(10):
            await run(pipelines[(n + i) % 4], encounter_id, Damage(target="ogre", amount=1))

    await asyncio.gather(*(client(n) for n in range(20)))
    events = await read_stream(pool, encounter_id)
    assert [e.stream_version for e in events] == list(range(1, 3 + 200 + 1))
    state = (await load(pool, encounter_id)).encounter
    assert state.game.combatants["ogre"].hp == 800


async def test_stale_cache_of_another_process_is_detected_and_redecided(pool: asyncpg.Pool) -> None:
    a = CommandPipeline(pool, read_model_rows)
    b = CommandPipeline(pool, read_model_rows)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice")
    await run(b, encounter_id, Damage(target="alice", amount=2))  # b caches version 4
    await run(a, encounter_id, Damage(target="alice", amount=3))  # a's cache says 3: stale
    await run(b, encounter_id, Damage(target="alice", amount=1))  # b's cache is stale now
    state = (await load(pool, encounter_id)).encounter
    assert state.version == 6 and state.game.combatants["alice"].hp == 4


async def test_a_cache_a_snapshot_or_more_behind_reloads_from_the_snapshot(
    pool: asyncpg.Pool,
) -> None:
    """A process whose cached state is at least ``snapshot_every`` versions behind loads
    the newest snapshot (and the events after it) instead of folding the whole tail; a
    nearer one folds the tail.  Snapshots are doctored here (a name no later event sets)
    to tell the two apart."""
    a = CommandPipeline(pool, read_model_rows, snapshot_every=5)
    b = CommandPipeline(pool, read_model_rows, snapshot_every=5)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=100)

    async def doctor(version: int, name: str) -> None:
        await pool.execute(
            """UPDATE snapshots
               SET state = jsonb_set(state::jsonb, '{game,combatants,alice,name}', $3)::json
               WHERE stream_id = $1 AND version = $2""",
            encounter_id,
            version,
            msgspec.json.encode(name).decode(),
        )

    def cached_alice() -> Any:
        cached = b._cache.get(encounter_id)
        assert cached is not None
        return cached.encounter.game.combatants["alice"]

    await run(b, encounter_id, Damage(target="alice", amount=1))  # b caches version 4
    for _ in range(2):
        await run(a, encounter_id, Damage(target="alice", amount=1))  # versions 5 and 6
    await doctor(5, "Doctored at 5")
    await run(b, encounter_id, Damage(target="alice", amount=1))  # 2 behind: the tail
    assert (cached_alice().name, cached_alice().hp) == ("Alice", 96)
    for _ in range(5):
        await run(a, encounter_id, Damage(target="alice", amount=1))  # versions 8 to 12
    await doctor(10, "Doctored at 10")
    await run(b, encounter_id, Damage(target="alice", amount=1))  # 5 behind: the snapshot
    assert (cached_alice().name, cached_alice().hp) == ("Doctored at 10", 90)


async def test_snapshots_are_written_every_n_and_loading_uses_them(pool: asyncpg.Pool) -> None:
    pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=5)
    encounter_id = await new_encounter(pipeline)
    await add(pipeline, encounter_id, "alice", hp=100)
    for _ in range(9):
        await run(pipeline, encounter_id, Damage(target="alice", amount=1))
    versions = [
        r["version"]
        for r in await pool.fetch(
            "SELECT version FROM snapshots WHERE stream_id = $1 ORDER BY version", encounter_id
        )
    ]
    assert versions == [5, 10]
    loaded = await load(pool, encounter_id)
    assert loaded.encounter.version == 12 and loaded.encounter.game.combatants["alice"].hp == 91
    # A snapshot of another state schema is ignored, not decoded.
    await pool.execute(
        "UPDATE snapshots SET schema_version = -1 WHERE stream_id = $1", encounter_id
    )
    assert (await load(pool, encounter_id)).encounter == loaded.encounter


async def test_manual_dice_are_recorded_as_manual(pipeline: CommandPipeline) -> None:
    encounter_id = await new_encounter(pipeline)
    await add(pipeline, encounter_id, "alice")
    await add(pipeline, encounter_id, "goblin")
    result = await run(
        pipeline,
        encounter_id,
        Attack(attacker="alice", target="goblin", notation="1d20+3", damage="1d6"),
        manual=[[15], [4]],
    )
    rolls = [r for e in result["events"] for r in e["data"].get("rolls", [])]
    assert [r["source"] for r in rolls] == ["manual", "manual"]
    assert rolls[0]["dice"][0]["face"] == 15 and rolls[0]["total"] == 18
    assert result["events"][0]["metadata"]["roll_source"] == "manual"


async def test_concurrent_requests_with_one_idempotency_key_append_once(
    pool: asyncpg.Pool,
) -> None:
    a = CommandPipeline(pool, read_model_rows)
    b = CommandPipeline(pool, read_model_rows)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=50)

    async def send(p: CommandPipeline) -> bytes:
        return await p.execute(
            encounter_id,
            CommandEnvelope(command=Damage(target="alice", notation="1d6")),
            actor=GM,
            idempotency_key="once",
            request_hash="same-body",
        )

    responses = await asyncio.gather(*(send(p) for p in (a, b, a, b)))
    assert len(set(responses)) == 1
    assert len(await read_stream(pool, encounter_id)) == 4


async def test_concurrent_creates_with_one_idempotency_key_create_one_encounter(
    pool: asyncpg.Pool,
) -> None:
    pipelines = [CommandPipeline(pool, read_model_rows) for _ in range(3)]
    key = f"create-{uuid4()}"

    async def create(p: CommandPipeline) -> Opened:
        return await p.create_encounter(
            ruleset="generic",
            name="Once",
            options={},
            client_seed=None,
            actor=GM,
            idempotency_key=key,
            request_hash="body",
        )

    responses = await asyncio.gather(*(create(p) for p in pipelines))
    assert len({r.response for r in responses}) == 1
    assert len([r for r in responses if r.gm_token is not None]) == 1


async def test_a_creation_key_answered_under_the_namespace_is_still_answered_there(
    pool: asyncpg.Pool,
) -> None:
    """Keys of creations were once stored under the creation namespace; a retry of such a
    request still gets its first answer, and creates nothing."""
    from service.write.pipeline import CREATE_NAMESPACE

    key, stored = f"old-{uuid4()}", b'{"encounter_id":"from before"}'
    await pool.execute(
        "INSERT INTO idempotency_keys (stream_id, key, request_hash, response)"
        " VALUES ($1, $2, 'body', $3)",
        CREATE_NAMESPACE,
        key,
        stored,
    )
    opened = await CommandPipeline(pool, read_model_rows).create_encounter(
        ruleset="generic",
        name="Again",
        options={},
        client_seed=None,
        actor=GM,
        idempotency_key=key,
        request_hash="body",
    )
    assert opened == Opened(stored, None)


async def test_a_rolled_back_reveal_leaves_no_seed_behind(pool: asyncpg.Pool) -> None:
    """Two processes reveal with one Idempotency-Key: the loser's transaction rolls back,
    and the seed it drew for the next epoch must not linger in its cache, or its later
    server rolls would come from a seed nobody committed to."""
    from service.fairness import verify_dice
    from service.loading import ruleset_of
    from service.registry import codec_for

    a, b, c = (CommandPipeline(pool, read_model_rows) for _ in range(3))
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=500)
    await add(a, encounter_id, "bob", hp=500)
    await asyncio.gather(
        *(
            p.reveal_seed(encounter_id, actor=GM, idempotency_key="reveal", request_hash="x")
            for p in (a, b)
        )
    )
    await c.reveal_seed(encounter_id, actor=GM)  # epoch 3 opens with c's seed
    for p in (a, b, a, b):
        await run(
            p, encounter_id, Attack(attacker="alice", target="bob", notation="1d20", damage="1d4")
        )
    await c.reveal_seed(encounter_id, actor=GM)
    codec = codec_for(await ruleset_of(pool, encounter_id))
    report = verify_dice(codec.from_recorded(e) for e in await read_stream(pool, encounter_id))
    assert report.ok, report
    assert sum(e.verified for e in report.epochs) >= 4


async def test_a_refusal_on_stale_cached_state_is_decided_again_under_the_lock(
    pool: asyncpg.Pool,
) -> None:
    """The single-statement path decides on cached state; when that state is behind, a
    rule violation may only be the staleness speaking, so it must not reach the client."""
    a = CommandPipeline(pool, read_model_rows)
    b = CommandPipeline(pool, read_model_rows)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=50)
    await add(b, encounter_id, "zed", hp=50)  # a's cache knows no zed
    result = await run(
        a, encounter_id, Attack(attacker="zed", target="alice", notation="1d20", damage="1d4")
    )
    assert result["events"][0]["type"] == "generic.attack_rolled"
    with pytest.raises(RuleViolation):  # a real refusal still is one
        await run(a, encounter_id, Damage(target="nobody", amount=1))


async def test_the_stored_answer_is_the_answer_byte_for_byte_and_matches_the_store(
    pool: asyncpg.Pool,
) -> None:
    """On the single-statement path PostgreSQL assembles the stored answer around the
    global positions it assigns; a replay, from this process or a cold one, must be the
    very bytes first sent, and its events must encode as a later read of them does."""
    a = CommandPipeline(pool, read_model_rows)
    encounter_id = await new_encounter(a)
    await add(a, encounter_id, "alice", hp=50)
    envelope = CommandEnvelope(command=Damage(target="alice", notation="2d6", source="fire"))
    first = await a.execute(encounter_id, envelope, actor=GM, idempotency_key="k", request_hash="h")
    again = await a.execute(encounter_id, envelope, actor=GM, idempotency_key="k", request_hash="h")
    cold = await CommandPipeline(pool, read_model_rows).execute(
        encounter_id, envelope, actor=GM, idempotency_key="k", request_hash="h"
    )
    stored = await pool.fetchval(
        "SELECT response FROM idempotency_keys WHERE stream_id = $1 AND key = 'k'", encounter_id
    )
    assert first == again == cold == bytes(stored)
    version = msgspec.json.decode(first)["version"]
    read_back = await read_stream(pool, encounter_id, after_version=version - 1)
    assert msgspec.json.encode(read_back) in first
