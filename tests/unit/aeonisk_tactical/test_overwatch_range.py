"""Overwatch on a zone map (AEK-59, AEK-A24): the shot is at the foe entering or acting
in the watched arc, so its range is measured to the watched zone where that happens;
a pair of zones the map leaves without a band takes the GM's band (AEK-29)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Declare,
    NextPhase,
    OverwatchFire,
    React,
    Resolve,
)
from service.rulesets.aeonisk_tactical.events import AttackRolled
from service.rulesets.aeonisk_tactical.options import ZoneLink
from service.rulesets.aeonisk_tactical.plan import Attack, Move, Overwatch
from tests.unit.aeonisk_tactical.fixtures import Table, alice, gunner

ZONES = (
    ZoneLink(a="catwalk", b="crates", band="near"),
    ZoneLink(a="crates", b="bay", band="near"),
    ZoneLink(a="catwalk", b="bay", band="far"),
    ZoneLink(a="bay", b="tunnel", band="near"),
)


def _watching(*arc: str) -> Table:
    """Alice (catwalk) set up Overwatch over ``arc`` in round 1; the Gunner stands in
    the bay; round 2's Declare Phase has begun (Alice 28, Gunner 12)."""
    table = Table(AeoniskOptions(zone_map=ZONES))
    table.do(alice(zone="catwalk"))
    table.do(gunner(zone="bay"))
    table.start_round(12, 4)
    watch = Overwatch(arc=arc, weapon="pistol", attribute="perception", skill="firearms")
    table.declare(Declare(character="gunner"), Declare(character="alice", minor=watch))
    table.do(Resolve())
    table.do(NextPhase())
    table.start_round(12, 4)
    return table


def _shot(table: Table, fire: OverwatchFire) -> AttackRolled:
    events = table.do(React(character="alice", reaction=fire), [12], [3], [4])
    rolled = events[0]
    assert isinstance(rolled, AttackRolled) and rolled.kind == "overwatch"
    return rolled


def test_aek_59_the_range_is_to_the_watched_zone_the_foe_enters() -> None:
    table = _watching("crates")
    table.do(Declare(character="gunner", minor=Move(bands=1, zone="crates")))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    rolled = _shot(table, OverwatchFire(target="gunner"))
    modifiers = rolled.rolls[0].modifiers
    assert Modifier("Near range", -2) in modifiers  # catwalk -> crates, not the bay's Far
    assert Modifier("Far range", -4) not in modifiers


def test_aek_a24_a_foe_acting_within_a_watched_zone_is_shot_at_that_zone() -> None:
    table = _watching("bay")
    shot = Attack(target="alice", weapon="rifle", attribute="perception", skill="firearms")
    table.do(Declare(character="gunner", major=shot))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    rolled = _shot(table, OverwatchFire(target="gunner"))
    assert Modifier("Far range", -4) in rolled.rolls[0].modifiers


def test_aek_29_a_gap_in_the_zone_map_takes_the_gms_band() -> None:
    table = _watching("tunnel")
    table.do(Declare(character="gunner", minor=Move(bands=1, zone="tunnel")))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(
        React(character="alice", reaction=OverwatchFire(target="gunner")),
        "the zone map gives no band between catwalk and tunnel: the GM enters the band of the shot",
    )
    rolled = _shot(table, OverwatchFire(target="gunner", band="extreme"))
    assert Modifier("Extreme range", -6) in rolled.rolls[0].modifiers


def test_aek_a24_the_gm_band_is_only_for_gaps_in_the_map() -> None:
    table = _watching("crates")
    table.do(Declare(character="gunner", minor=Move(bands=1, zone="crates")))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(
        React(character="alice", reaction=OverwatchFire(target="gunner", band="far")),
        "the zone map gives Near between catwalk and crates",
    )
