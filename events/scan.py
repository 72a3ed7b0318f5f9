"""Reading many streams' events at once, for rebuilding read models.

``events/reading.py`` reads one stream, or all streams in commit order, as full envelopes
(data and metadata decoded to dicts, hashes, positions).  A rebuild needs neither: it
folds stream after stream from version 1 and decodes ``data`` straight into typed events
itself.  So these readers return raw rows of the few columns that needs, in
(stream_id, stream_version) order, which the events' unique index provides.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from uuid import UUID

import asyncpg

from events.db import Database

SCAN_COLUMNS = (
    "stream_id, stream_version, type, type_version, data, recorded_at,"
    " metadata->>'command_id' AS command_id"
)
"""Every row here has these columns, in this order; ``data`` is the stored JSON text.  The
command id tells which events one command appended (their secrecy is the command's)."""
FIRST_ID = UUID(int=0)
LAST_ID = UUID(int=2**128 - 1)

# Campaign streams (events/kinds.py) have no encounter read models: a rebuild skips them.
_PAGE = f"""SELECT {SCAN_COLUMNS} FROM events
            WHERE (stream_id, stream_version) > ($1::uuid, $2::int)
              AND stream_id <= $4::uuid AND type NOT LIKE 'campaign.%'
            ORDER BY stream_id, stream_version
            LIMIT $3"""  # noqa: S608 (a constant column list)

_TAILS = f"""SELECT {SCAN_COLUMNS}
             FROM unnest($1::uuid[], $2::int[]) AS t(sid, after)
             JOIN events ON stream_id = t.sid AND stream_version > t.after
             ORDER BY stream_id, stream_version"""  # noqa: S608 (a constant column list)

_VERSIONS = f"""SELECT {SCAN_COLUMNS} FROM events
                WHERE stream_id = $1 AND stream_version BETWEEN $2 AND $3
                ORDER BY stream_version"""  # noqa: S608 (a constant column list)


async def scan_events(
    db: Database,
    *,
    page_size: int,
    first: UUID = FIRST_ID,
    last: UUID = LAST_ID,
) -> AsyncIterator[list[asyncpg.Record]]:
    """Every event of the streams with ids from ``first`` to ``last``, in pages of at most
    ``page_size`` rows.

    Keyset pagination, each page its own statement: no transaction (and no snapshot
    holding back vacuum) lasts the whole scan.  A page may end inside a stream; the next
    one goes on from there.  Events committed while the scan runs are read if they sort
    after the position reached; a caller that must not miss any checks under a lock.
    """
    after = (first, 0)
    while True:
        rows = await db.fetch(_PAGE, *after, page_size, last)
        if rows:
            yield rows
        if len(rows) < page_size:
            return
        end = rows[-1]
        after = (end[0], end[1])


async def read_tails(db: Database, after: Mapping[UUID, int]) -> list[asyncpg.Record]:
    """The events of each stream in ``after`` past the version given for it."""
    return await db.fetch(_TAILS, list(after), list(after.values()))


async def read_versions(
    db: Database, stream_id: UUID, first: int, last: int
) -> list[asyncpg.Record]:
    """The events of one stream from version ``first`` to ``last``, inclusive."""
    return await db.fetch(_VERSIONS, stream_id, first, last)
