"""A siege over many game rounds: the state stays small and folds fast (AEC-26)."""

from __future__ import annotations

import time

import msgspec

from service.rulesets.aeonis_combat import Event
from service.rulesets.aeonis_combat.commands import (
    Attack,
    Cleanup,
    Defend,
    EndAttack,
    Fight,
    Stand,
    StartRound,
)
from tests.unit.aeonis_combat.fixtures import RULESET, TARGET, faces, play, state_after, world

FORTRESS = {"0_0": {"kind": "fortress"}}
TIED_ROUND = faces(*[1] * 8)


def _rounds(count: int) -> list[Event]:
    history = world(**FORTRESS)
    history += play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(side="blue", hex=TARGET),
        ],
        history=history,
    )
    for number in range(count):
        if number:
            history += play(
                [
                    Cleanup(),
                    StartRound(),
                    Attack(side="red", hex=TARGET),
                    Defend(side="blue", hex=TARGET),
                ],
                history=history,
            )
        history += play(
            [
                (Fight(side="red", hex=TARGET), TIED_ROUND),
                Stand(side="red", hex=TARGET),
                EndAttack(side="red", hex=TARGET),
            ],
            history=history,
        )
    return history


def test_a_siege_over_forty_rounds_keeps_a_small_state() -> None:
    short, long = _rounds(3), _rounds(40)
    small, large = state_after(short), state_after(long)
    assert RULESET.round_of(large) == 40
    assert large.battles[TARGET].rounds_fought == 40 and large.battles[TARGET].step == "paused"
    size = len(msgspec.json.encode(large))
    assert size - len(msgspec.json.encode(small)) < 16  # only counters grew
    assert size < 3000
    started = time.perf_counter()
    state_after(long)
    assert time.perf_counter() - started < 0.5  # hundreds of events fold in well under that
