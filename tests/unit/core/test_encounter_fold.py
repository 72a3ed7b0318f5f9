"""The encounter wrapper: versions, dice counters and the first event."""

from __future__ import annotations

import pytest

from service.core_events import EncounterCreated, SeedCommitted, SeedRevealed
from service.dice import ManualFaces, RollingDice, ServerFaces
from service.encounter import evolve
from service.rulesets.generic import RULESET
from service.rulesets.generic.commands import AddCombatant, Attack


def _start() -> object:
    enc = evolve(RULESET, None, EncounterCreated(name="T", ruleset="generic", options={}))
    return evolve(RULESET, enc, SeedCommitted(epoch=1, commitment="c", client_seed="s"))


def test_stream_must_start_with_encounter_created() -> None:
    with pytest.raises(ValueError, match=r"encounter\.created"):
        evolve(RULESET, None, SeedCommitted(epoch=1, commitment="c", client_seed="s"))


def test_dice_counters_follow_server_rolls_and_reset_per_epoch() -> None:
    enc = _start()
    for ident in ("a", "b"):
        (event,) = RULESET.decide(
            enc.game,
            AddCombatant(id=ident, name=ident, hp=5, stats={"ac": 1}),
            RollingDice(ManualFaces([]), next_roll_number=1),
        )
        enc = evolve(RULESET, enc, event)
    dice = RollingDice(
        ServerFaces(b"k" * 32, "s", 1, enc.dice.next_index),
        next_roll_number=enc.dice.rolls_made + 1,
    )
    for event in RULESET.decide(
        enc.game, Attack(attacker="a", target="b", notation="3d6", damage="1d4"), dice
    ):
        enc = evolve(RULESET, enc, event)
    assert enc.dice.rolls_made == 2 and enc.dice.next_index == 4
    assert enc.version == 2 + 2 + 2
    enc = evolve(RULESET, enc, SeedRevealed(epoch=1, seed="6b" * 32))
    enc = evolve(RULESET, enc, SeedCommitted(epoch=2, commitment="d", client_seed="t"))
    assert (enc.dice.epoch, enc.dice.next_index, enc.dice.rolls_made) == (2, 0, 2)
    assert enc.dice.revealed_epochs == (1,)
