"""Write strategies for tests that must take the locking path, or hold its transaction
open: the real strategies' writes, wrapped."""

from __future__ import annotations

import asyncpg

from events.db import Connection
from events.write import CommandWrite, Refused
from service.write.strategy import OneStatement, Outcome, WriteStrategy


class LockingPath:
    """``inner``'s writes under the stream's lock; its groups refuse every write unsent,
    as if each stream had moved, so every command goes the locking path."""

    def __init__(self, inner: WriteStrategy | None = None) -> None:
        self.inner = inner or OneStatement()

    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        return await self.inner.write_locked(conn, write)

    async def write_group(
        self, pool: asyncpg.Pool, writes: list[CommandWrite]
    ) -> list[Outcome | Exception]:
        return [Refused(token_revoked=False, key_used=False) for _ in writes]
