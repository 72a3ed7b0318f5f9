"""``aeon-ledger import``: take an archive (events/archive.py) into this service.

Lives in api/ because it joins the three layers: the event store writes the events as
recorded, the projections rebuild the encounter's read models from them, and the access
layer mints a GM token for the new home, all in one transaction: an import that fails
anywhere leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

import asyncpg
import msgspec

from events.archive import Archive, insert_archive, read_archive
from events.signing import sign_head
from projections.rebuild import rebuild_stream
from service.registry import get_ruleset
from service.tokens import MintedToken, mint

SEED_COMMITTED, SEED_REVEALED = "dice.seed_committed", "dice.seed_revealed"


class Imported(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: UUID
    gm_token: MintedToken
    events: int
    server_dice: bool
    """Whether the seeds of the open dice epoch came with the archive: without them (an
    archive a GM exported) the imported encounter plays on with manual dice only."""


def open_epoch_seeded(archive: Archive) -> bool:
    """The epoch still open at the archive's end has its stored seed in the archive."""
    committed = [e.data["epoch"] for e in archive.events if e.type == SEED_COMMITTED]
    revealed = {e.data["epoch"] for e in archive.events if e.type == SEED_REVEALED}
    open_epochs = [epoch for epoch in committed if epoch not in revealed]
    seeded = {s.epoch for s in archive.seeds}
    return all(epoch in seeded for epoch in open_epochs)


async def import_archive(
    pool: asyncpg.Pool, lines: Iterable[bytes], chain_key: bytes | None
) -> Imported:
    """Check the archive's chain, then store it; raises events.archive.BrokenArchive,
    StreamExists or service.registry.UnknownRuleset without writing anything."""
    archive = read_archive(lines)
    header = archive.header
    get_ruleset(header.ruleset)
    signature = (
        None
        if chain_key is None
        else sign_head(chain_key, header.encounter_id, header.version, header.last_hash)
    )
    async with pool.acquire() as conn, conn.transaction():
        await insert_archive(conn, archive, signature)
        await rebuild_stream(conn, header.encounter_id)
        token = await mint(conn, header.encounter_id, role="gm", label="imported")
    return Imported(
        encounter_id=header.encounter_id,
        gm_token=token,
        events=header.version,
        server_dice=open_epoch_seeded(archive),
    )
