"""A unit of work whose store is a few dicts: commands run through the same handlers
(service/write/handlers.py's HANDLERS), the same preparation (service/write/prepare.py)
and the same fold as the real one, so handler tests need no PostgreSQL.

What it stands for is the locking path: each command is decided on the stream's state at
its head, If-Match is checked against that head, an Idempotency-Key answered before gets
its stored answer, and a refused command writes nothing.  Handlers that read the store
beyond the stream itself (an undo's outline, a revealed epoch's secret seed) need the
real unit of work: here they fail their ``conn`` assertion.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from uuid import UUID

import msgspec

from events.envelope import GENESIS_HASH, RecordedEvent
from events.errors import IdempotencyKeyReused, StreamNotFound, VersionConflict
from events.heads import StreamHead
from events.write import CommandWrite
from projections.inline import read_model_rows
from service.core_events import EncounterCreated, EncounterForked
from service.loading import Loaded, fold
from service.lru import LRU
from service.registry import codec_for
from service.write.commands import Command
from service.write.handlers import HANDLERS, Context
from service.write.opening import opening
from service.write.prepare import Draft, Projector, WritePolicy, command_metadata, keyed, prepare
from service.write.state_cache import Seeds
from service.write.unit_of_work import Opened, Terms, _result_for, new_stream_id


class InMemoryUnitOfWork:
    def __init__(
        self,
        projector: Projector = read_model_rows,
        *,
        snapshot_every: int = 100,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.policy = WritePolicy(projector, snapshot_every, None, clock)
        self.streams: dict[UUID, list[RecordedEvent]] = {}
        self.answers: dict[tuple[UUID, str], tuple[str, bytes]] = {}
        self.seeds: Seeds = LRU(1000)
        self.committed: list[CommandWrite] = []
        """Every write that went through, in order."""
        self._position = 0

    def state(self, encounter_id: UUID) -> Loaded:
        """The encounter at its head, folded from its events."""
        events = self.streams.get(encounter_id)
        if not events:
            raise StreamNotFound(encounter_id)
        codec = codec_for(events[0].data["ruleset"])
        folded = fold(codec, None, events)
        assert folded is not None
        head = StreamHead(version=events[-1].stream_version, last_hash=events[-1].hash)
        return Loaded(folded, head)

    async def open(
        self,
        first: EncounterCreated | EncounterForked,
        client_seed: str | None,
        namespace: UUID,
        terms: Terms,
    ) -> Opened:
        encounter_id = new_stream_id(namespace, terms.idempotency_key)
        if (stored := self._answered(encounter_id, terms)) is not None:
            return Opened(stored, None)
        decision, respond = opening(first, client_seed, encounter_id)
        head = StreamHead(version=0, last_hash=GENESIS_HASH)
        idempotency = keyed(encounter_id, terms.idempotency_key, terms.request_hash)
        codec = codec_for(first.ruleset)
        draft = Draft(
            codec, encounter_id, None, head, decision, terms.actor, None, respond, idempotency
        )
        write, _ = await prepare(draft, self.policy)
        self.streams[encounter_id] = []
        return Opened(self._commit(write), None)

    async def handle(self, encounter_id: UUID, command: Command, terms: Terms) -> bytes:
        if (stored := self._answered(encounter_id, terms)) is not None:
            return stored
        loaded = self.state(encounter_id)
        expected = terms.expected_version
        if expected is not None and expected != loaded.head.version:
            raise VersionConflict(encounter_id, expected, loaded.head.version)
        codec = codec_for(loaded.encounter.ruleset)
        context = Context(encounter_id, loaded.encounter, codec, self.seeds, None)
        decision = await HANDLERS[type(command)].handle(command, context)
        if not decision.events:
            return msgspec.json.encode(_result_for(encounter_id)(loaded.encounter))
        draft = Draft(
            codec,
            encounter_id,
            loaded.encounter,
            loaded.head,
            decision,
            terms.actor,
            command_metadata(command.command_type, terms.idempotency_key),
            _result_for(encounter_id),
            keyed(encounter_id, terms.idempotency_key, terms.request_hash),
        )
        write, _ = await prepare(draft, self.policy)
        return self._commit(write)

    def _answered(self, encounter_id: UUID, terms: Terms) -> bytes | None:
        if not terms.idempotency_key:
            return None
        stored = self.answers.get((encounter_id, terms.idempotency_key))
        if stored is None:
            return None
        if stored[0] != terms.request_hash:
            raise IdempotencyKeyReused(terms.idempotency_key)
        return stored[1]

    def _commit(self, write: CommandWrite) -> bytes:
        """Append the write's events at the versions it was prepared for, as the real
        statement does only if the stream is still at its head."""
        stream_id = write.append.stream_id
        stream = self.streams[stream_id]
        head = stream[-1].stream_version if stream else 0
        if head != write.append.head.version:
            raise VersionConflict(stream_id, write.append.head.version, head)
        positions = [self._position + n for n in range(1, len(write.append.versions) + 1)]
        self._position = positions[-1]
        stream.extend(write.append.recorded(positions))
        response = write.answer.with_positions(positions)
        if write.seed is not None:
            self.seeds.put((stream_id, write.seed.epoch), write.seed.seed)
            self.seeds.put((stream_id, -write.seed.epoch), write.seed.secret_seed)
        if write.idempotency is not None:
            idem = write.idempotency
            self.answers[(idem.namespace, idem.key)] = (idem.request_hash, response)
        self.committed.append(write)
        return response
