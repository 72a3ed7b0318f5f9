"""GET /encounters/{id}/stats: the combat statistics, folded from the events on request.

Derived from the events every time rather than stored: the figures can never disagree with
the events, time travel (``at``) costs nothing extra, and no rebuild is ever needed.  One
read of the stream; an encounter of a few thousand events folds in milliseconds.

What counts (docs/statistics.md): the combat figures (damage, healing, attacks, turns)
count only events in effect, so an undone attack is not in the damage meter.  The dice
figures count every face thrown, undone or not: a fairness check that let undo remove
faces would let a table cherry-pick its dice.  Players never see the rolls or facts of
commands still secret; once the GM reveals them they count for everyone.  Damage and
healing of a combatant whose health players may not see (docs/secrecy.md, "NPC health")
count in no figure they read: a sum of what a combatant took is its health by another name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import RecordedEvent
from events.store import read_stream
from projections.audience import players_audience
from projections.log_queries import read_marks
from service.combat_facts import CombatFact, Damage, Healing
from service.combat_stats import EncounterStats, Tally
from service.core_events import HitPointsRolled, Redone, Sealed, Undone
from service.encounter import Encounter, evolve
from service.history import reverted_versions
from service.loading import evolve_at, ruleset_of
from service.registry import codec_for
from service.ruleset import Ruleset, rolls_of
from service.secrecy import Audience

AnyRuleset = Ruleset[Any, Any, Any, Any]
_metadata = msgspec.json.Encoder(order="sorted")


async def encounter_stats(
    db: Database, encounter_id: UUID, *, at: int | None, gm: bool
) -> EncounterStats:
    tally = Tally()
    version = await tally_encounter(db, encounter_id, tally, at=at, gm=gm)
    return tally.result(version)


async def tally_encounter(
    db: Database, encounter_id: UUID, tally: Tally, *, at: int | None, gm: bool
) -> int:
    """Adds the encounter's figures (as of ``at``, as the GM or players read them) to
    ``tally``; the version they are as of."""
    codec = codec_for(await ruleset_of(db, encounter_id))
    ruleset = codec.ruleset
    recorded = await read_stream(db, encounter_id, up_to_version=at)
    events = [codec.from_recorded(r) for r in recorded]
    undone = reverted_versions(e for e in events if isinstance(e, Undone | Redone))
    secret: frozenset[int] = frozenset()
    revealed: frozenset[str] | None = None
    audience: Audience | None = None
    if not gm:
        marks = await read_marks(db, encounter_id, up_to_version=at, secrets=True)
        secret, revealed = marks.secret_versions(), marks.revealed
        audience = await players_audience(db, encounter_id)
    state: Encounter[Any] | None = None
    for stored, event in _opened(recorded, events, secret):
        version = stored.stream_version
        if version in secret:
            state = evolve(ruleset, state, event, reverted=True)
            continue
        in_effect = version not in undone
        command = (stored.recorded_at, _metadata.encode(stored.metadata))
        before = state
        state = evolve_at(ruleset, state, event, version, reverted=not in_effect)
        facts = (
            ruleset.combat_facts(before.game, event)
            if in_effect and before is not None and isinstance(event, ruleset.event_types)
            else ()
        )
        if audience is not None and facts and before is not None:
            facts = _seen(facts, audience, ruleset, before.game)
        made = rolls_of(event)
        if revealed is not None and type(event) is HitPointsRolled:
            # Secret hit point rolls keep no event secret: their faces count once revealed.
            made = tuple(r for r in made if not r.hidden or r.roll_id in revealed)
        tally.add(facts, made, stored.recorded_at, command)
    return recorded[-1].stream_version if recorded else 0


def _seen(
    facts: Sequence[CombatFact], audience: Audience, ruleset: AnyRuleset, game: Any
) -> Sequence[CombatFact]:
    """The facts players may count: all but harm and healing of a combatant whose numbers
    they may not see (through its owners, ``Ruleset.health_owners``)."""
    if audience.npc_health == "exact":
        return facts
    return [
        f
        for f in facts
        if not isinstance(f, Damage | Healing)
        or any(audience.shows_exact_health(o) for o in ruleset.health_owners(game, f.target))
    ]


def _opened(
    recorded: list[RecordedEvent], events: list[Any], secret: frozenset[int]
) -> list[tuple[RecordedEvent, Any]]:
    """The events with each envelope the reader may see in full replaced by its inner
    events (the statistics count what a sealed command did once it opens)."""
    out: list[tuple[RecordedEvent, Any]] = []
    for stored, event in zip(recorded, events, strict=True):
        if type(event) is Sealed and stored.stream_version not in secret:
            out += [(stored, inner) for inner in event.inner]
        else:
            out.append((stored, event))
    return out
