"""The command pipeline: what api/ calls to open an encounter or run a command on one.

Each method binds its handler (service/handlers.py: what the command appends) to the
request and hands it to the unit of work (service/unit_of_work.py: load, decide, append
with the expected version, project, publish, all in one transaction).  State, seeds and
rulesets are remembered between commands in service/state_cache.py; what a write stores
is worked out in service/prepare.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, Unpack
from uuid import UUID

import asyncpg

from events.db import Connection
from events.write import CommandWrite, Written
from service import handlers
from service.codec import EventCodec
from service.commands import Actor, CommandEnvelope, Write
from service.core_events import EncounterCreated, EncounterForked, NoteAdded
from service.encounter import AppliedEvent, applied_steps
from service.group_commit import Mode as GroupMode
from service.group_commit import WriteStatement
from service.loading import Loaded
from service.prepare import Decision, Projector, WritePolicy
from service.registry import codec_for
from service.replay import commit_locked
from service.requests import DEFAULT_LIMITS, RequestLimits
from service.ruleset import tag_of
from service.secrecy import NpcHealth
from service.state_cache import StateCache
from service.unit_of_work import Opened, Publish, UnitOfWork
from telemetry import context

__all__ = [
    "CREATE_NAMESPACE",
    "AppliedEvent",
    "CommandPipeline",
    "Decision",
    "Opened",
    "Projector",
    "Publish",
    "applied_steps",
]

CREATE_NAMESPACE = UUID(int=0)
"""Idempotency keys of encounter creation live under this stream id."""


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
        group_commit: GroupMode = "on",
        write_statement: WriteStatement = "single",
    ) -> None:
        """``single_trip=False`` sends every command down the locking path (a transaction
        around lock, load, decide and write): tests use it to hold transactions open.
        ``group_commit="per-encounter"`` keeps each transaction to one encounter
        (service/group_commit.py).  ``write_statement`` chooses how
        a command's write is sent (service/split_write.py)."""
        self._pool = pool
        self._split = write_statement == "split"
        self._single_trip = single_trip
        self._state = StateCache(pool, size=cache_size, snapshot_every=snapshot_every)
        self._cache = self._state.encounters  # the encounters remembered (tests read it)
        self._seeds = self._state.seeds
        policy = WritePolicy(projector, snapshot_every, chain_key, clock)
        self._uow = UnitOfWork(
            pool,
            self._state,
            policy,
            publish=publish,
            commit_locked=self._commit_locked,
            group_commit=group_commit,
            split=self._split,
        )

    async def _commit_locked(self, conn: Connection, write: CommandWrite) -> Written:
        """The write statement under the stream row's lock (a seam for tests that hold
        the transaction open around it)."""
        return await commit_locked(conn, write, split=self._split)

    # -- opening a stream ------------------------------------------------------------

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
        first = handlers.created(ruleset, name, options, allow_player_dice, npc_health)
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
        first = await handlers.forked(self._pool, origin_id, at_version, name, public_game)
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
        context.note_command(
            "encounter.fork" if isinstance(first, EncounterForked) else "encounter.create"
        )
        decide = partial(handlers.opening, first, client_seed)
        codec = codec_for(first.ruleset)
        return await self._uow.open(codec, decide, actor, namespace, idempotency_key, request_hash)

    # -- commands on an encounter ------------------------------------------------------

    async def execute(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        player: frozenset[str] | None = None,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        """Decide a ruleset command and append its events; returns the JSON response.

        ``player`` is what a player token is bound to; None means the GM is asking.
        ``limits`` cap the requests a player's commands wait as while secrets are open.
        """
        seeds = self._seeds
        asked_by = write["actor"].token_id

        def decide_cached(loaded: Loaded, codec: EventCodec) -> Decision:
            return handlers.ruleset_command(
                seeds, encounter_id, loaded.encounter, codec, envelope, player, asked_by, limits
            )

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            return decide_cached(loaded, codec)

        command_type = tag_of(type(envelope.command))
        if self._single_trip:
            answer = await self._uow.single_trip(
                encounter_id, decide_cached, command_type=command_type, **write
            )
            if answer is not None:
                return answer
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

    async def reveal_seed(
        self,
        encounter_id: UUID,
        next_client_seed: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Publish the current epoch's seed and commit to a fresh one (a new epoch)."""

        async def decide(_conn: Connection, loaded: Loaded, _codec: EventCodec) -> Decision:
            return handlers.reveal_seed(
                self._seeds, encounter_id, loaded.encounter, next_client_seed
            )

        return await self._uow.run(encounter_id, decide, command_type="dice.reveal_seed", **write)

    async def reveal_rolls(
        self,
        encounter_id: UUID,
        roll_ids: Sequence[str],
        **write: Unpack[Write],
    ) -> bytes:
        """Show the table secret GM rolls: every read model stops redacting them."""

        async def decide(conn: Connection, loaded: Loaded, _codec: EventCodec) -> Decision:
            return await handlers.reveal_rolls(conn, encounter_id, loaded.encounter, roll_ids)

        return await self._uow.run(encounter_id, decide, command_type="dice.reveal_rolls", **write)

    async def request(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        note: str | None,
        player: frozenset[str] | None = None,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        """A player asks the GM to allow a command (service/requests.py)."""
        asked_by = write["actor"].token_id

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            enc = loaded.encounter
            return handlers.request(codec, enc, envelope, note, player, asked_by, limits)

        command_type = "encounter.request"
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

    async def amend_request(
        self,
        encounter_id: UUID,
        request_id: str,
        envelope: CommandEnvelope,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        """The GM changes a waiting request; approving it then applies the new version."""

        async def decide(_conn: Connection, loaded: Loaded, codec: EventCodec) -> Decision:
            return handlers.amend_request(codec, loaded.encounter, request_id, envelope, limits)

        command_type = "encounter.amend_request"
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

    async def clear_requests(
        self,
        encounter_id: UUID,
        reason: str,
        asked_by: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """The GM refuses every waiting request (of token ``asked_by``, if given)."""

        async def decide(_conn: Connection, loaded: Loaded, _codec: EventCodec) -> Decision:
            return handlers.clear_requests(loaded.encounter, reason, asked_by)

        command_type = "encounter.clear_requests"
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

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
            return handlers.answer_request(
                self._seeds,
                encounter_id,
                loaded.encounter,
                codec,
                request_id,
                refuse_because,
                manual_dice,
            )

        command_type = "encounter.answer_request"
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

    async def add_note(
        self,
        encounter_id: UUID,
        note: NoteAdded,
        **write: Unpack[Write],
    ) -> bytes:
        """Put a GM note in the record (a core event: an undo never takes it back)."""

        async def decide(_conn: Connection, _loaded: Loaded, _codec: EventCodec) -> Decision:
            return handlers.add_note(note)

        command_type = "encounter.add_note"
        return await self._uow.run(encounter_id, decide, command_type=command_type, **write)

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
            return await handlers.undo(conn, encounter_id, steps, to_version, reason)

        return await self._uow.run(encounter_id, decide, command_type="history.undo", **write)

    async def redo(
        self,
        encounter_id: UUID,
        *,
        reason: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        """Re-apply what the newest undo took back, unless a command came in since."""

        async def decide(conn: Connection, _loaded: Loaded, _codec: EventCodec) -> Decision:
            return await handlers.redo(conn, encounter_id, reason)

        return await self._uow.run(encounter_id, decide, command_type="history.redo", **write)
