"""Traits and cross-cutting effects (SCF-52..SCF-59, SCF-A4, SCF-A7, SCF-A15, SCF-A17,
SCF-A21) and GM rulings."""

from __future__ import annotations

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate, ConditionSpec, EndTurn, Resolve
from service.rulesets.scentfinder.fields import ACTIONS
from tests.unit.scentfinder.fixtures import act, alice, bob, fight, goblin, golem, ogre


def test_scf_52_a17_no_attack_with_the_same_skill_twice_in_a_turn() -> None:
    table = fight()
    table.do(act("bob", "strike", target="goblin", weapon="spear", degree="failure"))
    table.refuse(
        act("bob", "knockdown", target="goblin"), "Bob already attacked with Might this turn"
    )
    table.refuse(act("bob", "shove", target="goblin"), "Bob already attacked with Might this turn")
    table.do(act("bob", "taunt", target="goblin", degree="failure"))  # Charm: another skill
    table.refuse(act("bob", "taunt", target="goblin"), "Bob already attacked with Charm this turn")
    table.do(act("bob", "flank", target="goblin", degree="failure"))  # not an attack: Agility
    table.to_turn("bob")
    table.do(act("bob", "strike", target="goblin", weapon="spear", degree="failure"))  # a new turn


def test_scf_52_a17_analyse_is_an_attack_too() -> None:
    table = fight()
    table.do(act("bob", "analyse", target="goblin", skill="Lore", degree="failure"))
    table.refuse(
        act("bob", "analyse", target="ogre", skill="Lore"),
        "Bob already attacked with Lore this turn",
    )


def test_scf_53_melee_actions_target_the_same_area_only() -> None:
    table = fight()
    table.refuse(
        act("bob", "knockdown", target="ogre"),
        "Knockdown is a mêlée action: it only targets characters in the same area, and Ogre "
        "is in the Front",
    )
    table.refuse(act("bob", "grapple", target="ogre"), "Grapple is a mêlée action")
    table.refuse(act("bob", "disarm", target="ogre"), "Disarm is a mêlée action")


def test_scf_55_mental_and_emotion_actions_need_sentient_targets() -> None:
    table = fight(None, alice(), bob(), goblin(), golem())
    table.refuse(
        act("bob", "feint", target="golem"), "Feint is mental: it only affects sentient creatures"
    )
    table.refuse(act("bob", "intimidate", target="golem"), "Intimidate is mental")
    table.do(act("bob", "strike", target="golem", weapon="spear", degree="failure"))


def test_scf_56_qualifier_traits_are_stored() -> None:
    assert ACTIONS["point_out"].traits == ("auditory", "linguistic", "manipulate", "visual")
    assert "concentrate" in ACTIONS["seek"].traits and "magical" in ACTIONS["refocus"].traits
    assert "sonorous" in ACTIONS["cast_spell"].traits and "move" in ACTIONS["arrest_fall"].traits


def test_scf_57_a15_favoured_and_impaired_are_counted_typed_instances() -> None:
    table = fight()
    for _ in range(2):
        table.do(
            Adjudicate(
                reason="mud in the eyes",
                combatant="goblin",
                add_condition=ConditionSpec(
                    kind="impaired", turns=1, circumstance=True, scope="attacks"
                ),
            )
        )
    impaired = [c for c in table.who("goblin").conditions if c.kind == "impaired"]
    assert len(impaired) == 2 and impaired[0].id != impaired[1].id and impaired[0].circumstance


def test_scf_58_a4_durations_count_down_at_the_end_of_the_bearers_turns() -> None:
    table = fight()
    table.do(act("bob", "knockdown", target="goblin", degree="triumph", choice="staggered"))
    table.to_turn("alice")
    table.do(EndTurn(combatant="alice"))
    assert [c.remaining for c in table.who("goblin").conditions] == [2]  # not on others' turns
    table.do(EndTurn(combatant="goblin"))
    assert [c.remaining for c in table.who("goblin").conditions] == [1]
    table.to_turn("goblin")
    table.do(EndTurn(combatant="goblin"))
    assert table.who("goblin").conditions == ()


