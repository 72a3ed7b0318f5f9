"""The command pipeline: load, decide, append with the expected version, project, publish.

Everything a command writes (events, inline read models, snapshot, idempotency record,
new dice seed) commits in one transaction, so a command is applied wholly or not at all,
and a rejected command writes nothing.

Each command locks its encounter's stream row for its transaction, so writers of one
encounter queue (on any process) while other encounters proceed in parallel.  State comes
from a bounded in-process cache of recently used encounters, caught up with the events
another process appended since, or else from the latest snapshot plus the tail.  If-Match
is compared with the version under that lock: a stale one is a 409, never a retry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol, Unpack
from uuid import UUID, uuid4

import asyncpg
import msgspec

from events.db import Connection
from events.envelope import RecordedEvent
from events.errors import StreamNotFound, VersionConflict
from events.idempotency import find_response
from events.store import (
    StreamHead,
    create_stream,
    head_signature,
    prepare_append,
    read_stream,
    stream_head,
)
from service import tokens
from service.authorize import Forbidden, authorize_player
from service.codec import EventCodec
from service.commands import Actor, CommandEnvelope, CommandResult, CreatedEncounter, Write
from service.commit import (
    CommandWrite,
    Idempotency,
    NewSeed,
    ReadModelRows,
    Refused,
    Snapshot,
    Written,
    answer_of,
    commit,
    placeholders,
)
from service.core_events import (
    EncounterCreated,
    EncounterForked,
    NoteAdded,
    Redone,
    RequestAnswered,
    RollsRevealed,
    SeedCommitted,
    SeedRevealed,
    Undone,
)
from service.dice import DiceError, ManualFaces, RollingDice, ServerFaces
from service.dice.fair import commitment, new_seed
from service.encounter import (
    AppliedEvent,
    DiceCounters,
    Encounter,
    applied_steps,
    schema_version,
)
from service.group_commit import GroupCommit
from service.history import earliest_touched, plan_redo, plan_undo
from service.loading import (
    HistoryBeforeBase,
    Loaded,
    fold,
    load,
    load_at,
    load_with_pending,
    read_outline,
    ruleset_of,
)
from service.lru import LRU
from service.registry import codec_for, get_ruleset
from service.requests import approved_envelope, refusal, request_made
from service.ruleset import RuleViolation, tag_of
from service.secrecy import NpcHealth
from service.tokens import TokenRevoked

CREATE_NAMESPACE = UUID(int=0)
"""Idempotency keys of encounter creation live under this stream id."""

_encode = msgspec.json.Encoder().encode


class Projector(Protocol):
    """The inline read models' rows for events just folded (projections/inline.py); they
    are written by the same statement as the events."""

    def __call__(self, codec: EventCodec, applied: Sequence[AppliedEvent]) -> ReadModelRows: ...


Publish = Callable[[UUID, Sequence[RecordedEvent]], Awaitable[None]]


class Opened(NamedTuple):
    response: bytes
    """The JSON answer, as stored for idempotent replay."""
    gm_token: str | None
    """The new encounter's GM token: only on the request that created it."""


class Decision(msgspec.Struct, frozen=True):
    events: tuple[Any, ...]
    roll_source: str | None = None
    new_seed: NewSeed | None = None
    """The secret seed to store with the events when a new dice epoch opens."""


