"""The Defence Token (section 4) and Flanking (section 6): AEK-30..37, AEK-A9..A13."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    BondedDefence,
    Declare,
    ExtraDefenceToken,
    HeroicBurn,
    NextPhase,
    React,
    Resolve,
)
from service.rulesets.aeonisk_tactical.events import (
    DeclarationLapsed,
    ExtraTokenIgnored,
    HeroicBurnMade,
    PhaseStarted,
)
from service.rulesets.aeonisk_tactical.plan import Attack
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, gunner, kaelia, nyx, rolls_of

STAB = Attack(target="alice", weapon="knife", attribute="agility", skill="melee")


def _duel(options: AeoniskOptions | None = None, *extra: object) -> Table:
    table = Table(options)
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4)  # Alice 28, Goblin 12
    return table


def _stab(table: Table, **alice_declares: object) -> tuple[list[Modifier], list[Modifier]]:
    """The Goblin stabs Alice (d20 20, defence d20 1, damage d20 1); the modifiers of the
    attack and of Alice's defence roll beyond their Attribute x Skill."""
    table.declare(
        Declare(character="goblin", major=STAB, defence_token="alice"),
        Declare(character="alice", **alice_declares),  # type: ignore[arg-type]
    )
    rolls = rolls_of(table.do(Resolve(), [20], [1], [1]))
    return list(rolls[0].modifiers[1:]), list(rolls[1].modifiers[1:]) if len(rolls) > 2 else []


def test_the_allocated_foe_suffers_minus_2() -> None:
    attack, defence = _stab(_duel(), defence_token="goblin")
    assert attack == [Modifier("Alice's Defence Token", -2)]
    assert defence == []


def test_forgetting_the_token_gives_every_attacker_flanking() -> None:
    attack, defence = _stab(_duel())
    assert attack == [Modifier("Flanking: Alice has no Defence Token", 2)]
    assert defence == []


