"""What each command appends: one handler per command type (service/write/commands.py),
chosen from ``HANDLERS``; each returns a ``Decision`` and writes nothing.

Handlers decide from the encounter as loaded (``Context``).  Most are pure.  Those that
read the store take the locked transaction's connection: revealing secret rolls reads
their epochs' secret seeds, an undo or a redo reads the stream's outline.  Only a
handler whose route says ``on_cached_state`` may run on the cached state without the
stream's lock (the unit of work's single trip); the others always run under it.  Dice
come from the seeds the unit of work made sure are cached (service/write/state_cache.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from uuid import UUID

from events.db import Connection
from events.seeds import secret_seeds
from service.authorize import authorize_player
from service.codec import EventCodec
from service.commands import CommandEnvelope
from service.core_events import RequestAnswered, RollsRevealed, SeedRevealed
from service.encounter import Encounter
from service.history import plan_redo, plan_undo
from service.loading import read_outline
from service.requests import amendment, approved_envelope, clearance, refusal, request_made
from service.ruleset import RuleViolation
from service.sealing import held, opened_by, sealed, seals
from service.write.commands import (
    AddNote,
    AmendRequest,
    AnswerRequest,
    ClearRequests,
    Command,
    MakeRequest,
    Redo,
    RevealRolls,
    RevealSeed,
    RulesetCommand,
    Undo,
)
from service.write.dice import committed_to, decided, dice_for, new_epoch, roll_source
from service.write.prepare import Decision
from service.write.state_cache import Seeds


class Context(NamedTuple):
    """What a handler decides from."""

    encounter_id: UUID
    encounter: Encounter[Any]
    codec: EventCodec
    seeds: Seeds
    conn: Connection | None
    """The transaction holding the stream's lock; None on the cached state."""


def _locked(context: Context) -> Connection:
    assert context.conn is not None, "a handler that reads the store runs under the lock"
    return context.conn


async def ruleset_command(command: RulesetCommand, context: Context) -> Decision:
    """A command of the encounter's ruleset, decided by it.  While secret commands are
    open a player's command is held for the GM within its limits, and a GM's is sealed
    (service/sealing.py)."""
    encounter, envelope = context.encounter, command.envelope
    context.codec.ensure_owns(envelope.command)
    if command.player is not None:
        authorize_player(context.codec.ruleset, encounter, envelope, command.player)
        if encounter.open_seals:
            return Decision(events=(held(encounter, envelope, command.asked_by, command.limits),))
    return _decided_command(context, envelope, ())


def _decided_command(
    context: Context, envelope: CommandEnvelope, after: tuple[Any, ...]
) -> Decision:
    """The command's events, then ``after``; in one envelope when it is sealed."""
    codec, encounter = context.codec, context.encounter
    sealing = seals(encounter, envelope)
    dice = dice_for(context.seeds, context.encounter_id, encounter, envelope, in_envelope=sealing)
    events = decided(codec, encounter, envelope, dice)
    if not sealing:
        return Decision(events=(*events, *after), roll_source=roll_source(dice, envelope))
    # The metadata is public: which source, from the command alone, not whether it rolled.
    source = "manual" if envelope.manual_dice is not None else "server"
    return Decision(events=(sealed(codec, encounter, envelope, events), *after), roll_source=source)


async def reveal_seed(command: RevealSeed, context: Context) -> Decision:
    """Publish the current epoch's seed and commit to a fresh one (a new epoch)."""
    dice = context.encounter.dice
    seed = context.seeds.get((context.encounter_id, dice.epoch))
    secret = context.seeds.get((context.encounter_id, -dice.epoch))
    if seed is None:
        raise RuleViolation(
            f"the seed of dice epoch {dice.epoch} did not come with this encounter's import,"
            " so this service cannot publish it"
        )
    fresh = new_epoch(dice.epoch + 1, command.next_client_seed or dice.client_seed)
    # The secret seed only when no roll drawn from it is still hidden: else it is
    # published with the reveal of the last of them.
    shown = secret.hex() if secret is not None and not dice.secret_server_rolls else None
    revealed = SeedRevealed(epoch=dice.epoch, seed=seed.hex(), secret_seed=shown)
    return Decision(events=(revealed, committed_to(fresh)), new_seed=fresh)


