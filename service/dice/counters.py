"""What an encounter has drawn of its dice: the fairness epoch and its commitment, the
index of the next server die (public and secret), the rolls made, and the hidden rolls
whose seed cannot be published yet.  The service hands out fair dice from these; every
fold of a roll record moves them (``count_rolls``), reverted rolls too, so a die index is
never handed out twice."""

from __future__ import annotations

import msgspec

from service.dice.model import RollRecord


class DiceCounters(msgspec.Struct, frozen=True, kw_only=True):
    epoch: int = 0
    commitment: str = ""
    client_seed: str = ""
    next_index: int = 0
    """Index k of the next server die in the current epoch."""
    rolls_made: int = 0
    """Rolls of the whole encounter so far; roll ids are r1, r2, ..."""
    revealed_epochs: tuple[int, ...] = ()
    secret_commitment: str | None = None
    next_secret_index: int = 0
    """Index k of the next die drawn from the epoch's secret seed (hidden server rolls)."""
    secret_server_rolls: tuple[str, ...] = ()
    """Hidden server rolls of this epoch not revealed yet: its secret seed is published
    only once every one of them is."""
    ended_secrets: dict[int, tuple[str, ...]] = {}
    """The same for ended epochs whose secret seed is not published yet."""


def count_rolls(dice: DiceCounters, rolls: tuple[RollRecord, ...]) -> DiceCounters:
    if not rolls:
        return dice
    next_index, next_secret = dice.next_index, dice.next_secret_index
    secret_server = dice.secret_server_rolls
    for roll in rolls:
        if roll.source == "server" and roll.epoch == dice.epoch and roll.index is not None:
            end = roll.index + len(roll.dice)
            if roll.hidden and dice.secret_commitment is not None:
                next_secret = max(next_secret, end)
                secret_server = (*secret_server, roll.roll_id)
            else:
                next_index = max(next_index, end)
    return msgspec.structs.replace(
        dice,
        next_index=next_index,
        next_secret_index=next_secret,
        secret_server_rolls=secret_server,
        rolls_made=dice.rolls_made + len(rolls),
    )
