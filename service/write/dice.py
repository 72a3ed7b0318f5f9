"""A command's dice: the faces it rolls (the server's seeded ones, the manual ones a GM
gave, or none for an encounter imported without its seeds), the events a ruleset
decides with them, and the seeds of a new dice epoch.

Pure: the seeds come from the cache the unit of work made sure holds them
(service/write/state_cache.py).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from events.write import NewSeed
from service.codec import EventCodec
from service.commands import CommandEnvelope
from service.core_events import DiceUnused, SeedCommitted
from service.dice import ManualFaces, RollingDice, ServerFaces
from service.dice.fair import commitment, new_seed
from service.dice.unseeded import UnseededFaces
from service.encounter import Encounter
from service.ruleset import refuse_dice_not_rolled
from service.sealing import next_seal_id
from service.write.state_cache import Seeds


def decided(
    codec: EventCodec, encounter: Encounter[Any], envelope: CommandEnvelope, dice: RollingDice
) -> tuple[Any, ...]:
    """The ruleset's events for the command, then the manual faces it did not need; a
    command that rolled nothing refuses manual faces instead."""
    events = tuple(codec.ruleset.decide(encounter.game, envelope.command, dice))
    refuse_dice_not_rolled(dice, envelope.command)
    if unused := dice.unused_records():
        events = (*events, DiceUnused(rolls=unused))
    return events


def roll_source(dice: RollingDice, envelope: CommandEnvelope) -> str | None:
    if not dice.records:
        return None
    return "manual" if envelope.manual_dice is not None else "server"


def dice_for(
    seeds: Seeds,
    encounter_id: UUID,
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    *,
    in_envelope: bool = False,
) -> RollingDice:
    """The command's dice.  A command ``in_envelope`` draws from the secret seed and are
    numbered in its envelope's namespace (``s3.1``): neither the public die index nor the
    public roll ids may count them."""
    dice = encounter.dice
    if envelope.manual_dice is not None:
        faces: ManualFaces | ServerFaces | UnseededFaces = ManualFaces(envelope.manual_dice)
    else:
        secret = (envelope.hidden or in_envelope) and dice.secret_commitment is not None
        seed = seeds.get((encounter_id, -dice.epoch if secret else dice.epoch))
        index = dice.next_secret_index if secret else dice.next_index
        faces = (
            UnseededFaces(dice.epoch)
            if seed is None  # imported from an archive without its seeds
            else ServerFaces(seed, dice.client_seed, dice.epoch, index)
        )
    if in_envelope:
        prefix = f"{next_seal_id(encounter)}."
        return RollingDice(faces, next_roll_number=1, hidden=True, id_prefix=prefix)
    return RollingDice(faces, next_roll_number=dice.rolls_made + 1, hidden=envelope.hidden)


def new_epoch(epoch: int, client_seed: str) -> NewSeed:
    """Fresh seeds for a dice epoch, with the commitments published for them: one for
    every roll, one for secret rolls (stored under epoch ``-epoch``)."""
    seed, secret = new_seed(), new_seed()
    return NewSeed(epoch, seed, client_seed, commitment(seed), secret, commitment(secret))


def committed_to(seed: NewSeed) -> SeedCommitted:
    return SeedCommitted(
        epoch=seed.epoch,
        commitment=seed.commitment,
        client_seed=seed.client_seed,
        secret_commitment=seed.secret_commitment,
    )
