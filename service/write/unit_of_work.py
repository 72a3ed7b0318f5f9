"""The unit of work: load, decide, append and commit a command in one transaction, so it is
applied wholly or not at all, and a refused command writes nothing.

``handle`` routes a command to its handler (service/write/handlers.py) and runs it one of
two ways.  The single trip decides on the cached state (service/write/state_cache.py)
and writes in one statement with no lock around it, in the transaction of its group
(service/write/group_commit.py); only a handler routed ``on_cached_state`` may.  The
locking path locks the encounter's stream row for its transaction, so writers of one
encounter queue (on any process) while other encounters proceed in parallel; it brings
the state up to that row, decides and writes.  If-Match is compared with the version
under that lock: a stale one is a 409, never a retry.  Either way an Idempotency-Key
answered before gets its first answer.  How the write reaches PostgreSQL is the
deployment's strategy (service/write/strategy.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, NamedTuple
from uuid import UUID, uuid4, uuid5

import asyncpg
import msgspec

from events.envelope import RecordedEvent
from events.errors import VersionConflict
from events.idempotency import find_response
from events.store import create_stream, lock_stream
from events.write import CommandWrite, Refused, Written
from service import tokens
from service.authorize import Forbidden
from service.commands import Actor, CommandResult
from service.core_events import EncounterCreated, EncounterForked
from service.dice import DiceError
from service.encounter import Encounter
from service.registry import codec_for
from service.ruleset import RuleViolation
from service.tokens import TokenRevoked
from service.write.commands import Command
from service.write.group_commit import GroupCommit
from service.write.handlers import HANDLERS, Context, Route
from service.write.opening import Also, filled, opening
from service.write.prepare import Draft, WritePolicy, command_metadata, keyed, prepare
from service.write.refusals import (
    AnsweredBefore,
    StreamDamaged,
    first_response,
    refuse_revoked,
    written_or_raise,
)
from service.write.state_cache import StateCache
from service.write.strategy import WriteStrategy
from telemetry import context, metrics, tracing

_encode = msgspec.json.Encoder().encode

Publish = Callable[[UUID, Sequence[RecordedEvent]], Awaitable[None]]


class Opened(NamedTuple):
    response: bytes
    """The JSON answer, as stored for idempotent replay."""
    gm_token: str | None
    """The new encounter's GM token: only on the request that created it."""


class Terms(NamedTuple):
    """Who writes and on what terms (service/commands.py's ``Write``)."""

    actor: Actor
    expected_version: int | None = None
    idempotency_key: str | None = None
    request_hash: str = ""


