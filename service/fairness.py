"""Check every server roll of an encounter against the seeds the GM has revealed.

Pure: it reads the stream's own events only, which is exactly what a player can do with
``GET /encounters/{id}/events``, so the service proves nothing a player could not.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from service.core_events import SeedCommitted, SeedRevealed
from service.dice.fair import seed_matches, verify_record
from service.dice.model import RollRecord
from service.encounter import rolls_of


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
    manual = 0
    for event in events:
        match event:
            case SeedCommitted():
                epochs[event.epoch] = EpochReport(
                    epoch=event.epoch, commitment=event.commitment, client_seed=event.client_seed
                )
            case SeedRevealed():
                report = epochs[event.epoch]
                report.revealed, report.seed = True, event.seed
                report.seed_matches_commitment = seed_matches(
                    bytes.fromhex(event.seed), report.commitment
                )
            case _:
                for roll in rolls_of(event):
                    if roll.source == "manual" or roll.epoch is None:
                        manual += 1
                    else:
                        rolls_by_epoch.setdefault(roll.epoch, []).append(roll)
                        epochs[roll.epoch].server_rolls += 1
    unverifiable = 0
    for epoch, report in epochs.items():
        if not report.revealed or report.seed is None:
            unverifiable += report.server_rolls
            continue
        seed = bytes.fromhex(report.seed)
        for roll in rolls_by_epoch.get(epoch, []):
            if verify_record(roll, seed, report.client_seed, report.commitment):
                report.verified += 1
            else:
                report.mismatched.append(roll.roll_id)
    ok = all(not r.mismatched and r.seed_matches_commitment is not False for r in epochs.values())
    return DiceReport(
        ok=ok,
        epochs=sorted(epochs.values(), key=lambda r: r.epoch),
        manual_rolls=manual,
        unverifiable_rolls=unverifiable,
    )