def test_scf_58_flank_favour_lasts_the_rest_of_the_flankers_turn() -> None:
    table = fight()
    table.do(act("bob", "flank", target="goblin", degree="success"))
    events = table.do(EndTurn(combatant="bob"))
    assert isinstance(events[0], ev.TurnEnded) and len(events[0].dissipated) == 1


def test_scf_59_a7_a_strike_is_one_test_the_target_does_not_roll() -> None:
    table = fight()
    table.do(act("bob", "strike", target="goblin", weapon="spear"))
    (hit,) = table.do(Resolve(degree="triumph"))
    assert isinstance(hit, ev.ActionResolved) and (hit.damage, hit.hp_after, hit.rolls) == (
        6,
        2,
        (),
    )


def test_scf_a21_ranges_from_the_sheet() -> None:
    table = fight(None, alice(area="rear"), bob(), goblin(), ogre())
    table.to_turn("alice")
    table.do(act("alice", "strike", target="ogre", weapon="bow", degree="failure"))  # two areas
    table.refuse(
        act("alice", "cast_spell", spell="Firebolt", target="ogre"),
        "Ogre is out of range of Firebolt",
    )


def test_scf_a1_a_pending_test_waits_for_the_gms_degree() -> None:
    table = fight()
    table.refuse(Resolve(degree="success"), "There is no test waiting for a degree")
    table.do(act("bob", "feint", target="goblin"))
    table.refuse(act("bob", "evade"), "The GM has yet to enter the degree of Bob's Feint")
    table.refuse(EndTurn(combatant="bob"), "The GM has yet to enter the degree of Bob's Feint")
    table.do(Resolve(degree="success"))
    assert table.state.pending is None


def test_gm_rulings_set_values_add_and_remove_conditions() -> None:
    table = fight()
    (ruling,) = table.do(
        Adjudicate(
            reason="the rope holds",
            combatant="alice",
            hp=10,
            fp=1,
            area="rear",
            add_condition=ConditionSpec(kind="other", note="tied to the mast"),
        )
    )
    assert isinstance(ruling, ev.Ruling) and ruling.condition_added is not None
    alice_now = table.who("alice")
    assert (alice_now.hp, alice_now.fp, alice_now.area, len(alice_now.conditions)) == (
        10,
        1,
        "rear",
        1,
    )
    table.do(Adjudicate(reason="cut free", combatant="alice", remove_condition="c1"))
    assert table.who("alice").conditions == ()
    table.refuse(
        Adjudicate(reason="x", combatant="alice", remove_condition="c9"),
        "Alice has no condition c9",
    )
    table.refuse(
        Adjudicate(reason="x", combatant="alice", area="moon"), "Area 'moon' is not defined"
    )
    table.do(Adjudicate(reason="a note for the table"))


def test_scf_a4_source_ticking_counts_down_at_the_end_of_the_causers_turn() -> None:
    from service.rulesets.scentfinder import ScentfinderOptions

    table = fight(ScentfinderOptions(duration_tick="source"))
    table.do(act("bob", "knockdown", target="goblin", degree="triumph", choice="staggered"))
    events = table.do(EndTurn(combatant="bob"))
    assert any(isinstance(e, ev.ConditionChanged) and e.remaining == 1 for e in events)
    table.to_turn("goblin")
    table.do(EndTurn(combatant="goblin"))
    assert [c.remaining for c in table.who("goblin").conditions] == [1]  # not on its own turn


def test_scf_a20_the_action_loss_applies_only_at_deaths_door() -> None:
    table = fight()
    table.do(Adjudicate(reason="scarred", combatant="alice", dd_action_loss=1))
    table.do(EndTurn(combatant="bob"))
    assert table.who("alice").actions == 3
