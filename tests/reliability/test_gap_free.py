"""Gap-free tailing through the real command path: 8 writers whose command transactions
overlap and are deliberately slow (some roll back), and a follower of the global position
that must see every committed event exactly once and never one that rolled back."""

from __future__ import annotations

import asyncio
import random
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection
from events.store import Checkpoint, read_all
from events.write import CommandWrite
from projections.inline import read_model_rows
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Attack, Damage, RollInitiative
from service.write.pipeline import CommandPipeline
from service.write.strategy import Outcome
from tests.support.strategies import LockingPath

GM = Actor(role="gm")


class Abort(Exception):
    """Raised inside a command's transaction to make it roll back after its append."""


class SlowLocked(LockingPath):
    """The real locking path, then a random pause while the transaction (and its row
    locks and global positions) stays open; every fourth-ish command then fails."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self._rng = random.Random(seed)

    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        written = await super().write_locked(conn, write)
        await asyncio.sleep(self._rng.uniform(0, 0.03))
        if self._rng.random() < 0.25:
            raise Abort
        return written


class SlowPipeline(CommandPipeline):
    def __init__(self, pool: asyncpg.Pool, seed: int) -> None:
        super().__init__(pool, read_model_rows, snapshot_every=5, strategy=SlowLocked(seed))


async def test_follower_sees_each_committed_command_event_once(pool: asyncpg.Pool) -> None:
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    committed: set[tuple[UUID, int, str]] = set()
    rolled_back = 0
    done = asyncio.Event()

    async def writer(w: int) -> None:
        nonlocal rolled_back
        # Even writers hold their transactions open and sometimes roll back; odd ones
        # take the single-statement path, committing in between.
        setup = CommandPipeline(pool, read_model_rows)
        pipeline = SlowPipeline(pool, w) if w % 2 == 0 else setup
        opened = await setup.create_encounter(
            ruleset="generic", name=f"w{w}", options={}, client_seed=None, actor=GM
        )
        created = msgspec.json.decode(opened.response)
        eid = UUID(created["encounter_id"])
        committed.update((eid, e["stream_version"], e["hash"]) for e in created["events"])
        for ident in ("a", "b"):
            cmd = AddCombatant(id=ident, name=ident, hp=10_000, stats={"ac": 10})
            result = await setup.execute(eid, CommandEnvelope(command=cmd), actor=GM)
            committed.update(
                (eid, e["stream_version"], e["hash"]) for e in msgspec.json.decode(result)["events"]
            )
        commands: list[Any] = [RollInitiative()]
        commands += [
            Attack(attacker="a", target="b", notation="1d20", damage="1d6")
            if i % 2
            else Damage(target="a", notation="1d4")
            for i in range(14)
        ]
        for cmd in commands:
            try:
                result = await pipeline.execute(eid, CommandEnvelope(command=cmd), actor=GM)
            except Abort:
                rolled_back += 1
                continue
            events = msgspec.json.decode(result)["events"]
            committed.update((eid, e["stream_version"], e["hash"]) for e in events)

    seen: list[tuple[UUID, int, str]] = []

    async def follower() -> None:
        checkpoint = start
        while True:
            finished = done.is_set()
            events, checkpoint = await read_all(pool, checkpoint, limit=5)
            seen.extend((e.stream_id, e.stream_version, e.hash) for e in events)
            # (By transaction, the last commits show once every older transaction on the
            # server, another test's too, has ended.)
            if finished and not events and committed <= set(seen):
                return
            await asyncio.sleep(0.002)

    follow = asyncio.create_task(follower())
    await asyncio.gather(*(writer(w) for w in range(8)))
    done.set()
    await asyncio.wait_for(follow, timeout=30)
    assert rolled_back > 5, "the test must exercise rolled-back transactions"
    assert len(seen) == len(set(seen)), "an event was delivered twice"
    ours = {s for s in seen if s[0] in {c[0] for c in committed}}
    assert ours == committed
    # A rolled-back command's events took global positions and stream versions that the
    # next command then reused; their hashes differ, so having seen one would show here.
