"""Refusals name the rule that forbids, not the phase that happens to be over: no
substitute for a failed action (AEK-17, AEK-54), one Minor a round (AEK-19), Heroic
Burn once per combat (AEK-35, AEK-A12), Void Surge before the attack roll (AEK-63,
AEK-A26)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical.commands import (
    Declare,
    NextPhase,
    PlaceToken,
    Resolve,
    VoidSurge,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionFailed,
    DamageRolled,
    StunChanged,
    VoidSurgeDeclared,
)
from service.rulesets.aeonisk_tactical.plan import Attack, Claim, Reload, Stand
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin

SHOT = Attack(target="goblin", weapon="pistol", attribute="perception", skill="firearms")
SURGING_SHOT = Attack(
    target="goblin", weapon="pistol", attribute="perception", skill="firearms", void_surge=True
)


def _duel() -> Table:
    """Alice 28 and the Goblin 12 at Near, round 1's Declare Phase."""
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.do(PlaceToken(id="cover", kind="cover", label="crates"))
    table.do(PlaceToken(id="ridge", kind="high_ground", label="a gantry"))
    table.start_round(12, 4)
    return table


def test_aek_17_a_failed_claim_may_not_be_replaced_by_another_minor() -> None:
    table = _duel()
    table.declare(
        Declare(character="goblin", minor=Claim(token="cover")),
        Declare(character="alice", minor=Claim(token="cover")),
    )
    table.do(Resolve())  # Alice claims first
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed) and failed.slot == "minor"
    table.refuse(
        Declare(character="goblin", minor=Claim(token="ridge")),
        "Goblin's Minor action failed and is spent: you may not substitute another action for "
        "it \\(section 5b\\)",
    )
    table.refuse(
        Declare(
            character="goblin",
            major=Attack(target="alice", weapon="smg", attribute="agility", skill="athletics"),
        ),
        "Goblin's Minor action failed and is spent: you may not substitute",
    )


def test_aek_19_a_second_minor_is_refused_because_the_minor_is_used() -> None:
    table = _duel()
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.refuse(
        Declare(character="goblin", minor=Stand()),
        "Goblin's Minor is declared \\(reload\\): a character may only perform one Minor "
        "action per round \\(section 2\\)",
    )
    table.declare(Declare(character="alice"))
    table.do(Resolve())
    table.refuse(
        Declare(character="goblin", minor=Stand()),
        "Goblin's Minor is used: a character may only perform one Minor action per round",
    )


def test_aek_35_a_second_heroic_burn_is_refused_as_once_per_combat() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice", defence_token="goblin", heroic_burn=True))
    once = "Heroic Burn is once per combat, and Alice has already burned the Defence Token"
    table.refuse(Declare(character="alice", defence_token="goblin", heroic_burn=True), once)
    table.do(NextPhase())
    table.refuse(Declare(character="alice", defence_token="goblin", heroic_burn=True), once)
    table.do(NextPhase())
    table.do(NextPhase())
    table.start_round(12, 4)
    table.do(Declare(character="goblin"))
    table.refuse(Declare(character="alice", defence_token="goblin", heroic_burn=True), once)


def test_aek_a12_a_burn_after_allocation_is_a_reaction_to_an_attack() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice", defence_token="goblin"))
    table.refuse(
        Declare(character="alice", defence_token="goblin", heroic_burn=True),
        "Alice has allocated the Defence Token: a Heroic Burn is now made as a reaction to "
        "being attacked",
    )


def test_aek_63_void_surge_is_declared_before_the_attack_roll() -> None:
    table = _duel()
    table.declare(Declare(character="goblin"), Declare(character="alice", major=SHOT))
    assert table.do(VoidSurge(character="alice")) == [
        VoidSurgeDeclared(character="alice"),
        StunChanged(character="alice", stun=1, reason="Void Surge backlash"),
    ]
    table.refuse(VoidSurge(character="alice"), "already carries a Void Surge")
    events = table.do(Resolve(), [12], [3], [4])
    assert not any(isinstance(e, StunChanged) for e in events)
    damage = next(e for e in events if isinstance(e, DamageRolled))
    assert Modifier("Void Surge", 4) in damage.rolls[0].modifiers


def test_aek_a26_a_late_void_surge_is_refused_because_the_attack_was_rolled() -> None:
    table = _duel()
    table.declare(Declare(character="goblin"), Declare(character="alice", major=SHOT))
    table.do(Resolve(), [1], [19])
    late = "Void Surge must be declared before the attack roll \\(section 8\\), and Alice's attack"
    table.refuse(VoidSurge(character="alice"), late)
    table.refuse(Declare(character="alice", major=SURGING_SHOT), late)


def test_void_surge_needs_a_declared_attack() -> None:
    table = _duel()
    table.declare(Declare(character="goblin"), Declare(character="alice"))
    table.refuse(VoidSurge(character="alice"), "Alice has no attack declared this round")
