"""Round replay: the events of one round, each with its log line, rolls and the state
right after it, for a GM (or a player, through the public fold) to step through."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.store import read_stream
from projections.log_queries import UndoneMark, log_entries, read_marks
from projections.player_view import audience_of, encounter_as_seen, player_combatants
from service.encounter import Encounter
from service.loading import evolve_at, load_at, load_public, ruleset_of
from service.registry import codec_for


class RoundStep(msgspec.Struct, kw_only=True):
    version: int
    type: str
    text: str
    rolls: list[Any]
    undone: UndoneMark | None
    """Set when an undo took this event back: it is shown, but the state does not change."""
    state: Any
    """The encounter right after this event, as GET /encounters/{id} shows it."""


class RoundReplay(msgspec.Struct, kw_only=True):
    encounter_id: UUID
    round: int
    steps: list[RoundStep]


async def replay_round(
    db: Database, encounter_id: UUID, number: int, *, gm: bool
) -> RoundReplay | None:
    """Round ``number`` as the encounter stands now (an undone event is listed, marked,
    and leaves the state unchanged); None when the round has not been played.  Players
    see the public fold: commands with unrevealed secret rolls change nothing they see."""
    codec = codec_for(await ruleset_of(db, encounter_id))
    entries = await log_entries(
        db, encounter_id, after_version=0, limit=100_000, round_number=number, gm=gm
    )
    if not entries:
        return None
    first, last = entries[0].version, entries[-1].version
    shown = {e.version: e for e in entries}
    marks = await read_marks(db, encounter_id, secrets=not gm)
    secret = marks.secret_versions()
    skipped = set(marks.undone) | secret
    state = await _state_before(db, encounter_id, first, secret)
    players = None if gm else await player_combatants(db, encounter_id)
    steps = []
    for recorded in await read_stream(
        db, encounter_id, after_version=first - 1, up_to_version=last
    ):
        version = recorded.stream_version
        event = codec.from_recorded(recorded)
        state = evolve_at(codec.ruleset, state, event, version, reverted=version in skipped)
        if (entry := shown.get(version)) is not None:
            if players is None:
                seen = codec.encode_state(state)
            else:
                seen = encounter_as_seen(codec, state, audience_of(state, players))
            steps.append(
                RoundStep(
                    version=version,
                    type=entry.type,
                    text=entry.text,
                    rolls=entry.rolls,
                    undone=entry.undone,
                    state=msgspec.Raw(seen),
                )
            )
    return RoundReplay(encounter_id=encounter_id, round=number, steps=steps)


async def _state_before(
    db: Database, encounter_id: UUID, first: int, secret: frozenset[int]
) -> Encounter[Any] | None:
    if first == 1:
        return None
    earlier = frozenset(v for v in secret if v < first)
    if earlier:
        return await load_public(db, encounter_id, first - 1, earlier)
    return await load_at(db, encounter_id, first - 1)
