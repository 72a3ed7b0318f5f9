"""The worked examples of the text, played with the dice they imply.

Section 1's Goblin and Alice both claiming Cover, and section 8's Bonded Defence snippet
(Kaelia defending at 14 + 2 = 16 against an attack of 18, Nyx's -2 backlash).
"""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical.commands import (
    BondedDefence,
    Declare,
    NextPhase,
    PlaceToken,
    React,
    Resolve,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionBegan,
    ActionFailed,
    AttackRolled,
    DamageRolled,
    TokenClaimed,
)
from service.rulesets.aeonisk_tactical.plan import Attack, Claim
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, gunner, kaelia, nyx, rolls_of


def test_goblin_and_alice_claim_the_same_cover_and_alice_resolves_first() -> None:
    """Section 1, Tactical Interaction Example (AEK-13, AEK-15, AEK-17, AEK-38)."""
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.do(PlaceToken(id="cover-1", kind="cover", label="a solid crate"))
    rolled = table.start_round(12, 4)  # Alice 16 + 12 = 28, Goblin 8 + 4 = 12
    assert [r.total for r in rolls_of(rolled)] == [28, 12]
    claim = Claim(token="cover-1")
    # Declare Phase, ascending Initiative: the Goblin (12) first, then Alice (28).
    table.refuse(Declare(character="alice", minor=claim), "Goblin's turn to declare")
    table.do(Declare(character="goblin", minor=claim, defence_token="alice"))
    table.do(Declare(character="alice", minor=claim, defence_token="goblin"))
    table.do(NextPhase())  # Fast Phase: no Reactions
    table.do(NextPhase())  # Slow Phase
    first = table.do(Resolve())
    assert first == [
        ActionBegan(character="alice", slot="minor", action=claim),
        TokenClaimed(character="alice", token="cover-1"),
    ]
    second = table.do(Resolve())
    assert len(second) == 1 and isinstance(second[0], ActionFailed)
    assert second[0].character == "goblin" and second[0].slot == "minor"
    assert "already been claimed by Alice" in second[0].reason
    assert "fails to secure that specific token" in second[0].reason
    state = table.state
    assert state.tokens["cover-1"].holder == "alice"
    assert state.characters["goblin"].tactical is None
    table.refuse(Resolve(), "every declared action has resolved")


def test_kaelia_bonded_defence_16_against_attack_18_and_nyx_backlash() -> None:
    """Section 8 play snippet (AEK-61, AEK-64, AEK-A5, AEK-A25).

    Kaelia's defence: d20 5 + Will 3 x Agility 3 = 14, + 2 Bonded Defence = 16.  The
    gunner's attack: d20 10 + Perception 4 x Firearms 3 - 2 Near - 2 Kaelia's Defence
    Token = 18.  The text says '-> miss'; under hit_rule attack_ge_defence (and any
    comparison) 18 against 16 hits, so the ruleset resolves a hit (see the summary).
    """
    table = Table()
    table.setup(
        kaelia(),
        nyx(),
        gunner(),
        bands={("gunner", "kaelia"): "near", ("gunner", "nyx"): "near", ("kaelia", "nyx"): "near"},
    )
    table.start_round(
        10, 5, 9
    )  # Kaelia 22, Nyx 17, Gunner 17 (ties: Nyx's skill 3 = Gunner's 3, Nyx's Agility 3 > 2)
    shot = Attack(target="kaelia", weapon="rifle", attribute="perception", skill="firearms")
    table.do(Declare(character="gunner", major=shot, defence_token="nyx"))
    table.do(Declare(character="nyx", defence_token="gunner"))
    table.do(Declare(character="kaelia", defence_token="gunner"))
    table.do(NextPhase())
    table.do(React(character="nyx", reaction=BondedDefence(ally="kaelia", attacker="gunner")))
    table.do(NextPhase())
    events = table.do(Resolve(), [10], [5], [9])
    attack, defence, _damage = rolls_of(events)
    assert [d.face for d in defence.dice] == [5]
    assert defence.modifiers == (
        Modifier("Will 3 x Agility 3", 9),
        Modifier("Bonded Defence (Nyx)", 2),
    )
    assert defence.total == 16
    assert attack.modifiers == (
        Modifier("Perception 4 x Firearms 3", 12),
        Modifier("Near range", -2),
        Modifier("Kaelia's Defence Token", -2),
    )
    assert attack.total == 18 and attack.target == 16
    rolled = next(e for e in events if isinstance(e, AttackRolled))
    assert rolled.outcome == "hit" and rolled.defence == 16 and rolled.bonded_by == "nyx"
    assert any(isinstance(e, DamageRolled) for e in events)
    # Next time Nyx defends: -2 to that defence roll.
    assert table.state.characters["nyx"].backlash == 2
    assert table.narrated(events)[1] == (
        "Gunner rolls 1d20 for attack on Kaelia with rifle: d20 [10] +12 Perception 4 x "
        "Firearms 3 -2 Near range -2 Kaelia's Defence Token = 18 vs 16: hit (manual); "
        "Kaelia rolls 1d20 for defence against Gunner: d20 [5] +9 Will 3 x Agility 3 "
        "+2 Bonded Defence (Nyx) = 16 vs 18 (manual): Gunner hits Kaelia"
    )
