"""Check every server roll of an encounter against the seeds the GM has revealed.

Pure: it reads the stream's own events only, which is exactly what a player can do with
``GET /encounters/{id}/events``, so the service proves nothing a player could not.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from service.core_events import RollsRevealed, SeedCommitted, SeedRevealed
from service.dice.fair import seed_matches, verify_record
from service.dice.model import RollRecord
from service.ruleset import rolls_of


class EpochReport(msgspec.Struct, kw_only=True):
    epoch: int
    commitment: str
    client_seed: str
    revealed: bool = False
    seed: str | None = None
    seed_matches_commitment: bool | None = None
    server_rolls: int = 0
    verified: int = 0
    mismatched: list[str] = []
    """roll ids whose faces are not what the revealed seed dictates."""
    secret_commitment: str | None = None
    """The commitment of the epoch's secret seed (hidden server rolls are drawn from it)."""
    secret_seed_matches_commitment: bool | None = None
    secret_rolls: int = 0
    """Hidden server rolls of the epoch: checked once the epoch's secret seed is out."""
    secret_verified: int = 0


class DiceReport(msgspec.Struct, kw_only=True):
    ok: bool
    epochs: list[EpochReport]
    manual_rolls: int
    unverifiable_rolls: int
    """Server rolls of epochs whose seed is still secret."""
    error: str | None = None
    """Why the rolls could not be checked at all (events that no longer decode)."""


def verify_dice(events: Iterable[object]) -> DiceReport:
    epochs: dict[int, EpochReport] = {}
    rolls_by_epoch: dict[int, list[RollRecord]] = {}
    secret_by_epoch: dict[int, list[RollRecord]] = {}
    secret_seeds: dict[int, bytes] = {}
    manual = 0
    for event in events:
        match event:
            case SeedCommitted():
                epochs[event.epoch] = EpochReport(
                    epoch=event.epoch,
                    commitment=event.commitment,
                    client_seed=event.client_seed,
                    secret_commitment=event.secret_commitment,
                )
            case SeedRevealed():
                report = epochs[event.epoch]
                report.revealed, report.seed = True, event.seed
                report.seed_matches_commitment = seed_matches(
                    bytes.fromhex(event.seed), report.commitment
                )
                if event.secret_seed is not None and report.secret_commitment is not None:
                    secret_seeds[event.epoch] = bytes.fromhex(event.secret_seed)
                    report.secret_seed_matches_commitment = seed_matches(
                        secret_seeds[event.epoch], report.secret_commitment
                    )
            case RollsRevealed():
                for number, hex_seed in event.secret_seeds.items():
                    report = epochs[int(number)]
                    if report.secret_commitment is not None:
                        secret_seeds[report.epoch] = bytes.fromhex(hex_seed)
                        report.secret_seed_matches_commitment = seed_matches(
                            secret_seeds[report.epoch], report.secret_commitment
                        )
            case _:
                for roll in rolls_of(event):
                    if roll.source == "manual" or roll.epoch is None:
                        manual += 1
                    elif roll.hidden and epochs[roll.epoch].secret_commitment is not None:
                        secret_by_epoch.setdefault(roll.epoch, []).append(roll)
                        epochs[roll.epoch].secret_rolls += 1
                    else:
                        rolls_by_epoch.setdefault(roll.epoch, []).append(roll)
                        epochs[roll.epoch].server_rolls += 1
    unverifiable = 0
    for epoch, report in epochs.items():
        secret_seed = secret_seeds.get(epoch)
        if secret_seed is None:
            unverifiable += report.secret_rolls
        else:
            for roll in secret_by_epoch.get(epoch, []):
                if verify_record(roll, secret_seed, report.client_seed, report.secret_commitment):
                    report.secret_verified += 1
                else:
                    report.mismatched.append(roll.roll_id)
        if not report.revealed or report.seed is None:
            unverifiable += report.server_rolls
            continue
        seed = bytes.fromhex(report.seed)
        for roll in rolls_by_epoch.get(epoch, []):
            if verify_record(roll, seed, report.client_seed, report.commitment):
                report.verified += 1
            else:
                report.mismatched.append(roll.roll_id)
    ok = all(
        not r.mismatched
        and r.seed_matches_commitment is not False
        and r.secret_seed_matches_commitment is not False
        for r in epochs.values()
    )
    return DiceReport(
        ok=ok,
        epochs=sorted(epochs.values(), key=lambda r: r.epoch),
        manual_rolls=manual,
        unverifiable_rolls=unverifiable,
    )
