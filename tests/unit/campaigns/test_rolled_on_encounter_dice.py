"""Hit points rolled on the new encounter's own fair dice: which seed they come from, and
how the encounter folds the event that records them (service/write/campaign_encounters.py,
service/encounter.py)."""

from __future__ import annotations

from typing import Any

import pytest

from api.campaigns.carrier import hides_a_secret
from events.write import NewSeed
from service.core_events import (
    EncounterCreated,
    HitPointsRolled,
    RolledCopy,
    RollsRevealed,
)
from service.dice.fair import die_face
from service.encounter import Encounter, evolve, start
from service.registry import get_ruleset
from service.secrecy import NpcHealth
from service.write.campaign_encounters import hit_point_dice
from service.write.dice import committed_to, new_epoch

GENERIC = get_ruleset("generic")


def _opened(npc_health: NpcHealth) -> tuple[Encounter[Any], NewSeed]:
    created = EncounterCreated(name="x", ruleset="generic", options={}, npc_health=npc_health)
    seed = new_epoch(1, "client")
    return evolve(GENERIC, start(GENERIC, created), committed_to(seed)), seed


@pytest.mark.parametrize("npc_health", ["exact", "descriptor", "hidden"])
def test_the_seed_follows_what_the_table_shows_of_monsters(npc_health: NpcHealth) -> None:
    encounter, seed = _opened(npc_health)
    dice = hit_point_dice(encounter, seed)
    record = dice.roll("2d6+1", purpose="hit points of Goblin 1")
    secret = npc_health != "exact"
    drawn_from = seed.secret_seed if secret else seed.seed
    assert record.hidden is secret and record.source == "server"
    assert (record.roll_id, record.epoch, record.index) == ("r1", 1, 0)
    assert [d.face for d in record.dice] == [die_face(drawn_from, "client", k, 6) for k in (0, 1)]
    assert record.total == sum(d.face for d in record.dice) + 1


def test_secret_hit_points_are_secret_rolls_that_hold_no_carry_over() -> None:
    encounter, seed = _opened("hidden")
    dice = hit_point_dice(encounter, seed)
    rolls = tuple(dice.roll("1d8", purpose=f"hit points of Rat {n}") for n in (1, 2))
    copies = tuple(
        RolledCopy(id=f"rat-{n}", name=f"Rat {n}", hit_points=r.total)
        for n, r in enumerate(rolls, 1)
    )
    rolled = evolve(GENERIC, encounter, HitPointsRolled(copies=copies, rolls=rolls))
    assert rolled.secret_rolls == rolled.secret_hit_points == ("r1", "r2")
    assert (rolled.dice.next_index, rolled.dice.next_secret_index) == (0, 2)
    assert rolled.dice.secret_server_rolls == ("r1", "r2") and rolled.dice.rolls_made == 2
    assert rolled.game == encounter.game  # the copies come in by the ruleset's own commands
    assert not hides_a_secret(rolled)

    revealed = evolve(GENERIC, rolled, RollsRevealed(roll_ids=("r1", "r2")))
    assert revealed.secret_rolls == revealed.secret_hit_points == ()
    assert revealed.dice.secret_server_rolls == ()


def test_public_hit_points_are_public_rolls() -> None:
    encounter, seed = _opened("exact")
    roll = hit_point_dice(encounter, seed).roll("1d8", purpose="hit points of Rat")
    copy = RolledCopy(id="rat", name="Rat", hit_points=roll.total)
    rolled = evolve(GENERIC, encounter, HitPointsRolled(copies=(copy,), rolls=(roll,)))
    assert rolled.secret_rolls == () and rolled.dice.next_index == 1
