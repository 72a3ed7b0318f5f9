"""Battlefield, initiative, turns, Delay and the end of a turn (SCF-04..SCF-11,
SCF-A1, SCF-A10, SCF-A11, SCF-A12, SCF-A20, SCF-A22)."""

from __future__ import annotations

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import (
    Adjudicate,
    Begin,
    ConditionSpec,
    DefineArea,
    Delay,
    EndCombat,
    EndTurn,
    GmRoll,
    Initiative,
    InitiativeEntry,
    RemoveCombatant,
    ReorderPhase,
    Resolve,
)
from tests.unit.scentfinder.fixtures import AREAS, Table, act, alice, bob, fight, goblin, wolf


def test_scf_04_areas_with_adjacency_and_environment() -> None:
    table = Table()
    for area in AREAS:
        table.do(area)
    state = table.state
    assert ("melee", "rear") in state.links and ("front", "melee") in state.links
    assert state.areas["lava"].hazard is not None and state.areas["mud"].difficult
    assert state.areas["beams"].obstacle is not None and state.areas["rubble"].uneven
    table.refuse(DefineArea(id="melee", name="again"), "already defined")
    table.refuse(DefineArea(id="x", name="X", adjacent=("nowhere",)), "not defined yet")


def test_scf_04_a_single_area_fight_in_close_quarters() -> None:
    table = Table()
    table.do(DefineArea(id="cell", name="the Cell"))
    table.do(alice(area="cell"))
    table.do(goblin(area="cell"))
    table.do(Initiative(entries=(InitiativeEntry(combatant="alice", degree="failure", value=1),)))
    table.do(Begin())
    assert table.state.current == "alice"


def test_scf_05_06_initiative_degree_gives_the_phase_and_a_triumph_starts_one_area_away() -> None:
    table = Table()
    for area in AREAS:
        table.do(area)
    table.do(alice())
    table.do(bob())
    (event,) = table.do(
        Initiative(
            entries=(
                InitiativeEntry(combatant="alice", degree="triumph", value=9, start_area="rear"),
            )
        )
    )
    assert event == ev.InitiativeSet(
        combatant="alice", phase=1, degree="triumph", value=9, skill="Perception", start_area="rear"
    )
    assert table.who("alice").area == "rear"
    table.refuse(
        Initiative(
            entries=(
                InitiativeEntry(combatant="bob", degree="success", value=2, start_area="rear"),
            )
        ),
        "Only a Triumph on initiative lets Bob start combat one area away",
    )
    table.refuse(
        Initiative(
            entries=(
                InitiativeEntry(combatant="bob", degree="triumph", value=2, start_area="lava2"),
            )
        ),
        "is not one area away",
    )
    (event,) = table.do(
        Initiative(
            entries=(InitiativeEntry(combatant="bob", degree="bungle", value=1, skill="Stealth"),)
        )
    )
    assert isinstance(event, ev.InitiativeSet) and event.phase == 4 and event.skill == "Stealth"
    table.refuse(
        Initiative(entries=(InitiativeEntry(combatant="bob", phase=2),)),
        "Bob's initiative is a test",
    )


def test_scf_07_npcs_act_at_fixed_phases_after_the_pcs_of_that_phase() -> None:
    table = Table()
    for area in AREAS:
        table.do(area)
    table.do(goblin(phase=2))
    table.do(alice())
    table.refuse(
        Initiative(entries=(InitiativeEntry(combatant="goblin", degree="success"),)),
        "NPCs act at fixed initiative phases: give Goblin a phase",
    )
    table.refuse(Begin(), "Alice has no initiative phase yet")
    table.do(Initiative(entries=(InitiativeEntry(combatant="alice", degree="success", value=9),)))
    events = table.do(Begin())
    assert events[0] == ev.CombatBegan(order=("alice", "goblin"))


def test_scf_08_lowest_rolling_players_first_and_their_order_can_be_arranged() -> None:
    table = fight()
    assert table.state.combatants["bob"].init_value == 3
    assert table.state.current == "bob"  # Bob 3 before Alice 5 in phase 2
    table.refuse(
        ReorderPhase(phase=2, order=("alice",)), "exactly the players of phase 2: Alice, Bob"
    )
    table.do(ReorderPhase(phase=2, order=("alice", "bob")))
    from service.rulesets.scentfinder.rules import turn_order

    assert [c.id for c in turn_order(table.state)] == ["alice", "bob", "goblin", "ogre"]


def test_scf_a12_highest_first_is_an_option() -> None:
    from service.rulesets.scentfinder import ScentfinderOptions

    table = fight(ScentfinderOptions(within_phase_order="highest_first"))
    assert table.state.current == "alice"


def test_scf_06_the_four_phases_succeed_one_another_each_round() -> None:
    table = fight()
    seen = []
    for _ in range(5):
        seen.append((table.state.round, table.state.current))
        table.do(EndTurn(combatant=table.state.current or ""))
    assert seen == [(1, "bob"), (1, "alice"), (1, "goblin"), (1, "ogre"), (2, "bob")]


