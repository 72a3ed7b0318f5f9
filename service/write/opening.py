"""The first event of a new stream: a new encounter's, its options checked against the
ruleset's, or a fork's, read from its origin; and the first dice commitment with it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from uuid import UUID

import msgspec

from events.db import Connection, Database
from events.store import stream_head
from events.write import NewSeed
from service.commands import CreatedEncounter
from service.core_events import EncounterCreated, EncounterForked
from service.encounter import Encounter, evolve, start
from service.loading import load_at
from service.options import check_options
from service.registry import codec_for, get_ruleset
from service.ruleset import rolls_of
from service.secrecy import NpcHealth
from service.write.dice import committed_to, new_epoch
from service.write.prepare import Decision, Respond

Also = Callable[[Connection, UUID, Encounter[Any], NewSeed], Awaitable[tuple[Any, ...]]]
"""Run in a new stream's transaction once the stream exists: the events that follow its
opening, decided on its state after its first dice commitment (with the seeds committed
to, so they may roll the encounter's fair dice), written with it or not at all (a
campaign records the encounter it starts and fills it: service/write/campaign_encounters.py)."""


def created(
    ruleset: str,
    name: str,
    options: dict[str, Any],
    allow_player_dice: bool,
    npc_health: NpcHealth,
) -> EncounterCreated:
    """The first event of a new encounter, its options checked against the ruleset's."""
    typed_options = check_options(get_ruleset(ruleset), options)
    return EncounterCreated(
        name=name,
        ruleset=ruleset,
        options=msgspec.to_builtins(typed_options),
        allow_player_dice=allow_player_dice,
        npc_health=npc_health,
    )


async def forked(
    db: Database,
    origin_id: UUID,
    at_version: int | None,
    name: str | None,
    public_game: dict[str, Any] | None,
) -> EncounterForked:
    """The first event of a fork of ``origin_id`` at ``at_version`` (None: its latest),
    read from the origin (which is only read)."""
    head = await stream_head(db, origin_id)
    version = head.version if at_version is None else at_version
    origin = await load_at(db, origin_id, version)
    codec = codec_for(origin.ruleset)
    first = EncounterForked(
        name=name or f"{origin.name} (fork at version {version})",
        ruleset=origin.ruleset,
        options=origin.options,
        allow_player_dice=origin.allow_player_dice,
        origin_id=origin_id,
        origin_version=version,
        game=msgspec.to_builtins(origin.game),
        rolls_made=origin.dice.rolls_made,
        npc_health=origin.npc_health,
        secret_rolls=origin.secret_rolls if public_game is not None else (),
        public_game=public_game,
    )
    assert codec.ruleset.name == first.ruleset
    return first


def opening(
    first: EncounterCreated | EncounterForked, client_seed: str | None, encounter_id: UUID
) -> tuple[Decision, Respond]:
    """A new stream's events (its first one and the first dice commitment), and its
    answer."""
    seed = new_epoch(1, client_seed or str(encounter_id))
    decision = Decision(events=(first, committed_to(seed)), new_seed=seed)

    def respond(final: Encounter[Any]) -> CreatedEncounter:
        return CreatedEncounter(
            encounter_id=encounter_id,
            ruleset=first.ruleset,
            name=first.name,
            version=final.version,
            dice_commitment=final.dice.commitment,
            client_seed=seed.client_seed,
            forked_from=final.forked_from,
            events=[],
        )

    return decision, respond


async def filled(decision: Decision, also: Also, conn: Connection, encounter_id: UUID) -> Decision:
    """A new stream's opening with what ``also`` adds, decided on the encounter as its
    opening leaves it; server rolls among them are the command's."""
    first, *rest = decision.events
    codec = codec_for(first.ruleset)
    opened = start(codec.ruleset, first)
    for event in rest:
        opened = evolve(codec.ruleset, opened, event)
    assert decision.new_seed is not None
    more = await also(conn, encounter_id, opened, decision.new_seed)
    rolled = any(rolls_of(e) for e in more)
    return msgspec.structs.replace(
        decision,
        events=(*decision.events, *more),
        roll_source="server" if rolled else decision.roll_source,
    )
