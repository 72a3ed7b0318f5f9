"""What a process remembers between commands: recent encounters, their dice seeds and
their rulesets, each in a bounded LRU (service/lru.py).

A cached encounter may be behind: another process may have written since.  The write
path only trusts it where the store confirms its version (the single-trip statement's
guard, or the stream row locked by the locking path), and ``catch_up`` brings it up to
the locked head.  Seeds are cached only once the transaction that stored them committed
(``remember``): a seed from a write that rolled back was never committed to.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import asyncpg

from events.db import Connection
from events.seeds import epoch_seeds
from events.store import StreamHead, read_stream
from events.write import CommandWrite
from service.codec import EventCodec
from service.dice.counters import DiceCounters
from service.encounter import Encounter
from service.loading import HistoryBeforeBase, Loaded, fold, load, ruleset_of
from service.lru import LRU
from service.registry import codec_for
from telemetry import metrics

Seeds = LRU[tuple[UUID, int], bytes]
"""Dice seeds by (encounter, epoch); an epoch's secret seed is under ``-epoch``."""


class StateCache:
    def __init__(self, pool: asyncpg.Pool, *, size: int, snapshot_every: int) -> None:
        self._pool = pool
        self._snapshot_every = snapshot_every
        self.encounters: LRU[UUID, Loaded] = LRU(size)
        self.seeds: Seeds = LRU(size)
        self._rulesets: LRU[UUID, str] = LRU(size * 10)

    async def ruleset(self, encounter_id: UUID) -> str:
        name = self._rulesets.get(encounter_id)
        if name is None:
            name = await ruleset_of(self._pool, encounter_id)
            self._rulesets.put(encounter_id, name)
        return name

    async def ready(
        self, encounter_id: UUID, expected_version: int | None
    ) -> tuple[Loaded, EventCodec] | None:
        """The cached encounter and its codec when the common path may decide on it
        (counted as a hit or a miss): cached, at the version If-Match names if any, and
        with its current epoch's seeds."""
        cached = self.encounters.get(encounter_id)
        metrics.state_cache("miss" if cached is None else "hit")
        if cached is None or expected_version not in (None, cached.head.version):
            return None
        if not self.has_seeds(encounter_id, cached.encounter.dice):
            return None
        return cached, codec_for(await self.ruleset(encounter_id))

    async def catch_up(
        self, conn: Connection, codec: EventCodec, encounter_id: UUID, head: StreamHead
    ) -> Loaded:
        """The encounter at ``head`` (the stream row this transaction locked), from the
        cache brought up to it.

        The cache, possibly behind because another process wrote, only needs the events
        after its version folded in, or, when that is more than a snapshot's worth, is
        loaded afresh from the newest snapshot.
        """
        cached = self.encounters.get(encounter_id)
        if (
            cached is None
            or cached.head.version > head.version
            # Far behind (another process took a snapshot's worth of commands): the newest
            # snapshot and the few events after it are less to read and fold than the
            # whole tail, and a process's work and memory for a catch-up stay bounded.
            or head.version - cached.head.version >= self._snapshot_every
        ):
            metrics.state_cache("miss")
            loaded = await load(conn, encounter_id, ruleset=codec.ruleset.name)
        elif cached.head.version < head.version:
            metrics.state_cache("stale")
            tail = await read_stream(conn, encounter_id, after_version=cached.head.version)
            try:
                folded = fold(codec, cached.encounter, tail)
                assert folded is not None
                loaded = Loaded(folded, head)
            except HistoryBeforeBase:
                loaded = await load(conn, encounter_id, ruleset=codec.ruleset.name)
        else:
            metrics.state_cache("hit")
            loaded = cached
        self.encounters.put(encounter_id, loaded)
        return loaded

    async def ensure_seed(
        self, conn: Connection, encounter_id: UUID, encounter: Encounter[Any]
    ) -> None:
        """Have the seeds of the encounter's current epoch cached, reading them if not."""
        epoch = encounter.dice.epoch
        if not self.has_seeds(encounter_id, encounter.dice):
            seeds = await epoch_seeds(conn, encounter_id, epoch)
            if epoch not in seeds:
                return  # imported without its seeds: dice.dice_for refuses server rolls
            if -epoch in seeds:
                self.seeds.put((encounter_id, -epoch), seeds[-epoch])
            self.seeds.put((encounter_id, epoch), seeds[epoch])

    def has_seeds(self, encounter_id: UUID, dice: DiceCounters) -> bool:
        """Both seeds of the current epoch are cached (only the public one in encounters
        from before secret seeds)."""
        if self.seeds.get((encounter_id, dice.epoch)) is None:
            return False
        return (
            dice.secret_commitment is None
            or self.seeds.get((encounter_id, -dice.epoch)) is not None
        )

    def remember(self, write: CommandWrite, final: Encounter[Any]) -> None:
        """What a committed write produced: call only after its commit."""
        encounter_id = write.append.stream_id
        self.encounters.put(encounter_id, Loaded(final, write.append.new_head))
        if write.seed is not None:
            self.seeds.put((encounter_id, -write.seed.epoch), write.seed.secret_seed)
            self.seeds.put((encounter_id, write.seed.epoch), write.seed.seed)