class UnitOfWork:
    def __init__(
        self,
        pool: asyncpg.Pool,
        state: StateCache,
        policy: WritePolicy,
        strategy: WriteStrategy,
        *,
        publish: Publish | None,
    ) -> None:
        self._pool = pool
        self._state = state
        self._policy = policy
        self._strategy = strategy
        self._group = GroupCommit(pool, strategy)
        self._publish = publish

    async def open(
        self,
        first: EncounterCreated | EncounterForked,
        client_seed: str | None,
        namespace: UUID,
        terms: Terms,
        also: Also | None = None,
    ) -> Opened:
        """Append the first events of a new stream and mint its GM token, atomically.

        The token is not part of the stored response: a replay of the same request gets
        the encounter without it, so no secret is ever kept outside its hash.
        """
        key, request_hash = terms.idempotency_key, terms.request_hash
        encounter_id = new_stream_id(namespace, key)
        if key:
            for where in (encounter_id, namespace):
                stored = await find_response(self._pool, where, key, request_hash)
                if stored is not None:
                    return Opened(stored, None)
        context.note_created(str(encounter_id))
        decision, respond = opening(first, client_seed, encounter_id)
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                head = await create_stream(conn, encounter_id)
                if also is not None:
                    decision = await filled(decision, also, conn, encounter_id)
                draft = Draft(
                    codec_for(first.ruleset),
                    encounter_id,
                    None,
                    head,
                    decision,
                    terms.actor,
                    None,
                    respond,
                    keyed(encounter_id, key, request_hash),
                )
                write, final = await prepare(draft, self._policy, conn)
                # A creator's token (a fork's GM) is the origin's, not this new stream's.
                unchecked = write._replace(token_id=None)
                outcome = await self._strategy.write_locked(conn, unchecked)
                written = written_or_raise(write, outcome)
                gm = await tokens.mint(conn, encounter_id, role="gm", label="created with it")
        except (asyncpg.UniqueViolationError, AnsweredBefore) as clash:
            stored = await first_response(self._pool, clash, encounter_id, key, request_hash)
            return Opened(stored, None)
        return Opened(await self._committed(write, final, written), gm.token)

    async def handle(self, encounter_id: UUID, command: Command, terms: Terms) -> bytes:
        """Decide ``command`` with its handler and append its events; the JSON answer."""
        route, command_type = HANDLERS[type(command)], command.command_type
        context.note_command(command_type)
        if route.on_cached_state:
            answer = await self._single_trip(encounter_id, route, command, command_type, terms)
            if answer is not None:
                return answer
        try:
            return await self._locking(encounter_id, route, command, command_type, terms)
        except TokenRevoked:
            raise
        except Exception:
            # Every error goes on as it is; first, a revoked token is told only that.  The
            # token may be one this process checked before it was revoked
            # (api/http/auth.py), and a revoked token learns nothing, not even why its
            # command would fail.
            await refuse_revoked(self._pool, encounter_id, terms.actor)
            raise

    async def _single_trip(
        self, encounter_id: UUID, route: Route, command: Command, command_type: str, terms: Terms
    ) -> bytes | None:
        """The common path: decide on the cached state and write in one statement, with
        no lock around it, in the transaction of its group: commands of this process that
        are ready together share a round trip and a commit, each with its own guards.
        None when it cannot answer for sure (no cached state or seed, an If-Match the
        cache cannot confirm, a refusal that stale state might explain, or the stream
        moved on): the locking path then does.

        The statement writes only if the stream is still at the cached version, so a
        decision on state another process has since changed never lands.
        """
        key, request_hash = terms.idempotency_key, terms.request_hash
        ready = await self._state.ready(encounter_id, terms.expected_version)
        if ready is None:
            return None
        cached, codec = ready
        on_cache = Context(encounter_id, cached.encounter, codec, self._state.seeds, None)
        try:
            with tracing.span("aeon.decide", command_type=command_type):
                decision = await route.handle(command, on_cache)
        except (RuleViolation, Forbidden, DiceError):
            return None  # perhaps only stale: refused for good under the lock, if at all
        if not decision.events:
            return None
        draft = Draft(
            codec,
            encounter_id,
            cached.encounter,
            cached.head,
            decision,
            terms.actor,
            command_metadata(command_type, key),
            _result_for(encounter_id),
            keyed(encounter_id, key, request_hash),
        )
        write, final = await prepare(draft, self._policy)
        try:
            with tracing.span("aeon.write", events=len(decision.events)):
                outcome = await self._group.commit(write)
        except asyncpg.UniqueViolationError:
            return None  # answered first elsewhere: the locking path replays it, if allowed
        if isinstance(outcome, Refused):
            return None
        return await self._committed(write, final, outcome)

    async def _locking(
        self, encounter_id: UUID, route: Route, command: Command, command_type: str, terms: Terms
    ) -> bytes:
        """The locking path: lock the stream row, bring the state up to it, decide, write."""
        key, request_hash = terms.idempotency_key, terms.request_hash
        if key:
            stored = await find_response(self._pool, encounter_id, key, request_hash)
            if stored is not None:
                await refuse_revoked(self._pool, encounter_id, terms.actor)
                return stored
        codec = codec_for(await self._state.ruleset(encounter_id))
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                # The lock makes writers of one encounter queue rather than race (writers
                # of other encounters are not affected).
                head = await lock_stream(conn, encounter_id)
                loaded = await self._state.catch_up(conn, codec, encounter_id, head)
                expected = terms.expected_version
                if expected is not None and loaded.head.version != expected:
                    raise VersionConflict(encounter_id, expected, loaded.head.version)
                await self._state.ensure_seed(conn, encounter_id, loaded.encounter)
                locked = Context(encounter_id, loaded.encounter, codec, self._state.seeds, conn)
                with tracing.span("aeon.decide", command_type=command_type):
                    decision = await route.handle(command, locked)
                if not decision.events:
                    nothing = CommandResult(
                        encounter_id=encounter_id, version=loaded.head.version, events=[]
                    )
                    return _encode(nothing)
                draft = Draft(
                    codec,
                    encounter_id,
                    loaded.encounter,
                    loaded.head,
                    decision,
                    terms.actor,
                    command_metadata(command_type, key),
                    _result_for(encounter_id),
                    keyed(encounter_id, key, request_hash),
                )
                write, final = await prepare(draft, self._policy, conn)
                with tracing.span("aeon.write", events=len(decision.events)):
                    outcome = await self._strategy.write_locked(conn, write)
                written = written_or_raise(write, outcome)
        except (asyncpg.UniqueViolationError, AnsweredBefore) as clash:
            try:
                stored = await first_response(self._pool, clash, encounter_id, key, request_hash)
            except asyncpg.UniqueViolationError as damage:
                # Under the stream's lock no other writer can clash: the stored rows do.
                await refuse_revoked(self._pool, encounter_id, terms.actor)
                raise StreamDamaged(encounter_id, damage.constraint_name) from damage
            await refuse_revoked(self._pool, encounter_id, terms.actor)
            return stored
        return await self._committed(write, final, written)

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