def test_scf_09_a11_delay_at_turn_start_to_a_later_phase_for_good() -> None:
    table = fight()
    table.refuse(Delay(combatant="alice", phase=3), "only Delay at the start of their own turn")
    table.refuse(Delay(combatant="bob", phase=2), "2 is not later")
    events = table.do(Delay(combatant="bob", phase=3))
    assert events[0] == ev.Delayed(
        combatant="bob", from_phase=2, to_phase=3, rank=1, actions=0, reaction=0, first_turn=True
    )
    assert isinstance(events[1], ev.TurnStarted) and events[1].combatant == "alice"
    table.do(EndTurn(combatant="alice"))
    # The delayer joins phase 3 after the PCs there and before the NPCs.
    assert table.state.current == "bob"
    table.do(act("bob", "evade"))
    table.refuse(Delay(combatant="bob", phase=4), "has already acted")
    table.to_turn("ogre")
    table.do(EndTurn(combatant="ogre"))
    assert table.state.round == 2 and table.state.current == "alice"  # for the rest of combat


def test_scf_a11_no_delay_from_the_fourth_phase() -> None:
    table = Table().setup(
        alice(),
        bob(),
        goblin(),
        initiative=(
            InitiativeEntry(combatant="alice", degree="bungle", value=1),
            InitiativeEntry(combatant="bob", degree="success", value=1),
        ),
    )
    table.to_turn("alice")
    table.refuse(Delay(combatant="alice", phase=4), "no later initiative phase than the fourth")


def test_scf_10_a10_three_actions_and_a_reaction_at_ones_own_turn_none_before() -> None:
    table = fight()
    assert table.who("alice").actions == 0 and table.who("alice").reaction == 0
    assert table.who("bob").actions == 3 and table.who("bob").reaction == 1
    table.do(act("bob", "evade"))
    table.do(EndTurn(combatant="bob"))
    assert table.who("bob").actions == 0  # no carry-over
    table.refuse(act("alice", "evade", via="reaction"), "no Readied Evade")
    table.refuse(act("goblin", "evade"), "It is Alice's turn, not Goblin's")


def test_scf_11_a9_end_of_turn_persistent_damage_then_durations_then_dissipation() -> None:
    table = fight()
    table.do(Adjudicate(reason="burning oil", combatant="bob", persistent=(3, 1)))
    table.do(
        Adjudicate(
            reason="dazed", combatant="bob", add_condition=ConditionSpec(kind="stunned", turns=2)
        )
    )
    table.do(
        Adjudicate(
            reason="shaken", combatant="bob", add_condition=ConditionSpec(kind="faltering", turns=1)
        )
    )
    events = table.do(EndTurn(combatant="bob"))
    assert events[0] == ev.TurnEnded(
        combatant="bob",
        persistent_damage=4,
        hp_after=8,
        persistent_after=(2,),
        ticked=(ev.Tick(condition="c1", remaining=1),),
        dissipated=("c2",),
    )
    assert [c.kind for c in table.who("bob").conditions] == ["stunned"]


def test_scf_a20_death_s_door_set_by_the_gm_and_fewer_regained_actions() -> None:
    table = fight()
    table.do(
        Adjudicate(
            reason="falls at 0 HP", combatant="alice", hp=0, deaths_door=True, dd_action_loss=1
        )
    )
    table.do(EndTurn(combatant="bob"))
    assert table.who("alice").actions == 2
    table.refuse(Adjudicate(reason="x", hp=3), "names the combatant")


def test_scf_a22_minions_have_no_turn() -> None:
    table = fight(None, alice(), bob(), wolf(), goblin())
    from service.rulesets.scentfinder.rules import turn_order

    assert "wolf" not in [c.id for c in turn_order(table.state)]
    table.refuse(Initiative(entries=(InitiativeEntry(combatant="wolf", phase=2),)), "minion")


def test_remove_combatant_passes_the_turn_and_gm_roll_and_end() -> None:
    table = fight()
    events = table.do(RemoveCombatant(id="bob"))
    assert isinstance(events[-1], ev.TurnStarted) and events[-1].combatant == "alice"
    (rolled,) = table.do(GmRoll(label="the trap", notation="2d6"), [3, 4])
    assert isinstance(rolled, ev.GmRolled) and rolled.rolls[0].total == 7
    table.do(EndCombat())
    table.refuse(act("alice", "evade"), "The fight is over")
    table.refuse(Resolve(degree="success"), "The fight is over")


def test_scf_a10_carry_over_is_an_option() -> None:
    from service.rulesets.scentfinder import ScentfinderOptions

    table = fight(ScentfinderOptions(carry_over=True))
    table.do(act("bob", "evade"))
    table.to_turn("bob")
    assert (table.who("bob").actions, table.who("bob").reaction) == (5, 2)
