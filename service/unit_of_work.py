"""The write path: a decision and everything it changes committed in one transaction, so a
command is applied wholly or not at all, and a refused command writes nothing.

Two ways to write.  The single trip (``single_trip``) decides on the cached state and
writes in one statement, with no lock around it, in the transaction of its group
(service/group_commit.py).  The locking path (``run``, ``open``) locks the encounter's
stream row for its transaction, so writers of one encounter queue (on any process) while
other encounters proceed in parallel; it brings the state up to that row, decides and
writes.  If-Match is compared with the version under that lock: a stale one is a 409,
never a retry.  Either way an Idempotency-Key answered before gets its first answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple
from uuid import UUID, uuid4, uuid5

import asyncpg
import msgspec

from events.db import Connection
from events.envelope import RecordedEvent
from events.errors import VersionConflict
from events.idempotency import find_response
from events.store import create_stream, lock_stream
from events.write import CommandWrite, Refused, Written
from service import tokens
from service.authorize import Forbidden
from service.codec import EventCodec
from service.commands import Actor, CommandResult
from service.dice import DiceError
from service.encounter import Encounter
from service.group_commit import GroupCommit
from service.group_commit import Mode as GroupMode
from service.loading import Loaded
from service.prepare import (
    Decision,
    Respond,
    WritePolicy,
    command_metadata,
    keyed,
    prepare,
)
from service.registry import codec_for
from service.replay import AnsweredBefore, StreamDamaged, first_response, refuse_revoked
from service.ruleset import RuleViolation
from service.state_cache import StateCache
from service.tokens import TokenRevoked
from telemetry import context, metrics, tracing

_encode = msgspec.json.Encoder().encode

Decide = Callable[[Connection, Loaded, EventCodec], Awaitable[Decision]]
"""A handler bound to its command, run under the stream's lock."""
DecideCached = Callable[[Loaded, EventCodec], Decision]
"""A pure handler bound to its command, which may run on the cached state."""
CommitLocked = Callable[[Connection, CommandWrite], Awaitable[Written]]
Publish = Callable[[UUID, Sequence[RecordedEvent]], Awaitable[None]]


class Opened(NamedTuple):
    response: bytes
    """The JSON answer, as stored for idempotent replay."""
    gm_token: str | None
    """The new encounter's GM token: only on the request that created it."""


