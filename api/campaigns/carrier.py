"""The carry-over process manager: when an encounter started from a campaign ends, what
it changed for the party goes back to the campaign, exactly once.

It reads every stream from a checkpoint (events/reading.py), as service-wide webhooks
are delivered, but never the events themselves: all it asks of a batch is which
encounters moved and how far (``moved_streams``).  Each turn, in one transaction: the
checkpoint row locked (another process skips its turn), a batch past it, and for every
encounter of a campaign the batch moved, its state at the last version
read (from its snapshot, as any write loads it): if the ruleset says it is
over (``CarryRules.ended``) the campaign decides ``campaign.carry_over`` at that version
and appends it; then the checkpoint moves past the batch.  The append and the move
commit together, so a crash before the commit carries nothing and the next turn reads
the batch again; the campaign refuses a version it already carried (or an older one),
and such a refusal counts as done.

Secret rolls stay secret: an encounter whose state still hides a roll (or a sealed
command) is held; the reveal is an event of its own, and the turn that reads it carries
the state the table may see.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection
from events.heads import stream_head
from events.reading import Checkpoint, moved_streams
from service.campaigns.commands import CarryOver
from service.campaigns.typed import rules_of
from service.encounter import Encounter
from service.loading import load_at
from service.ruleset import RuleViolation
from service.write.campaigns import CampaignWriter, gm_terms

log = logging.getLogger("aeon_ledger.carry_over")

BATCH = 5000
"""Events read per turn, about.  A turn costs a few round trips and a commit whatever
it reads, and a batch costs a row per encounter it moved (``moved_streams``), so under
load a large batch keeps the turns few: at 3,000 events/s a turn per poll."""
_NAME = "carrier"


class Carried(msgspec.Struct, frozen=True):
    """What one turn did: the encounters carried over, those held for a secret."""

    carried: tuple[tuple[UUID, int], ...] = ()
    held: tuple[UUID, ...] = ()
    refused: tuple[tuple[UUID, str], ...] = ()
    read: int = 0


def hides_a_secret(encounter: Encounter[Any]) -> bool:
    """Whether a secret roll or a sealed command may still shape what would carry.  The
    monsters' hit points rolled in secret do not: they decide no member's condition but
    through the fight, which is public."""
    rolls = set(encounter.secret_rolls) - set(encounter.secret_hit_points)
    return bool(rolls or encounter.open_seals or encounter.sealed)


def carry_over_of(
    encounter_id: UUID, version: int, encounter: Encounter[Any], *, automatic: bool = False
) -> CarryOver:
    """The campaign's command carrying ``encounter`` (its state at ``version``);
    ``automatic`` for the process manager's, which the campaign refuses once the GM undid
    the encounter's last carry-over."""
    return CarryOver(
        encounter=encounter_id,
        version=version,
        game=msgspec.to_builtins(encounter.game),
        automatic=automatic,
    )


async def carry_now(
    writer: CampaignWriter, conn: Connection, campaign_id: UUID, encounter_id: UUID
) -> list[Any]:
    """The GM's carry-over of an encounter as it stands (an Aeonis game never ends by
    itself), in the caller's transaction; refused while the state hides a secret."""
    linked = await _campaigns_of(conn, [encounter_id])
    if linked.get(encounter_id) != campaign_id:
        raise RuleViolation(f"encounter {encounter_id} was not started from this campaign")
    head = await stream_head(conn, encounter_id)
    encounter = await load_at(conn, encounter_id, head.version)
    if hides_a_secret(encounter):
        raise RuleViolation(
            "the encounter still hides a secret roll or a sealed command: reveal it first,"
            " so the campaign never holds what the table may not see"
        )
    command = carry_over_of(encounter_id, head.version, encounter)
    _, recorded = await writer.decided(conn, campaign_id, command, gm_terms())
    return list(recorded)


