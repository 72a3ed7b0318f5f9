"""Tactical Tokens (section 5): claim, swap, spend, discard, the cap, and each token's
effect (AEK-38..50, AEK-A14, AEK-A15, AEK-A17, AEK-A18, AEK-A33)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    ClearObscurement,
    Declare,
    NextPhase,
    NullifyEnergy,
    PlaceToken,
    React,
    Resolve,
    SpendToken,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionFailed,
    BandChange,
    CheckRolled,
    DamageRolled,
    EffectsEnded,
    EnergyNullified,
    Moved,
    Obscured,
    ObscurementCleared,
    ProneChanged,
    TokenClaimed,
    TokenSpent,
)
from service.rulesets.aeonisk_tactical.fields import Band, TokenKind
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Claim, Move, Swap, Task
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, nyx, rolls_of

SHOT = Attack(target="alice", weapon="smg", attribute="agility", skill="melee")
ALICE_SHOOTS = Attack(target="goblin", weapon="pistol", attribute="perception", skill="firearms")


def _holding(kind: TokenKind, band: Band = "near") -> Table:
    """Alice claimed a ``kind`` token in round 1; round 2's Declare Phase has begun."""
    table = Table()
    table.setup(
        alice(), goblin(), nyx(), bands={("alice", "goblin"): band, ("goblin", "nyx"): "far"}
    )
    table.do(PlaceToken(id="t1", kind=kind, label="the spot"))
    table.start_round(12, 4, 2)  # Alice 28, Nyx 14, Goblin 12
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice", minor=Claim(token="t1")),
    )
    assert table.do(Resolve())[1] == TokenClaimed(character="alice", token="t1")
    table.do(NextPhase())
    table.start_round(12, 4, 2)
    return table


def test_a_token_claimed_this_round_is_spent_from_the_next_fast_phase() -> None:
    table = Table()
    table.setup(alice(), goblin(), bands={})
    table.do(PlaceToken(id="t1", kind="cover", label="crates"))
    table.start_round(12, 4)
    table.declare(Declare(character="goblin"), Declare(character="alice", minor=Claim(token="t1")))
    table.do(Resolve())
    table.refuse(
        React(character="alice", reaction=SpendToken()), "Reactions are used in the Fast Phase"
    )
    table.do(NextPhase())
    table.start_round(12, 4)
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.do(React(character="alice", reaction=SpendToken()))


def test_spending_in_the_round_of_the_claim_is_refused() -> None:
    """Even where Reactions interrupt the Slow Phase, the claim round cannot spend."""
    table = Table(AeoniskOptions(reaction_timing="interrupt"))
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.do(PlaceToken(id="t1", kind="cover", label="crates"))
    table.start_round(12, 4)
    table.declare(
        Declare(character="goblin", major=SHOT), Declare(character="alice", minor=Claim(token="t1"))
    )
    table.do(Resolve())
    table.refuse(
        React(character="alice", reaction=SpendToken()),
        "claimed this round; it can be spent from the next round's Fast Phase",
    )


def test_one_token_at_a_time_and_swapping() -> None:
    table = _holding("cover")
    table.do(PlaceToken(id="t2", kind="high_ground", label="the catwalk"))
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.refuse(
        Declare(character="alice", minor=Claim(token="t2")),
        "only one Tactical Token can be active per character at a time",
    )
    table.declare(Declare(character="alice", minor=Swap(token="t2")))
    (_, claimed) = table.do(Resolve())
    assert claimed == TokenClaimed(character="alice", token="t2", returned="t1")
    state = table.state
    assert state.tokens["t1"].holder is None and state.tokens["t2"].holder == "alice"


def test_a_token_held_by_someone_cannot_be_declared() -> None:
    table = _holding("cover")
    table.refuse(Declare(character="goblin", minor=Claim(token="t1")), "already held by Alice")
    table.refuse(Declare(character="goblin", minor=Swap(token="t9")), "no Tactical Token 't9'")


def test_cover_adds_2_soak_against_one_attack_and_is_discarded() -> None:
    table = _holding("cover")
    table.declare(
        Declare(character="goblin", major=SHOT),
        Declare(character="nyx"),
        Declare(character="alice"),
        reactions=[React(character="alice", reaction=SpendToken())],
    )
    assert "t1" not in table.state.tokens and table.state.characters["alice"].cover_mod == 2
    events = table.do(Resolve(), [20], [1], [20])
    damage = next(e for e in events if isinstance(e, DamageRolled))
    assert damage.soak == 14 and damage.used == ("cover",)
    assert table.state.characters["alice"].cover_mod == 0


def test_unused_cover_ends_at_cleanup() -> None:
    table = _holding("cover")
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice"),
        reactions=[React(character="alice", reaction=SpendToken())],
    )
    events = table.do(NextPhase())
    assert EffectsEnded(character="alice", effects=("cover",)) in events


def test_high_ground_adds_2_and_ignores_the_near_penalty() -> None:
    table = _holding("high_ground")
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice", major=ALICE_SHOOTS),
        reactions=[React(character="alice", reaction=SpendToken())],
    )
    attack = rolls_of(table.do(Resolve(), [10], [10], [1]))[0]
    assert attack.modifiers[1:] == (
        Modifier("Near range ignored (High-Ground)", 0),
        Modifier("Flanking: Goblin has no Defence Token", 2),
        Modifier("High-Ground", 2),
    )