class UnitOfWork:
    def __init__(
        self,
        pool: asyncpg.Pool,
        state: StateCache,
        policy: WritePolicy,
        *,
        publish: Publish | None,
        commit_locked: CommitLocked,
        group_commit: GroupMode = "on",
        split: bool = False,
    ) -> None:
        """``commit_locked`` runs the write statement under the lock
        (service/replay.py's, unless a test holds the transaction open around it);
        ``group_commit`` is AEON_GROUP_COMMIT (service/group_commit.py); ``split``
        writes each command as service/split_write.py's statements."""
        self._pool = pool
        self._group = GroupCommit(pool, per_encounter=group_commit == "per-encounter", split=split)
        self._state = state
        self._policy = policy
        self._publish = publish
        self._commit_locked = commit_locked

    async def open(
        self,
        codec: EventCodec,
        decide: Callable[[UUID], tuple[Decision, Respond]],
        actor: Actor,
        namespace: UUID,
        idempotency_key: str | None,
        request_hash: str,
    ) -> Opened:
        """Append the first events of a new stream and mint its GM token, atomically.

        The token is not part of the stored response: a replay of the same request gets
        the encounter without it, so no secret is ever kept outside its hash.
        """
        encounter_id = new_stream_id(namespace, idempotency_key)
        if idempotency_key:
            for where in (encounter_id, namespace):
                stored = await find_response(self._pool, where, idempotency_key, request_hash)
                if stored is not None:
                    return Opened(stored, None)
        context.note_created(str(encounter_id))
        decision, respond = decide(encounter_id)
        key = keyed(encounter_id, idempotency_key, request_hash)
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                head = await create_stream(conn, encounter_id)
                write, final = await prepare(
                    conn,
                    codec,
                    self._policy,
                    encounter_id,
                    None,
                    head,
                    decision,
                    actor,
                    None,
                    respond,
                    key,
                )
                # A creator's token (a fork's GM) is the origin's, not this new stream's.
                written = await self._commit_locked(conn, write._replace(token_id=None))
                gm = await tokens.mint(conn, encounter_id, role="gm", label="created with it")
        except (asyncpg.UniqueViolationError, AnsweredBefore) as clash:
            stored = await first_response(
                self._pool, clash, encounter_id, idempotency_key, request_hash
            )
            return Opened(stored, None)
        return Opened(await self._committed(write, final, written), gm.token)

    async def single_trip(
        self,
        encounter_id: UUID,
        decide: DecideCached,
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
        context.note_command(command_type)
        cached = self._state.lookup(encounter_id)
        if cached is None or expected_version not in (None, cached.head.version):
            return None
        if not self._state.has_seeds(encounter_id, cached.encounter.dice):
            return None
        codec = codec_for(await self._state.ruleset(encounter_id))
        try:
            with tracing.span("aeon.decide", command_type=command_type):
                decision = decide(cached, codec)
        except (RuleViolation, Forbidden, DiceError):
            return None  # perhaps only stale: refused for good under the lock, if at all
        if not decision.events:
            return None
        write, final = await prepare(
            None,
            codec,
            self._policy,
            encounter_id,
            cached.encounter,
            cached.head,
            decision,
            actor,
            command_metadata(command_type, idempotency_key),
            _result_for(encounter_id),
            keyed(encounter_id, idempotency_key, request_hash),
        )
        try:
            with tracing.span("aeon.write", events=len(decision.events)):
                outcome = await self._group.commit(write)
        except asyncpg.UniqueViolationError:
            return None  # answered first elsewhere: the locking path replays it, if allowed
        if isinstance(outcome, Refused):
            return None
        return await self._committed(write, final, outcome)

    async def run(
        self,
        encounter_id: UUID,
        decide: Decide,
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
        context.note_command(command_type)
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
            await refuse_revoked(self._pool, encounter_id, actor)
            raise

    async def _run_locked(
        self,
        encounter_id: UUID,
        decide: Decide,
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
                await refuse_revoked(self._pool, encounter_id, actor)
                return stored
        codec = codec_for(await self._state.ruleset(encounter_id))
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                loaded = await self._lock_and_load(conn, codec, encounter_id)
                if expected_version is not None and loaded.head.version != expected_version:
                    raise VersionConflict(encounter_id, expected_version, loaded.head.version)
                await self._state.ensure_seed(conn, encounter_id, loaded.encounter)
                with tracing.span("aeon.decide", command_type=command_type):
                    decision = await decide(conn, loaded, codec)
                if not decision.events:
                    return _encode(
                        CommandResult(
                            encounter_id=encounter_id, version=loaded.head.version, events=[]
                        )
                    )
                write, final = await prepare(
                    conn,
                    codec,
                    self._policy,
                    encounter_id,
                    loaded.encounter,
                    loaded.head,
                    decision,
                    actor,
                    command_metadata(command_type, idempotency_key),
                    _result_for(encounter_id),
                    keyed(encounter_id, idempotency_key, request_hash),
                )
                with tracing.span("aeon.write", events=len(decision.events)):
                    written = await self._commit_locked(conn, write)
        except (asyncpg.UniqueViolationError, AnsweredBefore) as clash:
            try:
                stored = await first_response(
                    self._pool, clash, encounter_id, idempotency_key, request_hash
                )
            except asyncpg.UniqueViolationError as damage:
                # Under the stream's lock no other writer can clash: the stored rows do.
                await refuse_revoked(self._pool, encounter_id, actor)
                raise StreamDamaged(encounter_id, damage.constraint_name) from damage
            await refuse_revoked(self._pool, encounter_id, actor)
            return stored
        return await self._committed(write, final, written)

    async def _lock_and_load(
        self, conn: Connection, codec: EventCodec, encounter_id: UUID
    ) -> Loaded:
        """Lock the stream row for this transaction and bring the cached state up to it.

        The lock makes writers of one encounter queue rather than race (writers of other
        encounters are not affected).
        """
        head = await lock_stream(conn, encounter_id)
        return await self._state.catch_up(conn, codec, encounter_id, head)

    async def _committed(
        self, write: CommandWrite, final: Encounter[Any], written: Written
    ) -> bytes:
        """Remember what a committed command produced, tell live subscribers, and give
        its answer.  Only after the commit: a seed cached from a transaction that rolled
        back would make this process roll dice from a seed nobody committed to."""
        self._state.remember(write, final)
        if written.recorded:
            metrics.events_appended(final.ruleset, [e.type for e in written.recorded])
            context.note_written(written.recorded[-1].stream_version, len(written.recorded))
        if self._publish is not None and written.recorded:
            with tracing.span("aeon.fan_out"):
                await self._publish(write.append.stream_id, written.recorded)
        return written.response


def new_stream_id(namespace: UUID, idempotency_key: str | None) -> UUID:
    """The id of a stream a request opens: random, or, with an Idempotency-Key, derived
    from the key and its namespace (the creation namespace, a fork's origin).

    Derived so that the key's stored answer can live under the new stream itself: the
    write that opens a stream then names that one stream, which Citus runs on one shard
    in one phase, and a concurrent request with the same key clashes on the stream's
    own primary key.  Keys are scoped to their namespace as before (one key, one answer);
    the id is version 5, so it never equals a random (version 4) one.  Keys stored under
    the namespace itself, before streams were keyed this way, are still looked up there.
    """
    return uuid4() if not idempotency_key else uuid5(namespace, idempotency_key)


def _result_for(encounter_id: UUID) -> Callable[[Encounter[Any]], CommandResult]:
    def respond(final: Encounter[Any]) -> CommandResult:
        return CommandResult(encounter_id=encounter_id, version=final.version, events=[])

    return respond
