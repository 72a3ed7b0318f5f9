"""The command pipeline: what api/ calls to open an encounter or run a command on one.

Each method names its command (service/write/commands.py) and hands it to the unit of
work (service/write/unit_of_work.py), which routes it to its handler and loads, decides,
appends and commits it in one transaction.  Built once per process, with the write
strategy the deployment chose (service/write/strategy.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, Unpack
from uuid import UUID

import asyncpg
import msgspec

from service.commands import Actor, CommandEnvelope, Write
from service.core_events import EncounterForked, NoteAdded
from service.requests import DEFAULT_LIMITS, RequestLimits
from service.secrecy import NpcHealth
from service.write.commands import (
    AddNote,
    AmendRequest,
    AnswerRequest,
    ClearRequests,
    Command,
    MakeRequest,
    Redo,
    RevealRolls,
    RevealSeed,
    RulesetCommand,
    Undo,
)
from service.write.opening import Also, created, forked
from service.write.prepare import Projector, WritePolicy
from service.write.state_cache import StateCache
from service.write.strategy import OneStatement, WriteStrategy
from service.write.unit_of_work import Opened, Publish, Terms, UnitOfWork
from telemetry import context

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
        chain_key: bytes | None = None,
        strategy: WriteStrategy | None = None,
    ) -> None:
        """``strategy``: how writes reach PostgreSQL (AEON_WRITE_STATEMENT); the one
        statement by default."""
        self._pool = pool
        self._state = StateCache(pool, size=cache_size, snapshot_every=snapshot_every)
        self._cache = self._state.encounters  # the encounters remembered (tests read it)
        policy = WritePolicy(projector, snapshot_every, chain_key, clock)
        self._uow = UnitOfWork(
            pool, self._state, policy, strategy or OneStatement(), publish=publish
        )

    async def handle(self, encounter_id: UUID, command: Command, **write: Unpack[Write]) -> bytes:
        """Run ``command`` on the encounter; returns the JSON response."""
        return await self._uow.handle(encounter_id, command, Terms(**write))

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
        campaign: UUID | None = None,
        also: Also | None = None,
    ) -> Opened:
        """Open a stream with encounter.created and the first dice commitment; started
        from ``campaign``, with what ``also`` adds in the same transaction."""
        context.note_command("encounter.create")
        first = created(ruleset, name, options, allow_player_dice, npc_health)
        if campaign is not None:
            first = msgspec.structs.replace(first, campaign=campaign)
        terms = Terms(actor, None, idempotency_key, request_hash)
        namespace = CREATE_NAMESPACE if campaign is None else campaign
        return await self._uow.open(first, client_seed, namespace, terms, also)

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
        first: EncounterForked = await forked(self._pool, origin_id, at_version, name, public_game)
        context.note_command("encounter.fork")
        terms = Terms(actor, None, idempotency_key, request_hash)
        return await self._uow.open(first, client_seed, origin_id, terms)

    # -- commands on an encounter: each names its command -----------------------------

    async def execute(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        player: frozenset[str] | None = None,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        """A ruleset command; ``player`` is what a player token is bound to (None: the
        GM); ``limits`` cap the requests a player's commands wait as while secrets are
        open."""
        asked_by = write["actor"].token_id
        command = RulesetCommand(envelope, player, asked_by, limits)
        return await self.handle(encounter_id, command, **write)

    async def reveal_seed(
        self, encounter_id: UUID, next_client_seed: str | None = None, **write: Unpack[Write]
    ) -> bytes:
        return await self.handle(encounter_id, RevealSeed(next_client_seed), **write)

    async def reveal_rolls(
        self, encounter_id: UUID, roll_ids: Sequence[str], **write: Unpack[Write]
    ) -> bytes:
        return await self.handle(encounter_id, RevealRolls(roll_ids), **write)

    async def request(
        self,
        encounter_id: UUID,
        envelope: CommandEnvelope,
        note: str | None,
        player: frozenset[str] | None = None,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        asked_by = write["actor"].token_id
        command = MakeRequest(envelope, note, player, asked_by, limits)
        return await self.handle(encounter_id, command, **write)

    async def amend_request(
        self,
        encounter_id: UUID,
        request_id: str,
        envelope: CommandEnvelope,
        limits: RequestLimits = DEFAULT_LIMITS,
        **write: Unpack[Write],
    ) -> bytes:
        command = AmendRequest(request_id, envelope, limits)
        return await self.handle(encounter_id, command, **write)

    async def clear_requests(
        self,
        encounter_id: UUID,
        reason: str,
        asked_by: str | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        return await self.handle(encounter_id, ClearRequests(reason, asked_by), **write)

    async def answer_request(
        self,
        encounter_id: UUID,
        request_id: str,
        *,
        refuse_because: str | None = None,
        manual_dice: list[list[int]] | None = None,
        **write: Unpack[Write],
    ) -> bytes:
        command = AnswerRequest(request_id, refuse_because, manual_dice)
        return await self.handle(encounter_id, command, **write)

    async def add_note(self, encounter_id: UUID, note: NoteAdded, **write: Unpack[Write]) -> bytes:
        return await self.handle(encounter_id, AddNote(note), **write)

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
        return await self.handle(encounter_id, Undo(steps, to_version, reason), **write)

    async def redo(
        self, encounter_id: UUID, *, reason: str | None = None, **write: Unpack[Write]
    ) -> bytes:
        return await self.handle(encounter_id, Redo(reason), **write)
