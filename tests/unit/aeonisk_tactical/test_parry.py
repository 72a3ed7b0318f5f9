"""Parry, the first Reaction the text lists (AEK-14, AEK-21): committed in the Fast
Phase against a foe's declared attack, resolved with it in the Slow Phase as that
attack's defence roll, with YAGS numbers taken as inputs (AEK-A3, AEK-A34)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    BondedDefence,
    Declare,
    FreeStrike,
    NextPhase,
    Parry,
    React,
    Resolve,
)
from service.rulesets.aeonisk_tactical.events import AttackRolled, ParryCommitted
from service.rulesets.aeonisk_tactical.plan import Attack, Move
from service.rulesets.aeonisk_tactical.state import Pairing
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, rolls_of

STAB = Attack(target="alice", weapon="knife", attribute="agility", skill="melee")
BURST = Attack(target="alice", weapon="smg", attribute="agility", skill="athletics")
PARRY = Pairing(attribute="agility", skill="melee")


def _fast(major: Attack = STAB, options: AeoniskOptions | None = None, **sheet: object) -> Table:
    """Alice 28 and the Goblin 12, Engaged; the Goblin has declared ``major`` on Alice
    and the Fast Phase has begun."""
    table = Table(options)
    table.setup(alice(**sheet), goblin(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4)
    table.do(Declare(character="goblin", major=major, defence_token="alice"))
    table.do(Declare(character="alice", defence_token="goblin"))
    table.do(NextPhase())
    return table


def test_aek_14_a_parry_from_the_sheet_is_the_defence_roll_of_the_attack_it_answers() -> None:
    table = _fast(parry=PARRY)
    events = table.do(React(character="alice", reaction=Parry(attacker="goblin", bonus=2)))
    assert events == [
        ParryCommitted(
            character="alice", attacker="goblin", attribute="agility", skill="melee", bonus=2
        )
    ]
    assert table.narrated(events) == [
        "Alice uses their Reaction to Parry Goblin's attack: Agility x Melee +2 parry bonus "
        "for that defence"
    ]
    assert table.state.characters["alice"].reaction_used
    table.do(NextPhase())
    events = table.do(Resolve(), [10], [5])  # the Goblin's stab; Alice resolves nothing
    rolled = next(e for e in events if isinstance(e, AttackRolled))
    attack, parry = rolls_of([rolled])
    assert rolled.parried and rolled.outcome == "miss"
    assert parry.purpose == "parry against Goblin"
    assert parry.modifiers == (Modifier("Agility 4 x Melee 4", 16), Modifier("parry bonus", 2))
    assert attack.total == 14 and parry.total == 23  # 10 + 6 - 2 token; 5 + 16 + 2
    assert table.state.parries == ()


def test_aek_21_the_gm_enters_the_numbers_when_the_sheet_has_none() -> None:
    table = _fast()
    table.refuse(
        React(character="alice", reaction=Parry(attacker="goblin")),
        "Alice's sheet has no parry pairing, so name the attribute and skill",
    )
    table.refuse(
        React(character="alice", reaction=Parry(attacker="goblin", attribute="agility", skill="x")),
        "Alice has no skill 'x'",
    )
    table.do(
        React(
            character="alice",
            reaction=Parry(attacker="goblin", attribute="agility", skill="athletics"),
        )
    )
    table.do(NextPhase())
    parry = rolls_of(table.do(Resolve(), [10], [5]))[1]
    assert parry.modifiers == (Modifier("Agility 4 x Athletics 3", 12),)


def test_aek_21_a_parry_spends_the_reaction() -> None:
    table = _fast(parry=PARRY)
    table.do(React(character="alice", reaction=Parry(attacker="goblin")))
    table.refuse(
        React(character="alice", reaction=Parry(attacker="goblin")),
        "Alice has already used their Reaction this round",
    )


def test_aek_14_a_parry_answers_a_declared_attack_on_the_parrier() -> None:
    table = _fast(parry=PARRY)
    goblin_parries = Parry(attacker="alice", attribute="agility", skill="melee")
    table.refuse(
        React(character="goblin", reaction=goblin_parries),
        "Alice has no attack on Goblin still to resolve this round",
    )


def test_aek_14_a_parry_is_a_fast_phase_reaction_unless_reactions_interrupt() -> None:
    table = _fast(parry=PARRY)
    table.do(NextPhase())
    table.refuse(
        React(character="alice", reaction=Parry(attacker="goblin")),
        "Reactions are used in the Fast Phase",
    )
    interrupting = _fast(STAB, AeoniskOptions(reaction_timing="interrupt"), parry=PARRY)
    interrupting.do(NextPhase())
    interrupting.do(React(character="alice", reaction=Parry(attacker="goblin")))
    assert rolls_of(interrupting.do(Resolve(), [10], [5]))[1].purpose == "parry against Goblin"


def test_aek_a34_yags_parries_close_combat_blows_unless_the_option_allows_more() -> None:
    table = _fast(BURST, parry=PARRY)
    table.refuse(
        React(character="alice", reaction=Parry(attacker="goblin")),
        "a Parry turns aside a close-combat blow, and Goblin attacks with the smg, a ranged weapon",
    )
    allowed = _fast(BURST, AeoniskOptions(parry_ranged=True), parry=PARRY)
    allowed.do(React(character="alice", reaction=Parry(attacker="goblin")))
    assert allowed.state.parries[0].attacker == "goblin"


def test_a_parry_and_bonded_defence_are_one_reaction_each() -> None:
    """Parry is the defender's own Reaction; Bonded Defence stays its ally's (AEK-61)."""
    table = _fast(parry=PARRY)
    table.do(React(character="alice", reaction=Parry(attacker="goblin")))
    table.refuse(
        React(character="alice", reaction=BondedDefence(ally="goblin", attacker="goblin")),
        "already used their Reaction",
    )


def test_aek_14_a_parry_replaces_static_defence_against_that_attack() -> None:
    table = Table()
    table.setup(alice(parry=PARRY), goblin(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4)
    table.do(Declare(character="goblin", major=STAB))
    table.do(Declare(character="alice", defence="static"))
    table.do(NextPhase())
    table.do(React(character="alice", reaction=Parry(attacker="goblin")))
    table.do(NextPhase())
    rolled = next(e for e in table.do(Resolve(), [10], [5]) if isinstance(e, AttackRolled))
    assert rolled.parried and rolled.defence == 21  # 5 + Agility 4 x Melee 4, not static 15


def test_aek_21_a_parry_answers_the_declared_attack_not_a_breakaway_strike() -> None:
    table = Table()
    table.setup(alice(parry=PARRY), goblin(), bands={("alice", "goblin"): "engaged"})
    table.start_round(12, 4)
    table.do(Declare(character="goblin", major=STAB))
    step = Move(bands=1, reference="goblin", direction="away")
    table.do(Declare(character="alice", minor=step, defence_token="goblin"))
    table.do(NextPhase())
    table.do(React(character="alice", reaction=Parry(attacker="goblin")))
    table.do(NextPhase())
    table.do(Resolve())  # Alice breaks away
    strike = FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee")
    defence = rolls_of(table.do(strike, [2], [15]))[1]
    assert defence.purpose == "defence against Goblin"
    assert table.state.parries[0].attacker == "goblin"