async def reveal_rolls(command: RevealRolls, context: Context) -> Decision:
    """Show the table secret GM rolls, with the secret seeds of the epochs whose last
    hidden roll this reveals."""
    encounter, roll_ids = context.encounter, list(command.roll_ids)
    secret = encounter.secret_rolls
    legacy = [r for r in roll_ids if not r.startswith("s")]
    if missing := [r for r in legacy if r not in secret]:
        raise _not_secret(missing[0])
    opened = opened_by(encounter, [r for r in roll_ids if r.startswith("s")])
    if opened is None:
        refused = next(
            r for r in roll_ids if r.startswith("s") and opened_by(encounter, [r]) is None
        )
        raise _not_secret(refused)
    roll_ids = [*legacy, *opened]
    shown = frozenset(roll_ids)
    done = [
        epoch for epoch, rolls in encounter.dice.ended_secrets.items() if shown.issuperset(rolls)
    ]
    seeds = await secret_seeds(_locked(context), context.encounter_id, done) if done else {}
    event = RollsRevealed(
        roll_ids=tuple(dict.fromkeys(roll_ids)),
        secret_seeds={str(epoch): seed.hex() for epoch, seed in seeds.items()},
    )
    return Decision(events=(event,))


def _not_secret(roll_id: str) -> RuleViolation:
    return RuleViolation(
        f"roll {roll_id!r} is not a secret roll still hidden in this encounter"
        " (no such roll, not a secret one, already revealed, or a command sealed only"
        " until the secrets it waits for are revealed)"
    )


async def request(command: MakeRequest, context: Context) -> Decision:
    """A player asks the GM to allow a command (service/requests.py)."""
    made = request_made(
        context.codec,
        context.encounter,
        command.envelope,
        command.note,
        command.player,
        asked_by=command.asked_by,
        limits=command.limits,
    )
    return Decision(events=(made,))


async def amend_request(command: AmendRequest, context: Context) -> Decision:
    """The GM changes a waiting request before answering it."""
    amended = amendment(
        context.codec, context.encounter, command.request_id, command.envelope, command.limits
    )
    return Decision(events=(amended,))


async def clear_requests(command: ClearRequests, context: Context) -> Decision:
    """The GM refuses every waiting request (of one token, if named) at once."""
    refused = clearance(context.encounter, command.reason, command.asked_by)
    if not refused:
        raise RuleViolation("no request is waiting for the GM's answer")
    return Decision(events=refused)


async def answer_request(command: AnswerRequest, context: Context) -> Decision:
    """The GM approves a request (its command decided now, as the GM's) or refuses it."""
    encounter, request_id = context.encounter, command.request_id
    if command.refuse_because is not None:
        return Decision(events=(refusal(encounter, request_id, command.refuse_because),))
    envelope = approved_envelope(context.codec, encounter, request_id, command.manual_dice)
    answered = RequestAnswered(request_id=request_id, approved=True)
    return _decided_command(context, envelope, (answered,))


async def add_note(command: AddNote, context: Context) -> Decision:
    """A GM note in the record (a core event: an undo never takes it back)."""
    return Decision(events=(command.note,))


async def undo(command: Undo, context: Context) -> Decision:
    """Take back what service/history.py plans from the stream's outline."""
    outline = await read_outline(_locked(context), context.encounter_id)
    planned = plan_undo(
        outline, steps=command.steps, to_version=command.to_version, reason=command.reason
    )
    return Decision(events=(planned,))


async def redo(command: Redo, context: Context) -> Decision:
    """Re-apply what the newest undo took back, unless a command came in since."""
    outline = await read_outline(_locked(context), context.encounter_id)
    return Decision(events=(plan_redo(outline, reason=command.reason),))


class Route(NamedTuple):
    handle: Callable[[Any, Context], Awaitable[Decision]]
    on_cached_state: bool = False
    """May be decided on the cached state, without the stream's lock (the common
    path): a pure handler whose refusal a stale state could explain is retried under
    the lock."""


HANDLERS: dict[type[Command], Route] = {
    RulesetCommand: Route(ruleset_command, on_cached_state=True),
    RevealSeed: Route(reveal_seed),
    RevealRolls: Route(reveal_rolls),
    MakeRequest: Route(request),
    AmendRequest: Route(amend_request),
    ClearRequests: Route(clear_requests),
    AnswerRequest: Route(answer_request),
    AddNote: Route(add_note),
    Undo: Route(undo),
    Redo: Route(redo),
}
"""Each command type's handler: the one place a command is routed."""
