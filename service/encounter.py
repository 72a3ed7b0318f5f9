"""An encounter: the ruleset's state wrapped with what every encounter has.

The wrapper holds the name, ruleset, options and the dice counters (fairness epoch,
commitment, next server die index, number of rolls) that the service needs to hand out
fair dice; the ruleset's own state sits in ``game`` and is only touched by its evolve.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar, assert_never

import msgspec

from service.core_events import (
    CORE_EVENT_TYPES,
    DiceUnused,
    EncounterCreated,
    EncounterForked,
    HitPointsRolled,
    RequestAmended,
    RequestAnswered,
    RequestMade,
    RollsRevealed,
    Sealed,
    SeedCommitted,
    SeedRevealed,
)
from service.dice.counters import DiceCounters, count_rolls
from service.envelopes import Seal, sealed_as, still_sealed
from service.ruleset import Ruleset, rolls_of
from service.secrecy import NpcHealth

S = TypeVar("S")

_CORE_TYPES = frozenset(CORE_EVENT_TYPES)

CORE_SCHEMA_VERSION = 5
"""2: forks (``forked_from``); 3: secret rolls and the NPC health setting; 4: who asked
each waiting request; 5: sealed secret commands."""


class ForkOrigin(msgspec.Struct, frozen=True, kw_only=True):
    encounter_id: str
    version: int


class PendingRequest(msgspec.Struct, frozen=True, kw_only=True):
    """A player's request the GM has not answered yet (core_events.RequestMade)."""

    command: dict[str, Any]
    manual_dice: list[list[int]] | None = None
    note: str | None = None
    asked_by: str | None = None
    """The asking token's id (None: the service key)."""


class Encounter(msgspec.Struct, Generic[S], frozen=True, kw_only=True):
    name: str = ""
    ruleset: str = ""
    options: dict[str, Any] = {}
    version: int = 0
    dice: DiceCounters = DiceCounters()
    allow_player_dice: bool = False
    forked_from: ForkOrigin | None = None
    npc_health: NpcHealth = "descriptor"
    secret_rolls: tuple[str, ...] = ()
    """Hidden GM rolls not yet revealed (an undone one stays secret): what the GM can
    reveal, and what keeps the commands that made them out of players' sight."""
    requests: dict[str, PendingRequest] = {}
    """Players' requests waiting for the GM, by id (q1, q2 ...)."""
    requests_made: int = 0
    seals_made: int = 0
    """Envelopes so far (undone ones too): the next is ``s{seals_made + 1}``."""
    sealed: dict[str, Seal] = {}
    """Envelopes not opened yet, by seal id."""
    open_seals: tuple[str, ...] = ()
    """Secret commands in effect and not revealed that later commands may read from:
    every later command that reads the state is sealed (GM) or held (player) while
    there is one (service/taint.py).  Public: it counts envelopes, never what is in them."""
    secret_hit_points: tuple[str, ...] = ()
    """The secret rolls among ``secret_rolls`` that are monsters' hit points rolled as
    the encounter opened (core_events.HitPointsRolled): secret from players like any,
    but no command is sealed or held by them and the carry-over does not wait for them,
    since they decide no number but a monster's health, which ``npc_health`` hides."""
    game: S


def schema_version(ruleset: Ruleset[Any, Any, Any, Any]) -> int:
    """One number for the whole stored shape: the wrapper's and the ruleset's."""
    return CORE_SCHEMA_VERSION * 10_000 + ruleset.state_schema_version


def evolve_core(
    enc: Encounter[S], event: EncounterCreated | SeedCommitted | SeedRevealed
) -> Encounter[S]:
    match event:
        case EncounterCreated():
            return msgspec.structs.replace(
                enc,
                name=event.name,
                ruleset=event.ruleset,
                options=event.options,
                allow_player_dice=event.allow_player_dice,
                npc_health=event.npc_health,
            )
        case SeedCommitted():
            ended = enc.dice.ended_secrets
            if enc.dice.secret_server_rolls:
                ended = {**ended, enc.dice.epoch: enc.dice.secret_server_rolls}
            dice = msgspec.structs.replace(
                enc.dice,
                ended_secrets=ended,
                epoch=event.epoch,
                commitment=event.commitment,
                client_seed=event.client_seed,
                next_index=0,
                secret_commitment=event.secret_commitment,
                next_secret_index=0,
                secret_server_rolls=(),
            )
            return msgspec.structs.replace(enc, dice=dice)
        case SeedRevealed():
            revealed = (*enc.dice.revealed_epochs, event.epoch)
            return msgspec.structs.replace(
                enc, dice=msgspec.structs.replace(enc.dice, revealed_epochs=revealed)
            )
        case _ as unreachable:
            assert_never(unreachable)


def start(
    ruleset: Ruleset[Any, Any, Any, Any], first: EncounterCreated | EncounterForked
) -> Encounter[Any]:
    """The encounter right after its first event, version 1."""
    options = msgspec.convert(first.options, ruleset.options_type)
    if isinstance(first, EncounterForked):
        return Encounter(
            name=first.name,
            ruleset=first.ruleset,
            options=first.options,
            allow_player_dice=first.allow_player_dice,
            version=1,
            dice=DiceCounters(rolls_made=first.rolls_made),
            forked_from=ForkOrigin(encounter_id=str(first.origin_id), version=first.origin_version),
            npc_health=first.npc_health,
            secret_rolls=first.secret_rolls,
            game=msgspec.convert(first.game, ruleset.state_type),
        )
    enc: Encounter[Any] = Encounter(game=ruleset.initial_state(options))
    return msgspec.structs.replace(evolve_core(enc, first), version=1)


