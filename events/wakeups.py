"""Live-update wake-ups through PostgreSQL: the channel's name and the NOTIFY.  What a
notice says and who listens is api/live/postgres_link.py's."""

from __future__ import annotations

from events.db import Database

CHANNEL = "aeon_live"
"""One channel for every encounter: a process listens once, however many it follows."""

MAX_PAYLOAD = 7900
"""PostgreSQL refuses a NOTIFY payload of 8000 bytes or more."""


async def notify(db: Database, payload: str) -> None:
    """Send ``payload`` to every listening session, in one round trip and without
    waiting for a WAL flush.

    A ``NOTIFY`` gives its transaction an id, so its commit would otherwise wait for the
    disk like a command's.  A wake-up is not worth that wait: listeners get it once the
    commit is done whether or not it reached the disk, and a wake-up lost in a crash
    costs one poll.  So the transaction commits asynchronously, and the whole of it goes
    as one simple query (hence the payload as a literal, its quotes doubled).
    """
    literal = payload.replace("'", "''")
    await db.execute(
        "BEGIN; SET LOCAL synchronous_commit = off; "
        f"SELECT pg_notify('{CHANNEL}', '{literal}'); COMMIT"
    )


async def ping(db: Database) -> None:
    """A round trip on a listening connection, so a silently lost one is noticed."""
    await db.execute("SELECT 1")
