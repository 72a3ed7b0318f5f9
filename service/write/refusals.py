"""Refusals and replays on the locking path: what the write path answers when a write is
refused under the lock, or when an Idempotency-Key was answered before.

A refusal or a replay is only given to a token that is still valid (``refuse_revoked``):
the token may be one this process checked before it was revoked (api/http/auth.py), and a
revoked token learns nothing, not even why its command would fail.
"""

from __future__ import annotations

from uuid import UUID

import asyncpg

from events.idempotency import find_response
from events.write import CommandWrite, Refused, Written
from service import tokens
from service.commands import Actor
from service.tokens import TokenRevoked


class AnsweredBefore(Exception):
    """The write found its Idempotency-Key already answered: serve that answer."""


class StreamDamaged(Exception):
    """A write under the stream's lock ran into rows its events do not account for (a
    read-model row past the head, say, after someone deleted the stream's tail in the
    database): the stored history is inconsistent, and nothing was written. Not a bug of
    the request, and not one a retry fixes: verify says what is wrong."""

    def __init__(self, stream_id: UUID, constraint: str | None) -> None:
        self.stream_id, self.constraint = stream_id, constraint
        super().__init__(f"stream {stream_id}: a write clashed with stored rows ({constraint})")


def written_or_raise(write: CommandWrite, outcome: Written | Refused) -> Written:
    """The outcome of a write under the stream row's lock, where only a revoked token or
    an Idempotency-Key answered meanwhile can refuse it."""
    if isinstance(outcome, Written):
        return outcome
    if outcome.token_revoked:
        raise TokenRevoked()
    if outcome.key_used:
        raise AnsweredBefore()
    raise RuntimeError(f"stream {write.append.stream_id} moved while its row was locked")


async def refuse_revoked(pool: asyncpg.Pool, encounter_id: UUID, actor: Actor) -> None:
    """Raise TokenRevoked if the actor's token (if any) was revoked meanwhile."""
    if actor.token_id is not None and not await tokens.is_live(pool, encounter_id, actor.token_id):
        raise TokenRevoked()


async def first_response(
    pool: asyncpg.Pool,
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
        stored = await find_response(pool, stream_id, idempotency_key, request_hash)
    if stored is None:
        raise clash
    return stored
