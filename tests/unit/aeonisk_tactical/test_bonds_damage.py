"""Bond and Void hooks (section 8), damage, Wounds and the Health check: AEK-61..69,
AEK-A25, AEK-A26, AEK-A28, AEK-A29."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    BondedDefence,
    Declare,
    NextPhase,
    React,
    Resolve,
    SetValue,
    VoidSplash,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionFailed,
    CheckRolled,
    DamageRolled,
    FatalCheck,
    ShockSuffered,
    StunChanged,
    VoidChanged,
)
from service.rulesets.aeonisk_tactical.plan import Attack, BondRally
from tests.unit.aeonisk_tactical.fixtures import Table, gunner, kaelia, nyx, rolls_of

SHOOT_KAELIA = Attack(target="kaelia", weapon="rifle", attribute="perception", skill="firearms")
SHOOT_NYX = Attack(target="nyx", weapon="rifle", attribute="perception", skill="firearms")


def _crew(options: AeoniskOptions | None = None) -> Table:
    table = Table(options)
    table.setup(
        kaelia(),
        nyx(),
        gunner(),
        bands={("gunner", "kaelia"): "near", ("gunner", "nyx"): "near", ("kaelia", "nyx"): "near"},
    )
    table.start_round(10, 5, 9)  # Kaelia 22, Nyx 17, Gunner 17 (Nyx first on Agility)
    return table


def _set(table: Table, who: str, field: str, value: int) -> None:
    table.do(Adjudicate(ruling=SetValue(character=who, field=field, value=value), reason="setup"))


def test_bonded_defence_needs_a_bond_and_a_declared_attack() -> None:
    table = _crew()
    table.do(Declare(character="gunner", major=SHOOT_KAELIA))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="kaelia"))
    table.do(NextPhase())
    table.refuse(
        React(character="nyx", reaction=BondedDefence(ally="kaelia", attacker="nyx")),
        "Nyx has no attack on Kaelia",
    )
    table.refuse(
        React(character="gunner", reaction=BondedDefence(ally="kaelia", attacker="gunner")),
        "Kaelia is not Bonded to Gunner",
    )


def test_the_bonded_defence_backlash_hits_the_next_defence_roll() -> None:
    table = _crew()
    table.declare(
        Declare(character="gunner", major=SHOOT_KAELIA),
        Declare(character="nyx"),
        Declare(character="kaelia"),
        reactions=[
            React(character="nyx", reaction=BondedDefence(ally="kaelia", attacker="gunner"))
        ],
    )
    table.do(Resolve(), [1], [20])  # a miss
    table.do(NextPhase())
    table.start_round(10, 5, 9)
    table.declare(
        Declare(character="gunner", major=SHOOT_NYX),
        Declare(character="nyx"),
        Declare(character="kaelia"),
    )
    defence = rolls_of(table.do(Resolve(), [1], [20]))[1]
    assert Modifier("Bonded Defence backlash", -2) in defence.modifiers
    assert table.state.characters["nyx"].backlash == 0


def test_bond_rally_pulls_one_stun_from_a_bonded_ally() -> None:
    table = _crew()
    _set(table, "kaelia", "stun", 2)
    table.declare(
        Declare(character="gunner"),
        Declare(character="nyx", minor=BondRally(ally="kaelia")),
        Declare(character="kaelia"),
    )
    events = table.do(Resolve(), [8])  # Empathy 4 x Charm 3 + 8 = 20
    checked = events[1]
    assert isinstance(checked, CheckRolled) and checked.outcome == "success"
    assert checked.rolls[0].modifiers == (Modifier("Empathy 4 x Charm 3", 12),)
    assert events[2:] == [
        StunChanged(character="kaelia", stun=1, reason="Bond Rally: Nyx takes 1 Stun from Kaelia"),
        StunChanged(character="nyx", stun=1, reason="Bond Rally: Nyx takes 1 Stun from Kaelia"),
    ]


def test_a_failed_bond_rally_moves_nothing() -> None:
    table = _crew()
    _set(table, "kaelia", "stun", 2)
    table.declare(
        Declare(character="gunner"),
        Declare(character="nyx", minor=BondRally(ally="kaelia")),
        Declare(character="kaelia"),
    )
    events = table.do(Resolve(), [7])
    assert len(events) == 2 and table.state.characters["kaelia"].stun == 2


def test_bond_rally_needs_a_bond_and_stun_to_pull() -> None:
    table = _crew()
    table.do(Declare(character="gunner"))
    table.refuse(
        Declare(character="nyx", minor=BondRally(ally="gunner")), "Gunner is not Bonded to Nyx"
    )
    table.declare(
        Declare(character="nyx", minor=BondRally(ally="kaelia")), Declare(character="kaelia")
    )
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed) and "Kaelia has no Stun" in failed.reason


def test_void_surge_adds_4_damage_shock_on_a_hit_and_1_stun_backlash() -> None:
    table = _crew(AeoniskOptions(shock_init_penalty=5))
    surge = Attack(
        target="gunner", weapon="pistol", attribute="agility", skill="firearms", void_surge=True
    )
    table.declare(
        Declare(character="gunner"),
        Declare(character="nyx"),
        Declare(character="kaelia", major=surge),
    )
    assert table.state.characters["kaelia"].stun == 1  # "immediately" (AEK-63)
    events = table.do(Resolve(), [15], [1], [10])
    assert not any(isinstance(e, StunChanged) for e in events)
    damage = next(e for e in events if isinstance(e, DamageRolled))
    assert Modifier("Void Surge", 4) in damage.rolls[0].modifiers
    assert damage.damage == 2 + 4 + 10 + 4
    assert ShockSuffered(character="gunner", initiative=12, reason="Kaelia's Void Surge") in events


def test_void_surge_backlash_even_on_a_miss() -> None:
    table = _crew()
    surge = Attack(
        target="gunner", weapon="pistol", attribute="agility", skill="firearms", void_surge=True
    )
    table.declare(
        Declare(character="gunner"),
        Declare(character="nyx"),
        Declare(character="kaelia", major=surge),
    )
    assert table.state.characters["kaelia"].stun == 1
    events = table.do(Resolve(), [1], [20])
    assert not any(isinstance(e, ShockSuffered | StunChanged) for e in events)
    assert table.state.characters["kaelia"].stun == 1


def test_void_surge_is_locked_at_void_8() -> None:
    table = _crew()
    _set(table, "kaelia", "void", 8)
    surge = Attack(
        target="gunner", weapon="pistol", attribute="agility", skill="firearms", void_surge=True
    )
    table.do(Declare(character="gunner"))
    table.do(Declare(character="nyx"))
    table.refuse(Declare(character="kaelia", major=surge), "Void Surge is locked at Void 8 or more")


def test_void_splash_ruling() -> None:
    table = _crew()
    events = table.do(
        Adjudicate(ruling=VoidSplash(characters=("kaelia", "nyx")), reason="the slick")
    )
    assert events == [
        VoidChanged(character="kaelia", void=4, reason="the slick"),
        VoidChanged(character="nyx", void=6, reason="the slick"),
    ]


def _hit_kaelia(table: Table, damage_face: int, *more: list[int]) -> list[object]:
    table.declare(
        Declare(character="gunner", major=SHOOT_KAELIA),
        Declare(character="nyx"),
        Declare(character="kaelia", defence_token="gunner"),
    )
    return list(table.do(Resolve(), [20], [1], [damage_face], *more))


def test_wounds_one_per_hit_at_soak_and_one_more_per_full_five_over() -> None:
    """Gunner's damage: Strength 3 + rifle 6 + d20 against Kaelia's Soak 10 (AEK-A28)."""
    expected = {1: 1, 2: 1, 5: 1, 6: 2, 10: 2, 11: 3}
    for face, wounds in expected.items():
        table = _crew()
        damage = next(e for e in _hit_kaelia(table, face) if isinstance(e, DamageRolled))
        assert (damage.damage, damage.wounds) == (9 + face, wounds), face


def test_damage_below_soak_wounds_nothing() -> None:
    table = _crew()
    _set(table, "kaelia", "soak", 20)
    damage = next(e for e in _hit_kaelia(table, 5) if isinstance(e, DamageRolled))
    assert damage.wounds == 0 and damage.wounds_after == 0
    assert "below Soak 20: no Wound" in table.narrated(table.history[-1:])[0]


def test_the_health_check_at_5_wounds() -> None:
    table = _crew()
    _set(table, "kaelia", "wounds", 4)
    events = _hit_kaelia(table, 1, [13])  # 1 Wound -> 5; Health 3 x 2 + 13 = 19 vs 20
    fatal = events[-1]
    assert isinstance(fatal, FatalCheck) and fatal.outcome == "failure" and fatal.dead
    assert fatal.rolls[0].target == 20
    assert fatal.rolls[0].modifiers == (Modifier("Health 3 x 2", 6),)
    assert table.state.characters["kaelia"].status == "dead"
    table.do(NextPhase())
    table.start_round(5, 9)  # only the living roll
    table.refuse(Declare(character="kaelia"), "Kaelia is dead")


def test_the_health_check_dc_grows_5_per_extra_wound() -> None:
    table = _crew()
    _set(table, "kaelia", "wounds", 5)
    events = _hit_kaelia(table, 6, [19])  # 2 Wounds -> 7: DC 30; 6 + 19 = 25
    fatal = events[-1]
    assert isinstance(fatal, FatalCheck) and fatal.rolls[0].target == 30 and fatal.dead


def test_a_failed_health_check_can_be_left_to_the_gm() -> None:
    table = _crew(AeoniskOptions(fatal_failure_status="gm"))
    _set(table, "kaelia", "wounds", 4)
    fatal = _hit_kaelia(table, 1, [1])[-1]
    assert isinstance(fatal, FatalCheck) and fatal.outcome == "failure" and not fatal.dead
    assert table.state.characters["kaelia"].status == "active"


def test_the_health_check_can_wait_for_cleanup() -> None:
    table = _crew(AeoniskOptions(fatal_check_timing="cleanup"))
    _set(table, "kaelia", "wounds", 4)
    events = _hit_kaelia(table, 1)
    assert not any(isinstance(e, FatalCheck) for e in events)
    cleanup = table.do(NextPhase(), [20])
    assert isinstance(cleanup[-1], FatalCheck) and cleanup[-1].outcome == "success"
