"""The tactical actions of section 7 (Suppress, Charge, Overwatch) and the combat
modifiers of section 6: AEK-56..59, AEK-A22..A24."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    ChooseSuppression,
    Declare,
    NextPhase,
    OverwatchFire,
    React,
    Resolve,
    SetProne,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionFailed,
    AttackRolled,
    BandChange,
    ChargeMade,
    DamageRolled,
    EffectsEnded,
    Moved,
    SuppressionChosen,
    SuppressionPending,
)
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Move, Overwatch, Reload, Suppress
from service.rulesets.aeonisk_tactical.rules import band
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, gunner, rolls_of

SUPPRESS = Suppress(target="alice", weapon="rifle", attribute="perception", skill="firearms")
CHARGE = Charge(target="gunner", weapon="blade", attribute="agility", skill="melee")


def _vs_gunner(start: str = "near", options: AeoniskOptions | None = None) -> Table:
    table = Table(options)
    table.setup(alice(), gunner(), bands={("alice", "gunner"): start})  # type: ignore[dict-item]
    table.start_round(12, 4)  # Alice 28, Gunner 12
    return table


def test_suppress_needs_rate_of_fire_3() -> None:
    table = _vs_gunner()
    weak = Suppress(target="alice", weapon="knife", attribute="perception", skill="firearms")
    table.refuse(
        Declare(character="gunner", major=weak),
        "Suppress needs a weapon with Rate of Fire 3 or more; knife has 1",
    )


def test_a_suppressing_hit_makes_the_target_choose_and_does_no_damage() -> None:
    table = _vs_gunner()
    table.declare(Declare(character="gunner", major=SUPPRESS), Declare(character="alice"))
    events = table.do(Resolve(), [15], [2])
    assert events[-1] == SuppressionPending(target="alice", by="gunner")
    assert not any(isinstance(e, DamageRolled) for e in events)
    table.refuse(NextPhase(), "Alice must first choose Dive or Hunker Down")
    table.refuse(
        ChooseSuppression(character="gunner", choice="dive"), "Gunner is not being suppressed"
    )


def test_dive_shifts_one_band_away_and_loses_cover() -> None:
    table = _vs_gunner()
    table.declare(Declare(character="gunner", major=SUPPRESS), Declare(character="alice"))
    table.do(Resolve(), [15], [2])
    events = table.do(ChooseSuppression(character="alice", choice="dive"))
    assert events == [
        SuppressionChosen(character="alice", choice="dive", lost_cover=False),
        Moved(character="alice", changes=(BandChange(other="gunner", before="near", after="far"),)),
    ]


def test_hunker_down_is_minus_4_to_attack_and_defence_until_the_next_turn() -> None:
    table = _vs_gunner()
    shot = Attack(target="gunner", weapon="pistol", attribute="perception", skill="firearms")
    table.declare(
        Declare(character="gunner", major=SUPPRESS), Declare(character="alice", major=shot)
    )
    # Alice (28) shoots first and misses; then the Gunner suppresses her.
    table.do(Resolve(), [1], [20])
    table.do(Resolve(), [15], [2])
    table.do(ChooseSuppression(character="alice", choice="hunker_down"))
    table.do(NextPhase())
    table.start_round(12, 4)
    table.declare(
        Declare(character="gunner", major=SUPPRESS), Declare(character="alice", major=shot)
    )
    events = table.do(Resolve(), [10], [10], [1])
    assert events[0] == EffectsEnded(character="alice", effects=("hunker_down",))
    assert Modifier("Hunker Down", -4) not in rolls_of(events)[0].modifiers


def test_hunker_down_penalises_attacks_made_before_the_next_turn() -> None:
    table = _vs_gunner()
    table.declare(Declare(character="gunner", major=SUPPRESS), Declare(character="alice"))
    table.do(Resolve(), [15], [2])
    table.do(ChooseSuppression(character="alice", choice="hunker_down"))
    table.do(NextPhase())
    table.start_round(1, 4)  # Alice at INIT 0 now acts after the Gunner
    table.declare(Declare(character="alice"), Declare(character="gunner", major=SUPPRESS))
    events = table.do(Resolve(), [15], [2])
    defence = rolls_of(events)[1]
    assert Modifier("Hunker Down", -4) in defence.modifiers


def test_charge_from_near_or_far_into_engaged_with_its_attack() -> None:
    table = _vs_gunner("far")
    table.declare(Declare(character="gunner"), Declare(character="alice", major=CHARGE))
    events = table.do(Resolve(), [10], [1], [5])
    assert events[1] == Moved(
        character="alice", changes=(BandChange(other="gunner", before="far", after="engaged"),)
    )
    assert events[2] == ChargeMade(character="alice", foe="gunner")
    attack = next(e for e in events if isinstance(e, AttackRolled))
    assert attack.kind == "charge" and attack.outcome == "hit"
    damage = rolls_of(events)[2]
    assert damage.modifiers == (
        Modifier("Strength 3", 3),
        Modifier("blade", 3),
        Modifier("Charge", 2),
    )
    assert band(table.state, "alice", "gunner") == "engaged"
    assert table.state.characters["alice"].charge_foe is None  # the +2 was the first roll


def test_charge_is_refused_from_engaged() -> None:
    table = _vs_gunner("engaged")
    table.do(Declare(character="gunner"))
    table.refuse(
        Declare(character="alice", major=CHARGE),
        "a Charge must start in the Near or Far band, and Alice is engaged to Gunner",
    )


def test_a_charger_defends_at_minus_2_until_their_next_turn() -> None:
    table = _vs_gunner("far")
    table.declare(Declare(character="gunner"), Declare(character="alice", major=CHARGE))
    table.do(Resolve(), [1], [20])  # the charge's attack misses
    table.do(NextPhase())
    table.start_round(1, 4)  # Alice at INIT 0: the Gunner acts before her next turn
    stab = Attack(target="alice", weapon="knife", attribute="agility", skill="athletics")
    table.declare(Declare(character="alice"), Declare(character="gunner", major=stab))
    events = table.do(Resolve(), [10], [10], [1])
    assert Modifier("Charged: defences -2", -2) in rolls_of(events)[1].modifiers


def test_a_failed_terrain_check_loses_the_charge_and_its_attack() -> None:
    table = _vs_gunner("far")
    rough = Charge(
        target="gunner", weapon="blade", attribute="agility", skill="melee", terrain="vacuum_breach"
    )
    table.declare(Declare(character="gunner"), Declare(character="alice", major=rough))
    events = table.do(Resolve(), [2])
    assert [type(e).__name__ for e in events] == ["ActionBegan", "CheckRolled", "ProneChanged"]


def test_charge_without_its_attack() -> None:
    table = _vs_gunner("far", AeoniskOptions(charge_includes_attack=False))
    table.declare(Declare(character="gunner"), Declare(character="alice", major=CHARGE))
    events = table.do(Resolve())
    assert [type(e).__name__ for e in events] == ["ActionBegan", "Moved", "ChargeMade"]


def _overwatching() -> Table:
    """Alice set up Overwatch on the Gunner in round 1; round 2 has begun."""
    table = _vs_gunner("far")
    watch = Overwatch(arc=("gunner",), weapon="pistol", attribute="perception", skill="firearms")
    table.declare(Declare(character="gunner"), Declare(character="alice", minor=watch))
    table.do(Resolve())
    table.do(NextPhase())
    table.start_round(12, 4)
    return table


def test_overwatch_fires_at_the_first_foe_acting_in_the_arc_once_per_round() -> None:
    table = _overwatching()
    move = Move(bands=1, reference="alice", direction="closer")
    table.do(Declare(character="gunner", minor=move))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    events = table.do(
        React(character="alice", reaction=OverwatchFire(target="gunner")), [12], [3], [4]
    )
    rolled = events[0]
    assert isinstance(rolled, AttackRolled) and rolled.kind == "overwatch"
    assert rolled.rolls[0].modifiers[1] == Modifier("Far range", -4)
    assert table.state.characters["alice"].watch is None
    table.refuse(
        React(character="alice", reaction=OverwatchFire(target="gunner")),
        "already used their Reaction",
    )


def test_overwatch_needs_an_armed_arc_and_a_foe_acting_in_it() -> None:
    table = _vs_gunner("far")
    watch = Overwatch(arc=("gunner",), weapon="pistol", attribute="perception", skill="firearms")
    table.do(Declare(character="gunner"))
    table.do(Declare(character="alice", minor=watch))
    table.do(NextPhase())
    table.refuse(
        React(character="alice", reaction=OverwatchFire(target="gunner")), "no Overwatch arc"
    )
    table = _overwatching()
    table.do(Declare(character="gunner"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(
        React(character="alice", reaction=OverwatchFire(target="gunner")),
        "Gunner is not a foe acting within Alice's arc",
    )


def test_overwatch_needs_a_ranged_weapon() -> None:
    table = _vs_gunner()
    table.do(Declare(character="gunner"))
    melee = Overwatch(arc=("gunner",), weapon="blade", attribute="agility", skill="melee")
    table.refuse(Declare(character="alice", minor=melee), "name a ranged weapon")


def test_prone_targets_running_shooters_and_reach() -> None:
    """Section 6: Prone target +2 melee / -4 ranged; running while shooting -2."""
    table = Table()
    table.setup(
        alice(),
        goblin(),
        gunner(),
        bands={
            ("alice", "goblin"): "engaged",
            ("gunner", "goblin"): "near",
            ("alice", "gunner"): "near",
        },
    )
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="tripped"))
    table.start_round(12, 2, 10)  # Alice 28, Gunner 18, Goblin 10
    stab = Attack(target="goblin", weapon="blade", attribute="agility", skill="melee")
    shot = Attack(
        target="goblin", weapon="rifle", attribute="perception", skill="firearms", running=True
    )
    table.declare(
        Declare(character="goblin", minor=Reload(weapon="smg")),
        Declare(character="gunner", major=shot),
        Declare(character="alice", major=stab),
    )
    melee = rolls_of(table.do(Resolve(), [1], [20]))[0]
    assert Modifier("Prone target (melee)", 2) in melee.modifiers
    ranged = rolls_of(table.do(Resolve(), [1], [20]))[0]
    assert Modifier("Prone target (ranged)", -4) in ranged.modifiers
    assert Modifier("Running while shooting", -2) in ranged.modifiers
    assert Modifier("Near range", -2) in ranged.modifiers


def test_running_while_shooting_needs_a_gun_and_melee_needs_reach() -> None:
    table = _vs_gunner("near")
    table.do(Declare(character="gunner"))
    bad = Attack(target="gunner", weapon="blade", attribute="agility", skill="melee", running=True)
    table.refuse(Declare(character="alice", major=bad), "needs a ranged weapon")
    stab = Attack(target="gunner", weapon="blade", attribute="agility", skill="melee")
    table.declare(Declare(character="alice", major=stab))
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed) and "out of reach" in failed.reason