def evolve(
    ruleset: Ruleset[Any, Any, Any, Any],
    enc: Encounter[Any] | None,
    event: object,
    *,
    reverted: bool = False,
) -> Encounter[Any]:
    """Fold one domain event (core or ruleset) into the encounter, version + 1.

    ``enc`` is None only before the first event, which must be EncounterCreated or
    EncounterForked.  A ``reverted`` event (taken back by an undo) leaves the game as
    it was but still counts its dice: a server die index is never handed out twice, so
    a re-roll after an undo is a new roll, not a replay of the old one.  History events
    only advance the version here; what they change is worked out by the caller, which
    knows which events are in effect (service/loading.py).

    Every load and rebuild runs this once per event, and most events are the ruleset's:
    those are told apart by one set lookup of the exact type (core event types are final
    Structs) and folded with one copy of the wrapper, rather than an isinstance chain
    over the core types and a second copy for the version.
    """
    if enc is None:
        if not isinstance(event, EncounterCreated | EncounterForked):
            raise ValueError(f"a stream must start with encounter.created, not {event!r}")
        return start(ruleset, event)
    if type(event) not in _CORE_TYPES:  # most events: one set lookup, one copy
        game = enc.game if reverted else ruleset.evolve(enc.game, event)
        made = rolls_of(event)
        if not made:
            return msgspec.structs.replace(enc, game=game, version=enc.version + 1)
        secret = enc.secret_rolls + tuple(r.roll_id for r in made if r.hidden)
        return msgspec.structs.replace(
            enc,
            game=game,
            dice=count_rolls(enc.dice, made),
            secret_rolls=secret,
            version=enc.version + 1,
        )
    if isinstance(event, EncounterCreated | EncounterForked):
        raise ValueError(f"{event!r} can only be the first event of a stream")
    if isinstance(event, SeedCommitted | SeedRevealed):
        enc = evolve_core(enc, event)
    elif isinstance(event, RequestMade):
        pending = PendingRequest(
            command=event.command,
            manual_dice=event.manual_dice,
            note=event.note,
            asked_by=event.asked_by,
        )
        enc = msgspec.structs.replace(
            enc,
            requests={**enc.requests, event.request_id: pending},
            requests_made=enc.requests_made + 1,
        )
    elif isinstance(event, RequestAmended):
        was = enc.requests[event.request_id]
        now = msgspec.structs.replace(was, command=event.command, manual_dice=event.manual_dice)
        enc = msgspec.structs.replace(enc, requests={**enc.requests, event.request_id: now})
    elif isinstance(event, RequestAnswered):
        requests = {k: v for k, v in enc.requests.items() if k != event.request_id}
        enc = msgspec.structs.replace(enc, requests=requests)
    elif isinstance(event, HitPointsRolled):
        hidden = tuple(r.roll_id for r in event.rolls if r.hidden)
        enc = msgspec.structs.replace(
            enc,
            dice=count_rolls(enc.dice, event.rolls),
            secret_rolls=enc.secret_rolls + hidden,
            secret_hit_points=enc.secret_hit_points + hidden,
        )
    elif isinstance(event, DiceUnused):
        enc = msgspec.structs.replace(
            enc,
            dice=count_rolls(enc.dice, event.rolls),
            secret_rolls=enc.secret_rolls + tuple(r.roll_id for r in event.rolls if r.hidden),
        )
    elif isinstance(event, Sealed):
        enc = _sealed(ruleset, enc, event, reverted)
    elif isinstance(event, RollsRevealed):
        shown = frozenset(event.roll_ids)
        ended = {
            epoch: left
            for epoch, rolls in enc.dice.ended_secrets.items()
            if (left := tuple(r for r in rolls if r not in shown))
        }
        dice = msgspec.structs.replace(
            enc.dice,
            secret_server_rolls=tuple(r for r in enc.dice.secret_server_rolls if r not in shown),
            ended_secrets=ended,
        )
        open_seals = tuple(s for s in enc.open_seals if s not in shown)
        enc = msgspec.structs.replace(
            enc,
            dice=dice,
            secret_rolls=tuple(r for r in enc.secret_rolls if r not in shown),
            secret_hit_points=tuple(r for r in enc.secret_hit_points if r not in shown),
            sealed=still_sealed(enc.sealed, open_seals, shown),
            open_seals=open_seals,
        )
    # Undone, Redone and NoteAdded change nothing here but the version.
    return msgspec.structs.replace(enc, version=enc.version + 1)


def _sealed(
    ruleset: Ruleset[Any, Any, Any, Any], enc: Encounter[S], event: Sealed, reverted: bool
) -> Encounter[S]:
    """Fold an envelope: its inner events in order (the version is the caller's).

    Its rolls are numbered in its own namespace, so ``rolls_made`` (public roll ids)
    does not move; its secret dice are counted as any secret dice are."""
    inner = enc
    for event_in in event.inner:
        inner = evolve(ruleset, inner, event_in, reverted=reverted)
    rolls = tuple(r.roll_id for r in event.rolls)
    own = (event.seal_id, *rolls) if event.hidden else ()
    seal = sealed_as(event.seal_id, event.waits_for, rolls, enc.open_seals)
    taints = event.hidden and event.taints and not reverted
    return msgspec.structs.replace(
        inner,
        version=enc.version,
        dice=msgspec.structs.replace(inner.dice, rolls_made=enc.dice.rolls_made),
        secret_rolls=enc.secret_rolls + own,
        seals_made=enc.seals_made + 1,
        sealed={**enc.sealed, event.seal_id: seal},
        open_seals=(*enc.open_seals, event.seal_id) if taints else enc.open_seals,
    )
