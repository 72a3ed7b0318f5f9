"""Every head the pipeline writes is signed by the write statement that moves it, on the
single-trip path (group commit), the locking path and at creation; none without a key."""

from __future__ import annotations

from uuid import UUID

import asyncpg
import msgspec
import pytest

from events.signing import head_signature_ok, sign_head
from events.store import signed_head
from events.verify import BAD_SIGNATURE, verify_head
from projections.inline import read_model_rows
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Damage
from service.write.pipeline import CommandPipeline
from tests.support.strategies import LockingPath

KEY = b"integration-chain-key"
GM = Actor(role="gm")


async def _signed_heads(pipeline: CommandPipeline, pool: asyncpg.Pool) -> None:
    opened = await pipeline.create_encounter(
        ruleset="generic", name="Signed", options={}, client_seed=None, actor=GM
    )
    eid = UUID(msgspec.json.decode(opened.response)["encounter_id"])
    head = await signed_head(pool, eid)
    assert head.signature == sign_head(KEY, eid, head.version, head.last_hash)
    for command in (
        AddCombatant(id="a", name="A", hp=10, stats={}),
        Damage(target="a", amount=2),
    ):
        await pipeline.execute(eid, CommandEnvelope(command=command), actor=GM)
        head = await signed_head(pool, eid)
        assert head.signature is not None
        assert head_signature_ok(KEY, eid, head.version, head.last_hash, head.signature)
        assert verify_head(eid, head, KEY).ok
    await pipeline.undo(eid, actor=GM)
    head = await signed_head(pool, eid)
    assert verify_head(eid, head, KEY).ok
    assert verify_head(eid, head, b"another key").reason == BAD_SIGNATURE


@pytest.mark.parametrize("single_trip", [True, False])
async def test_the_write_statement_signs_every_head(pool: asyncpg.Pool, single_trip: bool) -> None:
    strategy = None if single_trip else LockingPath()
    pipeline = CommandPipeline(pool, read_model_rows, strategy=strategy, chain_key=KEY)
    await _signed_heads(pipeline, pool)


async def test_without_a_key_heads_are_unsigned(
    pipeline: CommandPipeline, pool: asyncpg.Pool
) -> None:
    opened = await pipeline.create_encounter(
        ruleset="generic", name="Unsigned", options={}, client_seed=None, actor=GM
    )
    eid = UUID(msgspec.json.decode(opened.response)["encounter_id"])
    head = await signed_head(pool, eid)
    assert head.signature is None
    report = verify_head(eid, head, None)
    assert report.ok and not report.signed
    assert not verify_head(eid, head, KEY).ok  # a keyed service wants every head signed