class Carrier:
    def __init__(self, pool: asyncpg.Pool, chain_key: bytes | None, poll_seconds: float = 0.5):
        self.pool, self.poll_seconds = pool, poll_seconds
        self.writer = CampaignWriter(pool, chain_key)

    async def turn(self) -> Carried:
        """One batch, carried over and checkpointed in one transaction."""
        async with self.pool.acquire() as conn, conn.transaction():
            at = await _locked_checkpoint(conn)
            if at is None:
                return Carried()
            moved = await moved_streams(conn, at, limit=BATCH)
            if not moved.read:
                return Carried()
            latest = moved.encounters
            done = Carried(read=moved.read)
            linked = await _campaigns_of(conn, list(latest))
            for encounter_id, campaign_id in linked.items():
                done = await self._consider(
                    conn, campaign_id, encounter_id, latest[encounter_id], done
                )
            await conn.execute(
                "UPDATE carry_over_checkpoint SET shards = $2 WHERE name = $1",
                _NAME,
                moved.past.stored(),
            )
            return done

    async def _consider(
        self,
        conn: Connection,
        campaign_id: UUID,
        encounter_id: UUID,
        version: int,
        done: Carried,
    ) -> Carried:
        encounter = await load_at(conn, encounter_id, version)
        if not rules_of(encounter.ruleset).ended(encounter.game):
            return done
        if hides_a_secret(encounter):
            return msgspec.structs.replace(done, held=(*done.held, encounter_id))
        command = carry_over_of(encounter_id, version, encounter, automatic=True)
        try:
            async with conn.transaction():  # a savepoint: a refusal undoes only itself
                await self.writer.decided(conn, campaign_id, command, gm_terms())
        except RuleViolation as refusal:
            # Already carried at this version or a later one, closed, or its carry-over
            # undone by the GM (who alone carries it again): done either way.
            log.info("carry-over of %s at %d refused: %s", encounter_id, version, refusal)
            return msgspec.structs.replace(
                done, refused=(*done.refused, (encounter_id, refusal.reason))
            )
        return msgspec.structs.replace(done, carried=(*done.carried, (encounter_id, version)))

    async def run(self) -> None:
        """Turns until cancelled; a failed turn is logged and tried again."""
        while True:
            try:
                done = await self.turn()
                if done.read >= BATCH:
                    # Behind: catch up at once.  A partial batch means it has caught up,
                    # so it waits for the poll: under load, a turn per few events would
                    # commit the checkpoint (a WAL flush) many times a second.
                    continue
            except asyncio.CancelledError:
                raise
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("carry-over lost the database (%s); trying again", exc)
            except Exception:
                log.exception("carry-over turn failed; trying again")
            await asyncio.sleep(self.poll_seconds)


async def _campaigns_of(conn: Connection, streams: list[UUID]) -> dict[UUID, UUID]:
    """The campaign of each of ``streams`` started from one (one query for a batch)."""
    rows = await conn.fetch(
        "SELECT stream_id, (data->>'campaign')::uuid AS campaign FROM events"
        " WHERE stream_id = ANY($1::uuid[]) AND stream_version = 1"
        " AND type = 'encounter.created' AND data->>'campaign' IS NOT NULL",
        streams,
    )
    return {r["stream_id"]: r["campaign"] for r in rows}


async def _locked_checkpoint(conn: Connection) -> Checkpoint | None:
    """The checkpoint, its row locked for this transaction; None while another process
    holds it (its turn is under way: this one waits for the next poll, holding nothing)."""
    await conn.execute(
        "INSERT INTO carry_over_checkpoint (name, shards) VALUES ($1, $2)"
        " ON CONFLICT (name) DO NOTHING",
        _NAME,
        Checkpoint().stored(),
    )
    shards = await conn.fetchval(
        "SELECT shards FROM carry_over_checkpoint WHERE name = $1 FOR UPDATE SKIP LOCKED", _NAME
    )
    return None if shards is None else Checkpoint.from_stored(shards)
