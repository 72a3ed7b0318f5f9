"""Writing a campaign's commands: decide under the stream's lock, append, answer once.

Each command runs in one transaction: the campaign's stream row locked (so two writers
of one campaign queue, on any process), the campaign folded, If-Match compared with the
version under that lock, the campaign's ``decide`` run, its events appended with the
store's own append (hash chain, signed head) and, with an Idempotency-Key, the answer
stored in the same transaction: a retry gets the first answer, a crash between the two
cannot happen.  A refused command writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg
import msgspec

from events.committed_health import commit
from events.db import Connection
from events.envelope import NewEvent, RecordedEvent
from events.errors import VersionConflict
from events.heads import StreamHead, create_stream, lock_stream_of
from events.idempotency import find_response
from events.kinds import CAMPAIGN
from events.store import append
from service.campaign_store.stream import load
from service.campaign_store.tokens import mint_campaign_token
from service.campaigns import Command, Event, State, decide, initial_state
from service.campaigns.commands import CreateCampaign
from service.campaigns.hidden import gm_only
from service.campaigns.stored import stored
from service.commands import Actor
from service.dice import ManualFaces, RollingDice
from service.dice.model import Dice
from service.write.unit_of_work import Terms, new_stream_id

_encode = msgspec.json.Encoder().encode

CAMPAIGNS = UUID("6b0f3c52-3e55-4c59-9a38-1f6d3f0c2a11")
"""The namespace a campaign's id is derived in from its creation's Idempotency-Key."""


class CampaignWritten(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to a campaign's command: the version it left and the events appended."""

    campaign_id: UUID
    version: int
    events: list[RecordedEvent]


class CampaignCreated(msgspec.Struct, frozen=True, kw_only=True):
    """The answer to creating a campaign; ``gm_token`` only on the request that made it."""

    campaign_id: UUID
    ruleset: str
    name: str
    version: int
    events: list[RecordedEvent]
    gm_token: str | None = None


def no_dice() -> Dice:
    """Dice with no faces: a command that would roll on them is refused.  Only starting an
    encounter rolls (monsters' hit points), on the encounter's own fair dice."""
    return RollingDice(ManualFaces([]), next_roll_number=1)