def test_high_ground_needs_an_attack() -> None:
    table = _holding("high_ground")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(React(character="alice", reaction=SpendToken()), "no attack declared this round")


def test_energy_hub_banks_2_for_the_next_damage_roll_until_used_or_nullified() -> None:
    table = _holding("energy_hub", band="near")
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice"),
        reactions=[React(character="alice", reaction=SpendToken())],
    )
    table.do(NextPhase())
    assert table.state.characters["alice"].energy_bonus == 2  # survives Cleanup
    table.start_round(12, 4, 2)
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice", major=ALICE_SHOOTS),
    )
    events = table.do(Resolve(), [20], [1], [1])
    damage = rolls_of(events)[2]
    assert Modifier("Energy Hub", 2) in damage.modifiers
    assert table.state.characters["alice"].energy_bonus == 0


def test_the_gm_nullifies_a_banked_energy_hub() -> None:
    table = _holding("energy_hub")
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx"),
        Declare(character="alice"),
        reactions=[React(character="alice", reaction=SpendToken())],
    )
    events = table.do(
        Adjudicate(ruling=NullifyEnergy(character="alice"), reason="the conduit blew")
    )
    assert events == [EnergyNullified(character="alice", reason="the conduit blew")]
    table.refuse(
        Adjudicate(ruling=NullifyEnergy(character="alice"), reason="again"), "no Energy Hub"
    )


def test_vent_obscures_until_its_time_is_up() -> None:
    table = _holding("vent")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    events = table.do(React(character="alice", reaction=SpendToken(rounds=1)))
    assert events[1] == Obscured(by="alice", label="the spot", until_round=2)
    table.do(NextPhase())
    assert ObscurementCleared() in table.do(NextPhase())


def test_the_gm_can_clear_a_vent_early() -> None:
    table = _holding("vent")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.do(React(character="alice", reaction=SpendToken(rounds=3)))
    events = table.do(Adjudicate(ruling=ClearObscurement(), reason="the fans kicked in"))
    assert events == [ObscurementCleared(reason="the fans kicked in")]


def test_ley_node_adds_2_to_a_ritual() -> None:
    table = Table()
    table.setup(nyx(), goblin(), bands={})
    table.do(PlaceToken(id="t1", kind="ley_node", label="a glowing sigil"))
    table.start_round(10, 4)  # Nyx 22, Goblin 12
    table.declare(Declare(character="goblin"), Declare(character="nyx", minor=Claim(token="t1")))
    table.do(Resolve())
    table.do(NextPhase())
    table.start_round(10, 4)
    ward = Task(label="Warding ritual", attribute="will", skill="ritual", dc=20, task="ritual")
    table.declare(
        Declare(character="goblin"),
        Declare(character="nyx", major=ward),
        reactions=[React(character="nyx", reaction=SpendToken())],
    )
    (_, checked) = table.do(Resolve(), [5])
    assert isinstance(checked, CheckRolled) and checked.used == ("ley_node",)
    assert checked.rolls[0].modifiers == (
        Modifier("Will 4 x Ritual 3", 12),
        Modifier("Ley-Node", 2),
    )
    assert checked.rolls[0].total == 19 and checked.outcome == "failure"


def test_void_slick_trips_a_moving_enemy_whose_charge_then_fails() -> None:
    table = _holding("void_slick")
    charge = Charge(target="alice", weapon="knife", attribute="agility", skill="melee")
    table.do(Declare(character="goblin", major=charge))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    events = table.do(React(character="alice", reaction=SpendToken(target="goblin")), [3])
    assert events[0] == TokenSpent(
        character="alice", token="t1", kind="void_slick", target="goblin"
    )
    assert isinstance(events[1], CheckRolled) and events[1].outcome == "failure"
    assert events[1].rolls[0].modifiers == (Modifier("Agility 2 x Athletics 2", 4),)
    assert events[2] == ProneChanged(
        character="goblin", prone=True, reason="slipped on the Void Slick"
    )
    table.do(NextPhase())
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed) and failed.character == "goblin"
    assert "is Prone, and the declared action requires standing" in failed.reason


def test_void_slick_needs_a_moving_enemy() -> None:
    table = _holding("void_slick")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(React(character="alice", reaction=SpendToken()), "name the target")
    table.refuse(React(character="alice", reaction=SpendToken(target="goblin")), "no move declared")
    table.refuse(React(character="alice", reaction=SpendToken(target="nyx")), "not an enemy")


def test_sprint_lane_shifts_a_band_at_once() -> None:
    table = _holding("sprint_lane")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="closer"))
    )
    table.do(NextPhase())
    dash = Move(bands=1, reference="goblin", direction="away")
    events = table.do(React(character="alice", reaction=SpendToken(move=dash)))
    assert events[1] == Moved(
        character="alice", changes=(BandChange(other="goblin", before="near", after="far"),)
    )
    table.refuse(React(character="alice", reaction=SpendToken()), "already used their Reaction")


def test_spending_needs_a_token() -> None:
    table = _holding("cover")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="nyx"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(React(character="nyx", reaction=SpendToken()), "Nyx holds no Tactical Token")
