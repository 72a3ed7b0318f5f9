"""Live-update wake-ups through PostgreSQL: the channel's name and the NOTIFY.  What a
notice says and who listens is api/live_postgres.py's."""

from __future__ import annotations

from events.db import Database

CHANNEL = "aeon_live"
"""One channel for every encounter: a process listens once, however many it follows."""

MAX_PAYLOAD = 7900
"""PostgreSQL refuses a NOTIFY payload of 8000 bytes or more."""


async def notify(db: Database, payload: str) -> None:
    """Send ``payload`` to every listening session once the caller's transaction (here:
    this statement's own) commits."""
    await db.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)


async def ping(db: Database) -> None:
    """A round trip on a listening connection, so a silently lost one is noticed."""
    await db.execute("SELECT 1")