def test_an_unallocated_attacker_flanks_the_defence_roll() -> None:
    table = Table()
    table.setup(alice(), goblin(), gunner(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4, 1)  # Alice 28, Goblin 12, Gunner 0
    table.declare(
        Declare(character="gunner", defence_token="alice"),
        Declare(character="goblin", major=STAB, defence_token="alice"),
        Declare(character="alice", defence_token="gunner"),
    )
    rolls = rolls_of(table.do(Resolve(), [20], [1], [1]))
    assert rolls[1].modifiers[1:] == (Modifier("Flanking: Defence Token not on Goblin", -2),)


def test_against_static_defence_the_flanking_attacker_gains_2() -> None:
    table = Table()
    table.setup(alice(), goblin(), gunner(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4, 1)
    table.declare(
        Declare(character="gunner", defence_token="alice"),
        Declare(character="goblin", major=STAB, defence_token="alice"),
        Declare(character="alice", defence_token="gunner", defence="static"),
    )
    attack, *_rest = rolls_of(table.do(Resolve(), [20], [1]))
    assert attack.modifiers[1:] == (Modifier("Flanking: Alice's token is elsewhere", 2),)
    assert attack.target == 15  # Alice's static Defence


def test_the_token_goes_on_a_visible_foe() -> None:
    table = Table()
    table.setup(alice(), kaelia(), goblin(), bands={})
    table.start_round(12, 10, 4)
    table.do(Declare(character="goblin"))
    table.refuse(Declare(character="kaelia", defence_token="alice"), "goes on a visible foe")


def test_npcs_may_have_no_tokens() -> None:
    table = _duel(AeoniskOptions(defence_tokens_for_npcs=False))
    table.refuse(Declare(character="goblin", defence_token="alice"), "NPCs have no Defence Token")


def test_heroic_burn_at_allocation_is_minus_4_and_never_refreshes() -> None:
    table = _duel()
    attack, _ = _stab(table, defence_token="goblin", heroic_burn=True)
    assert attack == [Modifier("Alice's Defence Token (Heroic Burn)", -4)]
    assert table.state.characters["alice"].burned_round == 1
    table.do(NextPhase())
    table.start_round(12, 4)
    table.do(Declare(character="goblin", major=STAB))
    table.refuse(
        Declare(character="alice", defence_token="goblin"),
        "Defence Token is burned and does not refresh for the remainder of the combat",
    )
    table.declare(Declare(character="alice"))
    attack_roll = rolls_of(table.do(Resolve(), [20], [1], [1]))[0]
    assert attack_roll.modifiers[1:] == (Modifier("Flanking: Alice has no Defence Token", 2),)


def test_a_burned_token_need_not_count_as_missing() -> None:
    table = _duel(AeoniskOptions(burned_token_counts_as_missing=False))
    _stab(table, defence_token="goblin", heroic_burn=True)
    table.do(NextPhase())
    table.start_round(12, 4)
    table.declare(Declare(character="goblin", major=STAB), Declare(character="alice"))
    attack_roll, defence_roll, _ = rolls_of(table.do(Resolve(), [20], [1], [1]))
    assert attack_roll.modifiers[1:] == ()
    assert defence_roll.modifiers[1:] == ()  # no Flanking from the burned token either


def test_heroic_burn_as_a_reaction_to_being_attacked() -> None:
    table = _duel()
    table.do(Declare(character="goblin", major=STAB, defence_token="alice"))
    table.do(Declare(character="alice", defence_token="goblin"))
    table.do(NextPhase())
    events = table.do(React(character="alice", reaction=HeroicBurn()))
    assert events == [HeroicBurnMade(character="alice", foe="goblin", reaction=True)]
    assert table.state.characters["alice"].reaction_used
    table.refuse(
        React(character="alice", reaction=HeroicBurn()),
        "Heroic Burn is once per combat, and Alice has already burned the Defence Token",
    )
    table.do(NextPhase())
    attack = rolls_of(table.do(Resolve(), [20], [1], [1]))[0]
    assert attack.modifiers[1:] == (Modifier("Alice's Defence Token (Heroic Burn)", -4),)


def test_heroic_burn_needs_an_attack_from_the_token_holder() -> None:
    table = _duel()
    table.do(Declare(character="goblin", defence_token="alice"))
    table.do(Declare(character="alice", defence_token="goblin"))
    table.do(NextPhase())
    table.refuse(React(character="alice", reaction=HeroicBurn()), "reacts to being attacked")


def test_heroic_burn_needs_an_allocated_token() -> None:
    table = _duel()
    table.refuse(Declare(character="goblin", heroic_burn=True), "allocate it")


def test_full_defence_needs_its_yags_value() -> None:
    table = _duel()
    table.do(Declare(character="goblin", major=STAB))
    table.refuse(Declare(character="alice", defence="full"), "full defence needs the YAGS-core")


def test_full_defence_and_the_token_are_capped_at_6() -> None:
    """AEK-36: full defence with Bonded Defence and the token, within the +/-6 maximum."""
    table = Table(AeoniskOptions(full_defence_bonus=6))
    table.setup(kaelia(), nyx(), goblin(), bands={("goblin", "kaelia"): "engaged"})
    table.start_round(10, 5, 4)  # Kaelia 22, Nyx 17, Goblin 12
    stab = Attack(target="kaelia", weapon="knife", attribute="agility", skill="melee")
    table.declare(
        Declare(character="goblin", major=stab),
        Declare(character="nyx"),
        Declare(character="kaelia", defence_token="goblin", defence="full"),
        reactions=[
            React(character="nyx", reaction=BondedDefence(ally="kaelia", attacker="goblin"))
        ],
    )
    attack, defence, *_ = rolls_of(table.do(Resolve(), [20], [1], [1]))
    assert attack.modifiers[1:] == (Modifier("Kaelia's Defence Token", -2),)
    assert defence.modifiers[1:] == (
        Modifier("Bonded Defence (Nyx)", 2),
        Modifier("full defence", 6),
        Modifier("±6 cap", -2),
    )


def test_full_defence_takes_the_whole_turn() -> None:
    table = Table(AeoniskOptions(full_defence_bonus=4))
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4)
    table.refuse(
        Declare(character="goblin", defence="full", major=STAB),
        "cannot full-defend and take a Major",
    )


def test_an_extra_token_only_upgrades_the_one_held() -> None:
    table = _duel()
    events = table.do(
        Adjudicate(ruling=ExtraDefenceToken(character="alice"), reason="a tactical visor")
    )
    assert events == [ExtraTokenIgnored(character="alice", reason="a tactical visor")]


def test_flanking_in_engaged_and_the_token_do_not_stack_by_default() -> None:
    table = Table()
    table.setup(
        alice(),
        goblin(),
        goblin(id="grub", name="Grub"),
        bands={("alice", "goblin"): "engaged", ("alice", "grub"): "engaged"},
    )
    table.start_round(12, 4, 3)
    table.declare(
        Declare(character="grub"),
        Declare(character="goblin", major=STAB),
        Declare(character="alice"),
    )
    attack = rolls_of(table.do(Resolve(), [20], [1], [1]))[0]
    assert attack.modifiers[1:] == (Modifier("Flanking: Alice has no Defence Token", 2),)


def test_flanking_can_stack() -> None:
    table = Table(AeoniskOptions(flanking_stacks=True))
    table.setup(
        alice(),
        goblin(),
        goblin(id="grub", name="Grub"),
        bands={("alice", "goblin"): "engaged", ("alice", "grub"): "engaged"},
    )
    table.start_round(12, 4, 3)
    table.declare(
        Declare(character="grub"),
        Declare(character="goblin", major=STAB),
        Declare(character="alice"),
    )
    attack = rolls_of(table.do(Resolve(), [20], [1], [1]))[0]
    assert attack.modifiers[1:] == (
        Modifier("Flanking: Alice has no Defence Token", 2),
        Modifier("Flanking an enemy in Engaged", 2),
    )


def test_aek_32_the_gm_closes_the_declare_phase_and_the_forgetful_are_flanked() -> None:
    """Forgetting the token must be possible: the GM ends the Declare Phase, Alice's
    declaration lapses with an event saying so, and every attacker gains Flanking."""
    table = _duel()
    table.do(Declare(character="goblin", major=STAB, defence_token="alice"))
    table.refuse(
        NextPhase(),
        "the Declare Phase is not over: Alice still to declare \\(section 1\\); the GM may "
        "close it anyway",
    )
    events = table.do(NextPhase(close_declarations=True))
    assert events == [DeclarationLapsed(character="alice"), PhaseStarted(phase="fast", round=1)]
    assert table.narrated(events)[0] == (
        "Alice declared nothing before the GM closed the Declare Phase: no action this round "
        "and no Defence Token, so every attacker gains Flanking (+2) (section 4)"
    )
    assert table.state.declarations["alice"].lapsed
    table.refuse(
        Declare(character="alice", defence_token="goblin"),
        "Alice's declaration lapsed when the GM closed the Declare Phase",
    )
    table.do(NextPhase())
    attack = rolls_of(table.do(Resolve(), [20], [1], [1]))[0]
    assert attack.modifiers[1:] == (Modifier("Flanking: Alice has no Defence Token", 2),)


def test_close_declarations_only_ends_a_declare_phase() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice"))
    assert table.do(NextPhase(close_declarations=True)) == [PhaseStarted(phase="fast", round=1)]
    table.refuse(NextPhase(close_declarations=True), "close_declarations ends a Declare Phase")