class CommandPipeline:
    def __init__(
        self,
        pool: asyncpg.Pool,
        projector: Projector,
        *,
        snapshot_every: int = 100,
        cache_size: int = 2000,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        publish: Publish | None = None,
        single_trip: bool = True,
        chain_key: bytes | None = None,
    ) -> None:
        """``single_trip=False`` sends every command down the locking path (a transaction
        around lock, load, decide and write): tests use it to hold transactions open."""
        self._pool = pool
        self._group = GroupCommit(pool)
        self._single_trip = single_trip
        self._chain_key = chain_key
        self._projector = projector
        self._snapshot_every = snapshot_every
        self._clock = clock
        self._publish = publish
        self._cache: LRU[UUID, Loaded] = LRU(cache_size)
        self._seeds: LRU[tuple[UUID, int], bytes] = LRU(cache_size)
        self._rulesets: LRU[UUID, str] = LRU(cache_size * 10)

    # -- public commands -------------------------------------------------------------

    async def create_encounter(
        self,
        *,
        ruleset: str,
        name: str,
        options: dict[str, Any],
        client_seed: str | None,
        actor: Actor,
        allow_player_dice: bool = False,
        npc_health: NpcHealth = "descriptor",
        idempotency_key: str | None = None,
        request_hash: str = "",
    ) -> Opened:
        """Open a stream with encounter.created and the first dice commitment."""
        rules = get_ruleset(ruleset)
        try:
            typed_options = msgspec.convert(options, rules.options_type)
        except msgspec.ValidationError as exc:
            raise RuleViolation(f"invalid options for ruleset {ruleset!r}: {exc}") from None
        first = EncounterCreated(
            name=name,
            ruleset=ruleset,
            options=msgspec.to_builtins(typed_options),
            allow_player_dice=allow_player_dice,
            npc_health=npc_health,
        )
        return await self._open(
            first, client_seed, actor, CREATE_NAMESPACE, idempotency_key, request_hash
        )

    async def fork(
        self,
        origin_id: UUID,
        *,
        at_version: int | None,
        name: str | None,
        client_seed: str | None,
        actor: Actor,
        public_game: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        request_hash: str = "",
    ) -> Opened:
        """Open a new stream whose state starts as the origin's at ``at_version``.

        ``public_game`` is the origin's state as players know it, when secret rolls
        not yet revealed shaped it: the fork keeps them secret (EncounterForked).
        The origin is only read.  The fork gets its own dice commitment: its rolls can be
        verified without trusting anything about the origin's seed.
        """
        head = await stream_head(self._pool, origin_id)
        version = head.version if at_version is None else at_version
        origin = await load_at(self._pool, origin_id, version)
        codec = codec_for(origin.ruleset)
        first = EncounterForked(
            name=name or f"{origin.name} (fork at version {version})",
            ruleset=origin.ruleset,
            options=origin.options,
            allow_player_dice=origin.allow_player_dice,
            origin_id=origin_id,
            origin_version=version,
            game=msgspec.to_builtins(origin.game),
            rolls_made=origin.dice.rolls_made,
            npc_health=origin.npc_health,
            secret_rolls=origin.secret_rolls if public_game is not None else (),
            public_game=public_game,
        )
        assert codec.ruleset.name == first.ruleset
        return await self._open(first, client_seed, actor, origin_id, idempotency_key, request_hash)

    async def _open(
        self,
        first: EncounterCreated | EncounterForked,
        client_seed: str | None,
        actor: Actor,
        namespace: UUID,
        idempotency_key: str | None,
        request_hash: str,
    ) -> Opened:
        """Append the first events of a new stream and mint its GM token, atomically.

        The token is not part of the stored response: a replay of the same request gets
        the encounter without it, so no secret is ever kept outside its hash.
        """
        if idempotency_key:
            stored = await find_response(self._pool, namespace, idempotency_key, request_hash)
            if stored is not None:
                return Opened(stored, None)
        encounter_id = uuid4()
        seed = _new_epoch(1, client_seed or str(encounter_id))
        decision = Decision(events=(first, _committed_to(seed)), new_seed=seed)
        codec = codec_for(first.ruleset)

        def respond(final: Encounter[Any]) -> CreatedEncounter:
            return CreatedEncounter(
                encounter_id=encounter_id,
                ruleset=first.ruleset,
                name=first.name,
                version=final.version,
                dice_commitment=final.dice.commitment,
                client_seed=seed.client_seed,
                forked_from=final.forked_from,
                events=[],
            )

        key = _keyed(namespace, idempotency_key, request_hash)
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                head = await create_stream(conn, encounter_id)
                write, final = await self._prepare(
                    conn, codec, encounter_id, None, head, decision, actor, None, respond, key
                )
                # A creator's token (a fork's GM) is the origin's, not this new stream's.
                written = await self._commit_locked(conn, write._replace(token_id=None))
                gm = await tokens.mint(conn, encounter_id, role="gm", label="created with it")
        except (asyncpg.UniqueViolationError, _AnsweredBefore) as clash:
            stored = await self._first_response(clash, namespace, idempotency_key, request_hash)
            return Opened(stored, None)
        return Opened(await self._committed(write, final, written), gm.token)

    async def execute(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        player: frozenset[str] | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Decide a ruleset command and append its events; returns the JSON response.

        ``player`` is what a player token is bound to; None means the GM is asking.
        """

        def decide_pure(loaded: Loaded, codec: EventCodec) -> Decision:
            if not codec.owns_command(envelope.command):
                raise RuleViolation(
                    f"{tag_of(type(envelope.command))} is not a command of the "
                    f"{codec.ruleset.name!r} ruleset this encounter runs"
                )
            if player is not None:
                authorize_player(codec.ruleset, loaded.encounter, envelope, player)
            dice = self._dice_for(encounter_id, loaded.encounter, envelope)
            events = tuple(codec.ruleset.decide(loaded.encounter.game, envelope.command, dice))
            dice.ensure_all_used()
            source = None
            if dice.records:
                source = "manual" if envelope.manual_dice is not None else "server"
            return Decision(events=events, roll_source=source)

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            return decide_pure(loaded, codec)

        command_type = tag_of(type(envelope.command))
        if self._single_trip:
            answer = await self._run_single_trip(
                encounter_id, decide_pure, command_type=command_type, **write
            )
            if answer is not None:
                return answer
        return await self._run(encounter_id, decide, command_type=command_type, **write)

    async def reveal_seed(
        self,
        encounter_id: UUID,
        next_client_seed: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Publish the current epoch's seed and commit to a fresh one (a new epoch)."""

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            dice = loaded.encounter.dice
            seed = self._seeds.get((encounter_id, dice.epoch))
            secret = self._seeds.get((encounter_id, -dice.epoch))
            assert seed is not None  # _run preloads it
            fresh = _new_epoch(dice.epoch + 1, next_client_seed or dice.client_seed)
            # The secret seed only when no roll drawn from it is still hidden: else it is
            # published with the reveal of the last of them.
            shown = secret.hex() if secret is not None and not dice.secret_server_rolls else None
            revealed = SeedRevealed(epoch=dice.epoch, seed=seed.hex(), secret_seed=shown)
            return Decision(events=(revealed, _committed_to(fresh)), new_seed=fresh)

        return await self._run(encounter_id, decide, command_type="dice.reveal_seed", **write)

    async def reveal_rolls(
        self,
        encounter_id: UUID,
        roll_ids: Sequence[str],
        **write: Unpack[Write],
    ) -> bytes:
        """Show the table secret GM rolls: every read model stops redacting them."""

        async def decide(conn: Connection, loaded: Loaded, _codec: EventCodec) -> Decision:
            secret = loaded.encounter.secret_rolls
            if missing := [r for r in roll_ids if r not in secret]:
                raise RuleViolation(
                    f"roll {missing[0]!r} is not a secret roll still hidden in this encounter"
                    " (no such roll, not a secret one, or already revealed)"
                )
            shown = frozenset(roll_ids)
            done = [
                epoch
                for epoch, rolls in loaded.encounter.dice.ended_secrets.items()
                if shown.issuperset(rolls)
            ]
            seeds = (
                await conn.fetch(
                    "SELECT -epoch AS epoch, seed FROM dice_seeds"
                    " WHERE stream_id = $1 AND epoch = ANY($2::int[])",
                    encounter_id,
                    [-epoch for epoch in done],
                )
                if done
                else []
            )
            event = RollsRevealed(
                roll_ids=tuple(dict.fromkeys(roll_ids)),
                secret_seeds={str(row["epoch"]): bytes(row["seed"]).hex() for row in seeds},
            )
            return Decision(events=(event,))

        return await self._run(encounter_id, decide, command_type="dice.reveal_rolls", **write)

    async def request(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        note: str | None,
        player: frozenset[str] | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """A player asks the GM to allow a command (service/requests.py)."""

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            made = request_made(codec, loaded.encounter, envelope, note, player)
            return Decision(events=(made,))

        return await self._run(encounter_id, decide, command_type="encounter.request", **write)

    async def answer_request(
        self,
        encounter_id: UUID,
        request_id: str,
        *,
        refuse_because: str | None = None,
        manual_dice: list[list[int]] | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """The GM approves a request (its command decided now, as the GM's) or refuses
        it with a reason."""

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            encounter = loaded.encounter
            if refuse_because is not None:
                return Decision(events=(refusal(encounter, request_id, refuse_because),))
            envelope = approved_envelope(codec, encounter, request_id, manual_dice)
            dice = self._dice_for(encounter_id, encounter, envelope)
            events = tuple(codec.ruleset.decide(encounter.game, envelope.command, dice))
            dice.ensure_all_used()
            answered = RequestAnswered(request_id=request_id, approved=True)
            source = None
            if dice.records:
                source = "manual" if envelope.manual_dice is not None else "server"
            return Decision(events=(*events, answered), roll_source=source)

        command_type = "encounter.answer_request"
        return await self._run(encounter_id, decide, command_type=command_type, **write)

    async def add_note(
        self,
        encounter_id: UUID,
        note: NoteAdded,
        **write: Unpack[Write],
    ) -> bytes:
        """Put a GM note in the record (a core event: an undo never takes it back)."""

        async def decide(_conn: Connection, _loaded: Loaded, _codec: EventCodec) -> Decision:
            return Decision(events=(note,))

        return await self._run(encounter_id, decide, command_type="encounter.add_note", **write)

    async def undo(
        self,
        encounter_id: UUID,
        *,
        steps: int | None = None,
        to_version: int | None = None,
        reason: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Take back the last command, the last ``steps`` or all after ``to_version``
        (service/history.py says exactly what each means)."""

        async def decide(conn: Connection, _loaded: Loaded, _codec: EventCodec) -> Decision:
            outline = await read_outline(conn, encounter_id)
            planned = plan_undo(outline, steps=steps, to_version=to_version, reason=reason)
            return Decision(events=(planned,))

        return await self._run(encounter_id, decide, command_type="history.undo", **write)

    async def redo(
        self,
        encounter_id: UUID,
        *,
        reason: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Re-apply what the newest undo took back, unless a command came in since."""

        async def decide(conn: Connection, _loaded: Loaded, _codec: EventCodec) -> Decision:
            outline = await read_outline(conn, encounter_id)
            return Decision(events=(plan_redo(outline, reason=reason),))

        return await self._run(encounter_id, decide, command_type="history.redo", **write)

    # -- the shared path ---------------------------------------------------------------

    async def _run_single_trip(
        self,
        encounter_id: UUID,
        decide: Callable[[Loaded, EventCodec], Decision],
        *,
        command_type: str,
        actor: Actor,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_hash: str = "",
    ) -> bytes | None:
        """The common path: decide on the cached state and write in one statement, with
        no lock around it, in the transaction of its group (service/group_commit.py:
        commands of this process that are ready together share a round trip and a
        commit, each with its own guards).  None when it cannot answer for sure (no
        cached state or seed, an If-Match the cache cannot confirm, a refusal that stale
        state might explain, or the stream moved on): the locking path then does.

        The statement writes only if the stream is still at the cached version, so a
        decision on state another process has since changed never lands.
        """
        cached = self._cache.get(encounter_id)
        if cached is None or expected_version not in (None, cached.head.version):
            return None
        if not self._has_seeds(encounter_id, cached.encounter.dice):
            return None
        codec = codec_for(await self._ruleset(encounter_id))
        try:
            decision = decide(cached, codec)
        except (RuleViolation, Forbidden, DiceError):
            return None  # perhaps only stale: refused for good under the lock, if at all
        if not decision.events:
            return None
        write, final = await self._prepare(
            None,
            codec,
            encounter_id,
            cached.encounter,
            cached.head,
            decision,
            actor,
            _command_metadata(command_type, idempotency_key),
            _result_for(encounter_id),
            _keyed(encounter_id, idempotency_key, request_hash),
        )
        try:
            outcome = await self._group.commit(write)
        except asyncpg.UniqueViolationError:
            return None  # answered first elsewhere: the locking path replays it, if allowed
        if isinstance(outcome, Refused):
            return None
        return await self._committed(write, final, outcome)

    async def _run(
        self,
        encounter_id: UUID,
        decide: Callable[[Connection, Loaded, EventCodec], Awaitable[Decision]],
        *,
        command_type: str,
        actor: Actor,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        request_hash: str = "",
    ) -> bytes:
        """The locking path: lock the stream row, bring the state up to it, decide, write.

        A refusal or a replay is only given to a token that is still valid: the token
        may be one this process checked before it was revoked (api/auth.py), and a
        revoked token learns nothing, not even why its command would fail."""
        try:
            return await self._run_locked(
                encounter_id,
                decide,
                command_type=command_type,
                actor=actor,
                expected_version=expected_version,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
            )
        except TokenRevoked:
            raise
        except Exception:
            await self._refuse_revoked(encounter_id, actor)
            raise

    async def _refuse_revoked(self, encounter_id: UUID, actor: Actor) -> None:
        if actor.token_id is not None and not await tokens.is_live(
            self._pool, encounter_id, actor.token_id
        ):
            raise TokenRevoked()

    async def _run_locked(
        self,
        encounter_id: UUID,
        decide: Callable[[Connection, Loaded, EventCodec], Awaitable[Decision]],
        *,
        command_type: str,
        actor: Actor,
        expected_version: int | None,
        idempotency_key: str | None,
        request_hash: str,
    ) -> bytes:
        if idempotency_key:
            stored = await find_response(self._pool, encounter_id, idempotency_key, request_hash)
            if stored is not None:
                await self._refuse_revoked(encounter_id, actor)
                return stored
        codec = codec_for(await self._ruleset(encounter_id))
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                loaded = await self._lock_and_load(conn, codec, encounter_id)
                if expected_version is not None and loaded.head.version != expected_version:
                    raise VersionConflict(encounter_id, expected_version, loaded.head.version)
                await self._ensure_seed(conn, encounter_id, loaded.encounter)
                decision = await decide(conn, loaded, codec)
                if not decision.events:
                    return _encode(
                        CommandResult(
                            encounter_id=encounter_id, version=loaded.head.version, events=[]
                        )
                    )
                write, final = await self._prepare(
                    conn,
                    codec,
                    encounter_id,
                    loaded.encounter,
                    loaded.head,
                    decision,
                    actor,
                    _command_metadata(command_type, idempotency_key),
                    _result_for(encounter_id),
                    _keyed(encounter_id, idempotency_key, request_hash),
                )
                written = await self._commit_locked(conn, write)
        except (asyncpg.UniqueViolationError, _AnsweredBefore) as clash:
            stored = await self._first_response(clash, encounter_id, idempotency_key, request_hash)
            await self._refuse_revoked(encounter_id, actor)
            return stored
        return await self._committed(write, final, written)

    async def _commit_locked(self, conn: Connection, write: CommandWrite) -> Written:
        """The write statement under the stream row's lock, where only a revoked token
        or an Idempotency-Key answered meanwhile can refuse it."""
        outcome = await commit(conn, write)
        if isinstance(outcome, Written):
            return outcome
        if outcome.token_revoked:
            raise TokenRevoked()
        if outcome.key_used:
            raise _AnsweredBefore()
        raise RuntimeError(f"stream {write.append.stream_id} moved while its row was locked")

    async def _committed(
        self, write: CommandWrite, final: Encounter[Any], written: Written
    ) -> bytes:
        """Remember what a committed command produced, tell live subscribers, and give
        its answer.  Only after the commit: a seed cached from a transaction that rolled
        back would make this process roll dice from a seed nobody committed to."""
        encounter_id = write.append.stream_id
        self._cache.put(encounter_id, Loaded(final, write.append.new_head))
        if write.seed is not None:
            self._seeds.put((encounter_id, -write.seed.epoch), write.seed.secret_seed)
            self._seeds.put((encounter_id, write.seed.epoch), write.seed.seed)
        await self._notify(encounter_id, written.recorded)
        return written.response

    async def _first_response(
        self,
        clash: Exception,
        stream_id: UUID,
        idempotency_key: str | None,
        request_hash: str,
    ) -> bytes:
        """After a unique violation or a refused write: when the same Idempotency-Key
        committed first on another connection, its stored response is the answer; any
        other clash is a bug."""
        stored = None
        if idempotency_key is not None:
            stored = await find_response(self._pool, stream_id, idempotency_key, request_hash)
        if stored is None:
            raise clash
        return stored

    async def _lock_and_load(
        self, conn: Connection, codec: EventCodec, encounter_id: UUID
    ) -> Loaded:
        """Lock the stream row for this transaction and bring the cached state up to it.

        The lock makes writers of one encounter queue rather than race (writers of other
        encounters are not affected); the cache, possibly behind because another process
        wrote, only needs the events after its version folded in, or, when that is more
        than a snapshot's worth, is loaded afresh from the newest snapshot.
        """
        row = await conn.fetchrow(
            "SELECT version, last_hash FROM streams WHERE stream_id = $1 FOR UPDATE", encounter_id
        )
        if row is None:
            raise StreamNotFound(encounter_id)
        head = StreamHead(version=row["version"], last_hash=row["last_hash"])
        cached = self._cache.get(encounter_id)
        if (
            cached is None
            or cached.head.version > head.version
            # Far behind (another process took a snapshot's worth of commands): the newest
            # snapshot and the few events after it are less to read and fold than the
            # whole tail, and a process's work and memory for a catch-up stay bounded.
            or head.version - cached.head.version >= self._snapshot_every
        ):
            loaded = await load(conn, encounter_id, ruleset=codec.ruleset.name)
        elif cached.head.version < head.version:
            tail = await read_stream(conn, encounter_id, after_version=cached.head.version)
            try:
                folded = fold(codec, cached.encounter, tail)
                assert folded is not None
                loaded = Loaded(folded, head)
            except HistoryBeforeBase:
                loaded = await load(conn, encounter_id, ruleset=codec.ruleset.name)
        else:
            loaded = cached
        self._cache.put(encounter_id, loaded)
        return loaded

    async def _prepare(
        self,
        conn: Connection | None,
        codec: EventCodec,
        encounter_id: UUID,
        encounter: Encounter[Any] | None,
        head: StreamHead,
        decision: Decision,
        actor: Actor,
        extra_metadata: dict[str, Any] | None,
        respond: Callable[[Encounter[Any]], msgspec.Struct],
        idempotency: Idempotency | None,
    ) -> tuple[CommandWrite, Encounter[Any]]:
        """Everything the write statement stores, worked out before it runs; and the
        state after it.  ``conn`` is needed (and held under the lock) only for an undo or
        redo, whose state is refolded from the store."""
        command_id = str(uuid4())
        metadata: dict[str, Any] = {
            "actor": msgspec.to_builtins(actor),
            "command_id": command_id,
            "causation_id": command_id,
            "correlation_id": actor.correlation_id or command_id,
            "roll_source": decision.roll_source,
        }
        if extra_metadata:
            metadata.update({k: v for k, v in extra_metadata.items() if v is not None})
        prepared = prepare_append(
            encounter_id,
            head,
            [codec.to_new_event(e) for e in decision.events],
            metadata=metadata,
            recorded_at=self._clock(),
        )
        recorded = placeholders(prepared)
        if isinstance(decision.events[0], Undone | Redone):
            assert conn is not None
            applied = await self._rewrite_history(conn, codec, encounter, recorded, decision)
        else:
            applied = applied_steps(codec.ruleset, encounter, recorded, decision.events)
        snapshots = [
            Snapshot(
                step.after.version,
                schema_version(codec.ruleset),
                codec.encode_state(step.after).decode(),
            )
            for step in applied
            if step.after.version % self._snapshot_every == 0
        ]
        final = applied[-1].after
        write = CommandWrite(
            append=prepared,
            rows=self._projector(codec, applied),
            answer=answer_of(respond(final), recorded),
            snapshots=snapshots,
            seed=decision.new_seed,
            idempotency=idempotency,
            token_id=actor.token_id,
            head_signature=head_signature(self._chain_key, prepared),
        )
        return write, final

    async def _rewrite_history(
        self,
        conn: Connection,
        codec: EventCodec,
        before: Encounter[Any] | None,
        recorded: Sequence[RecordedEvent],
        decision: Decision,
    ) -> list[AppliedEvent]:
        """Prepare an undo or redo: drop the snapshots it makes wrong, then refold.

        Snapshots at or after the first version it touches describe a history that no
        longer holds; deleting them in this transaction is what lets every later load
        trust any snapshot it finds (service/loading.py).
        """
        (event,) = decision.events
        await conn.execute(
            "DELETE FROM snapshots WHERE stream_id = $1 AND version >= $2",
            recorded[0].stream_id,
            earliest_touched(event),
        )
        after = await load_with_pending(conn, codec, recorded[0].stream_id, recorded)
        return [AppliedEvent(recorded[0], event, before, after)]

    def _dice_for(
        self, encounter_id: UUID, encounter: Encounter[Any], envelope: CommandEnvelope
    ) -> RollingDice:
        dice = encounter.dice
        if envelope.manual_dice is not None:
            faces: ManualFaces | ServerFaces = ManualFaces(envelope.manual_dice)
        else:
            secret = envelope.hidden and dice.secret_commitment is not None
            seed = self._seeds.get((encounter_id, -dice.epoch if secret else dice.epoch))
            assert seed is not None  # _ensure_seed ran first
            index = dice.next_secret_index if secret else dice.next_index
            faces = ServerFaces(seed, dice.client_seed, dice.epoch, index)
        return RollingDice(faces, next_roll_number=dice.rolls_made + 1, hidden=envelope.hidden)

    async def _ensure_seed(
        self, conn: Connection, encounter_id: UUID, encounter: Encounter[Any]
    ) -> None:
        epoch = encounter.dice.epoch
        if not self._has_seeds(encounter_id, encounter.dice):
            rows = await conn.fetch(
                "SELECT epoch, seed FROM dice_seeds WHERE stream_id = $1"
                " AND epoch IN ($2::int, -($2::int))",
                encounter_id,
                epoch,
            )
            seeds = {row["epoch"]: bytes(row["seed"]) for row in rows}
            if epoch not in seeds:
                raise LookupError(f"no dice seed stored for {encounter_id} epoch {epoch}")
            if -epoch in seeds:
                self._seeds.put((encounter_id, -epoch), seeds[-epoch])
            self._seeds.put((encounter_id, epoch), seeds[epoch])

    def _has_seeds(self, encounter_id: UUID, dice: DiceCounters) -> bool:
        """Both seeds of the current epoch are cached (only the public one in encounters
        from before secret seeds)."""
        if self._seeds.get((encounter_id, dice.epoch)) is None:
            return False
        return (
            dice.secret_commitment is None
            or self._seeds.get((encounter_id, -dice.epoch)) is not None
        )

    async def _ruleset(self, encounter_id: UUID) -> str:
        name = self._rulesets.get(encounter_id)
        if name is None:
            name = await ruleset_of(self._pool, encounter_id)
            self._rulesets.put(encounter_id, name)
        return name

    async def _notify(self, encounter_id: UUID, recorded: Sequence[RecordedEvent]) -> None:
        if self._publish is not None and recorded:
            await self._publish(encounter_id, recorded)


class _AnsweredBefore(Exception):
    """The write found its Idempotency-Key already answered: serve that answer."""


def _result_for(encounter_id: UUID) -> Callable[[Encounter[Any]], CommandResult]:
    def respond(final: Encounter[Any]) -> CommandResult:
        return CommandResult(encounter_id=encounter_id, version=final.version, events=[])

    return respond


def _command_metadata(command_type: str, idempotency_key: str | None) -> dict[str, Any]:
    return {"command_type": command_type, "idempotency_key": idempotency_key}


def _keyed(namespace: UUID, key: str | None, request_hash: str) -> Idempotency | None:
    return Idempotency(namespace, key, request_hash) if key else None


def _new_epoch(epoch: int, client_seed: str) -> NewSeed:
    """Fresh seeds for a dice epoch, with the commitments published for them: one for
    every roll, one for secret rolls (stored under epoch ``-epoch``)."""
    seed, secret = new_seed(), new_seed()
    return NewSeed(epoch, seed, client_seed, commitment(seed), secret, commitment(secret))


def _committed_to(seed: NewSeed) -> SeedCommitted:
    return SeedCommitted(
        epoch=seed.epoch,
        commitment=seed.commitment,
        client_seed=seed.client_seed,
        secret_commitment=seed.secret_commitment,
    )
