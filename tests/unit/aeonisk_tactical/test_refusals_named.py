"""Refusals that name the rule the text gives for them: the Defence Token is allocated in
the Declare Phase and held one at a time (AEK-13, AEK-30, AEK-31, AEK-37), standing from
Prone is a Minor on the next turn (AEK-55, AEK-A30), and a command two rules forbid
names both; a Void Surge costs its Stun as it is declared (AEK-63, AEK-A26)."""

from __future__ import annotations

from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    Declare,
    NextPhase,
    Resolve,
    SetProne,
    VoidSurge,
)
from service.rulesets.aeonisk_tactical.events import ActionFailed, StunChanged
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Reload, Stand
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin

SHOT = Attack(target="goblin", weapon="pistol", attribute="perception", skill="firearms")


def _duel(band: str = "near") -> Table:
    """Alice 28 and the Goblin 12, round 1's Declare Phase."""
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): band})  # type: ignore[dict-item]
    table.start_round(12, 4)
    return table


def _token_on_goblin() -> Table:
    """Alice 28, the Goblin 12 and an Orc 11: Alice allocates her token to the Goblin."""
    table = Table()
    table.setup(
        alice(), goblin(), goblin(id="orc", name="Orc"), bands={("alice", "goblin"): "near"}
    )
    table.start_round(12, 4, 3)
    table.do(Declare(character="orc"))
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice", defence_token="goblin"))
    return table


def test_aek_13_aek_31_allocating_the_token_after_the_declare_phase_is_refused() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())  # the Fast Phase
    refused = table.refuse(
        Declare(character="alice", defence_token="goblin"),
        r"^the Defence Token is allocated in the Declare Phase, as the character declares "
        r"\(section 4\)$",
    )
    assert refused.rule == "AEK-13, AEK-31"


def test_aek_37_a_second_allocation_is_refused_as_one_token_is_held() -> None:
    table = _token_on_goblin()
    refused = table.refuse(
        Declare(character="alice", defence_token="orc"),
        r"^Alice holds one Defence Token, already allocated to Goblin for the entire round "
        r"\(section 4\)$",
    )
    assert refused.rule == "AEK-30, AEK-37"


def test_two_rules_forbidding_a_reallocation_are_both_named() -> None:
    """In the Fast Phase, moving the allocated token breaks two rules: when it is
    allocated, and that one is held for the round."""
    table = _token_on_goblin()
    table.do(NextPhase())
    refused = table.refuse(
        Declare(character="alice", defence_token="orc"),
        r"^the Defence Token is allocated in the Declare Phase, as the character declares "
        r"\(section 4\); and Alice holds one Defence Token, already allocated to Goblin",
    )
    assert refused.rule == "AEK-13, AEK-31, AEK-30, AEK-37"


def test_aek_55_standing_in_the_round_of_the_fall_is_refused_by_its_own_rule() -> None:
    """Knocked Prone before its Charge, the Goblin loses the Major; standing up now is
    refused because standing costs a Minor on the next turn, not as a substitution."""
    table = _duel("far")
    charge = Charge(target="alice", weapon="knife", attribute="agility", skill="melee")
    table.declare(Declare(character="goblin", major=charge), Declare(character="alice"))
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="a shove"))
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed)
    refused = table.refuse(
        Declare(character="goblin", minor=Stand()),
        r'^"Standing from Prone costs a Minor action on your next turn": Goblin declares '
        r"Stand in a later Declare Phase \(section 5b\)$",
    )
    assert refused.rule == "AEK-55, AEK-A30"
    assert "substitute" not in refused.reason


def test_standing_and_a_substitute_major_name_both_rules() -> None:
    table = _duel("far")
    charge = Charge(target="alice", weapon="knife", attribute="agility", skill="melee")
    table.declare(Declare(character="goblin", major=charge), Declare(character="alice"))
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="a shove"))
    table.do(Resolve())
    refused = table.refuse(
        Declare(character="goblin", major=Reload(weapon="smg"), minor=Stand()),
        r"Standing from Prone costs a Minor action.*; and Goblin's Major action failed and "
        r"is spent: you may not substitute",
    )
    assert refused.rule == "AEK-55, AEK-A30, AEK-54"


def test_aek_63_the_void_surge_stun_lands_when_declared_even_if_never_rolled() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice", major=SHOT))
    events = table.do(VoidSurge(character="alice"))
    assert events[-1] == StunChanged(character="alice", stun=1, reason="Void Surge backlash")
    assert table.state.characters["alice"].stun == 1
    table.do(NextPhase())  # the Fast Phase: the attack has not resolved
    assert table.state.characters["alice"].stun == 1


def test_aek_a26_a_surge_declared_with_the_attack_costs_its_stun_at_once() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    surge = Attack(
        target="goblin", weapon="pistol", attribute="perception", skill="firearms", void_surge=True
    )
    events = table.do(Declare(character="alice", major=surge))
    assert events[-1] == StunChanged(character="alice", stun=1, reason="Void Surge backlash")