class CampaignWriter:
    def __init__(
        self,
        pool: asyncpg.Pool,
        chain_key: bytes | None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._pool, self._key, self._clock = pool, chain_key, clock

    async def create(self, command: CreateCampaign, terms: Terms) -> tuple[bytes, str | None]:
        """Open the campaign's stream with ``campaign.created`` and mint its GM token; the
        stored answer, and the token (None on a replay: no secret is stored)."""
        events = decide(initial_state(), command, no_dice())  # refused before any write
        key, request_hash = terms.idempotency_key, terms.request_hash
        campaign_id = new_stream_id(CAMPAIGNS, key)
        if key and (replay := await find_response(self._pool, campaign_id, key, request_hash)):
            return replay, None
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                head = await create_stream(conn, campaign_id, CAMPAIGN)
                recorded = await self._append(conn, campaign_id, head, events, terms, command)
                answer = _encode(
                    CampaignCreated(
                        campaign_id=campaign_id,
                        ruleset=command.ruleset,
                        name=command.name.strip(),
                        version=recorded[-1].stream_version,
                        events=recorded,
                    )
                )
                await _remember(conn, campaign_id, terms, answer)
                token = await mint_campaign_token(
                    conn, campaign_id, role="gm", label="created with it"
                )
        except asyncpg.UniqueViolationError:
            assert key is not None  # a random id never clashes
            replay = await find_response(self._pool, campaign_id, key, request_hash)
            assert replay is not None
            return replay, None
        return answer, token

    async def handle(
        self, campaign_id: UUID, command: Command, terms: Terms, dice: Dice | None = None
    ) -> bytes:
        """Decide ``command`` on the campaign and append its events; the JSON answer."""
        answer, _ = await self.decide_and_append(campaign_id, command, terms, dice)
        return answer

    async def decide_and_append(
        self,
        campaign_id: UUID,
        command: Command,
        terms: Terms,
        dice: Dice | None = None,
        conn: Connection | None = None,
    ) -> tuple[bytes, list[RecordedEvent]]:
        """``handle``, in the caller's transaction when ``conn`` is given (starting an
        encounter writes the campaign and the encounter together)."""
        key, request_hash = terms.idempotency_key, terms.request_hash
        if key and (replay := await find_response(self._pool, campaign_id, key, request_hash)):
            return replay, []
        if conn is not None:
            return await self._locked(conn, campaign_id, command, terms, dice)
        try:
            async with self._pool.acquire() as own, own.transaction():
                return await self._locked(own, campaign_id, command, terms, dice)
        except asyncpg.UniqueViolationError:
            assert key is not None  # only the key's row can clash under the lock
            replay = await find_response(self._pool, campaign_id, key, request_hash)
            assert replay is not None
            return replay, []

    async def _locked(
        self,
        conn: Connection,
        campaign_id: UUID,
        command: Command,
        terms: Terms,
        dice: Dice | None,
    ) -> tuple[bytes, list[RecordedEvent]]:
        _, recorded = await self.decided(conn, campaign_id, command, terms, dice)
        answer = _encode(
            CampaignWritten(
                campaign_id=campaign_id, version=recorded[-1].stream_version, events=recorded
            )
        )
        await _remember(conn, campaign_id, terms, answer)
        return answer, recorded

    async def decided(
        self,
        conn: Connection,
        campaign_id: UUID,
        command: Command,
        terms: Terms,
        dice: Dice | None = None,
    ) -> tuple[State, list[RecordedEvent]]:
        """Under the campaign's lock in the caller's transaction: the campaign as it was,
        and the events ``command`` appended to it."""
        head = await lock_stream_of(conn, campaign_id, CAMPAIGN)
        if terms.expected_version is not None and terms.expected_version != head.version:
            raise VersionConflict(campaign_id, terms.expected_version, head.version)
        folded = await load(conn, campaign_id)
        events = decide(folded.state, command, dice or no_dice())
        recorded = await self._append(conn, campaign_id, head, events, terms, command)
        return folded.state, recorded

    async def _append(
        self,
        conn: Connection,
        campaign_id: UUID,
        head: StreamHead,
        events: tuple[Event, ...],
        terms: Terms,
        command: Command,
    ) -> list[RecordedEvent]:
        command_id = str(uuid4())
        metadata = {
            "actor": msgspec.to_builtins(terms.actor),
            "command_id": command_id,
            "causation_id": command_id,
            "correlation_id": terms.actor.correlation_id or command_id,
            "command_type": _tag(command),
        }
        if terms.idempotency_key:
            metadata["idempotency_key"] = terms.idempotency_key
        return await append(
            conn,
            campaign_id,
            head,
            [committed(stored(e)) for e in events],
            metadata=metadata,
            recorded_at=self._clock(),
            key=self._key,
        )


def committed(event: NewEvent) -> NewEvent:
    """The event as stored: each value only the GM reads (the bestiary's numbers) bound
    into the chain by a salted commitment, so the hash tells players nothing of it and
    they recompute it from what they read (service/campaigns/hidden.py)."""
    data = commit(event.data, gm_only(event.type, event.data))
    return event if data is event.data else msgspec.structs.replace(event, data=data)


def _tag(command: Command) -> str:
    tag = type(command).__struct_config__.tag
    assert isinstance(tag, str)
    return tag


async def _remember(conn: Connection, campaign_id: UUID, terms: Terms, answer: bytes) -> None:
    """The answer under the request's Idempotency-Key, in the write's transaction."""
    if terms.idempotency_key:
        await conn.execute(
            "INSERT INTO idempotency_keys (stream_id, key, request_hash, response)"
            " VALUES ($1, $2, $3, $4)",
            campaign_id,
            terms.idempotency_key,
            terms.request_hash,
            answer,
        )


def gm_terms() -> Terms:
    """The terms of a write by the service itself (the carry-over process manager)."""
    return Terms(actor=Actor(role="service"))
