"""A generic campaign from end to end in the domain: a party of two and a goblin
statblock, two encounters in a row, the second starting with what the first left, a
carry-over undone and redone, and a carry-over sent twice counted once."""

from __future__ import annotations

import pytest

from service.campaigns import events as ev
from service.campaigns.commands import (
    AddMember,
    AddStatblock,
    Adjust,
    CarryOver,
    CloseEncounter,
    CreateCampaign,
    MonsterPick,
    RedoCarryOver,
    StartEncounter,
    UndoCarryOver,
)
from service.campaigns.typed import plain
from service.rulesets.generic.commands import (
    AddCombatant,
    AddConditionRuling,
    Adjudicate,
)
from tests.unit.campaigns.party import (
    ARIA,
    BORIN,
    FIRST,
    GOBLIN,
    PREPARED,
    SECOND,
    campaign_of,
    first_fight,
)
from tests.unit.campaigns.steps import Table, given


def test_creating_a_campaign_checks_the_ruleset_and_its_carry_options() -> None:
    given().when(CreateCampaign(name="X", ruleset="chess")).rejected("unknown ruleset 'chess'")
    given().when(
        CreateCampaign(name="X", ruleset="generic", options={"carry_conditions": "yes"})
    ).rejected("the generic carry-over options does not fit")
    given().when(CreateCampaign(name=" Road ", ruleset="generic")).then(
        ev.CampaignCreated(name="Road", ruleset="generic", options={"carry_conditions": True})
    )


def test_members_and_statblocks_are_sheets_of_the_ruleset() -> None:
    given(*PREPARED[:1]).when(AddMember(sheet={"id": "aria", "name": "Aria"})).rejected(
        r"the sheet does not fit: Object missing required field `hp`"
    )
    given(*PREPARED).when(AddMember(sheet=plain(ARIA))).rejected(
        "Aria of the party already has the id aria"
    )
    given(*PREPARED).when(AddStatblock(sheet=plain(GOBLIN))).rejected(
        "the statblock Goblin already has the id goblin"
    )


def test_an_encounter_names_the_copies_and_records_the_hit_point_rolls() -> None:
    events, _ = first_fight()
    started = events[-1]
    assert isinstance(started, ev.EncounterStarted)
    assert [(m.id, m.name, m.hit_points) for m in started.monsters] == [
        ("goblin-1", "Goblin 1", 7),
        ("goblin-2", "Goblin 2", 2),
        ("goblin-3", "Goblin 3", 11),
    ]
    assert [r.total for r in started.rolls] == [7, 2, 11]
    assert next(r.purpose for r in started.rolls) == "hit points of Goblin 1"


def test_the_opening_adds_the_party_from_their_sheets_and_the_monsters_as_rolled() -> None:
    _, table = first_fight()
    assert table.opening == (
        ARIA,
        BORIN,
        AddCombatant(id="goblin-1", name="Goblin 1", hp=7, max_hp=7, stats={"ac": 13}),
        AddCombatant(id="goblin-2", name="Goblin 2", hp=2, max_hp=2, stats={"ac": 13}),
        AddCombatant(id="goblin-3", name="Goblin 3", hp=11, max_hp=11, stats={"ac": 13}),
    )


def test_what_the_first_fight_left_opens_the_second() -> None:
    events, table = first_fight()
    carried = (
        given(*events)
        .when(CarryOver(encounter=FIRST, version=table.version, game=table.game))
        .then(
            ev.CarriedOver(
                encounter=FIRST,
                version=table.version,
                conditions={
                    "aria": {"hp": 15, "conditions": ["poisoned"]},
                    "borin": {"hp": 0, "conditions": []},
                },
                previous={"aria": None, "borin": None},
                table={},
                previous_table=None,
            )
        )
    )
    start = StartEncounter(encounter=SECOND, name="The bridge", members=("aria", "borin"))
    (started,) = given(*events, *carried).when(start).events
    assert isinstance(started, ev.EncounterStarted)
    second = Table(campaign_of(*events, *carried, started), started)
    reason = "carried over from the campaign"
    assert second.opening == (
        AddCombatant(id="aria", name="Aria", hp=15, max_hp=22, stats={"ac": 15}),
        Adjudicate(ruling=AddConditionRuling(target="aria", condition="poisoned"), reason=reason),
        AddCombatant(id="borin", name="Borin", hp=0, max_hp=28, stats={"ac": 17}),
    )
    aria, borin = second.state.combatants["aria"], second.state.combatants["borin"]
    assert (aria.hp, aria.max_hp, [c.name for c in aria.conditions]) == (15, 22, ["poisoned"])
    assert (borin.hp, [c.name for c in borin.conditions]) == (0, ["down"])


def test_a_carry_over_sent_again_is_refused_so_it_counts_once() -> None:
    events, table = first_fight()
    carry = CarryOver(encounter=FIRST, version=table.version, game=table.game)
    carried = given(*events).when(carry).events
    given(*events, *carried).when(carry).rejected(
        f"Ambush at the ford was already carried over at version {table.version}"
    )
    older = CarryOver(encounter=FIRST, version=table.version - 1, game=table.game)
    given(*events, *carried).when(older).rejected("already carried over")
    later = CarryOver(encounter=FIRST, version=table.version + 1, game=table.game)
    assert given(*events, *carried).when(later).events


def test_undo_restores_the_condition_before_and_redo_applies_it_again() -> None:
    events, table = first_fight()
    carried = (
        given(*events)
        .when(CarryOver(encounter=FIRST, version=table.version, game=table.game))
        .events
    )
    undone = (
        given(*events, *carried).when(UndoCarryOver(encounter=FIRST, reason="wrong fight")).events
    )
    after_undo = campaign_of(*events, *carried, *undone)
    assert {k: m.condition for k, m in after_undo.members.items()} == {"aria": None, "borin": None}
    assert after_undo.members["aria"].away is None, "an undone fight does not take them away again"
    redone = (
        given(*events, *carried, *undone)
        .when(RedoCarryOver(encounter=FIRST, reason="it was"))
        .events
    )
    assert (
        campaign_of(*events, *carried, *undone, *redone).members
        == campaign_of(*events, *carried).members
    )
    given(*events, *carried, *undone, *redone).when(
        RedoCarryOver(encounter=FIRST, reason="again")
    ).rejected("no carry-over undone to redo")


def test_a_carry_over_is_not_undone_under_a_later_ruling() -> None:
    events, table = first_fight()
    carried = (
        given(*events)
        .when(CarryOver(encounter=FIRST, version=table.version, game=table.game))
        .events
    )
    rest = Adjust(member="borin", condition={"hp": 28}, reason="a night at the inn")
    adjusted = (
        given(*events, *carried)
        .when(rest)
        .then(
            ev.Adjusted(
                member="borin",
                condition={"hp": 28, "conditions": []},
                previous={"hp": 0, "conditions": []},
                reason="a night at the inn",
            )
        )
    )
    given(*events, *carried, *adjusted).when(UndoCarryOver(encounter=FIRST, reason="x")).rejected(
        "Borin's condition changed since"
    )


def test_members_fight_in_one_encounter_at_a_time() -> None:
    events, _ = first_fight()
    again = StartEncounter(encounter=SECOND, name="Elsewhere", members=("aria",))
    given(*events).when(again).rejected(f"Aria fights in encounter {FIRST} until it is carried")
    closed = given(*events).when(CloseEncounter(encounter=FIRST, reason="a dream")).events
    assert given(*events, *closed).when(again).events
    given(*events, *closed).when(CarryOver(encounter=FIRST, version=3, game={})).rejected(
        "closed without carrying anything over"
    )


def test_a_carry_over_of_an_encounter_of_another_campaign_is_refused() -> None:
    given(*PREPARED).when(CarryOver(encounter=SECOND, version=4, game={})).rejected(
        f"encounter {SECOND} was not started from The Sunless Road"
    )


def test_monsters_roll_only_with_a_notation_and_never_take_a_members_id() -> None:
    brute = dict(plain(GOBLIN), id="brute", name="Brute")
    no_notation = (*PREPARED, ev.StatblockAdded(statblock="brute", name="Brute", sheet=brute))
    pick = MonsterPick(statblock="brute", count=2, hit_points="rolled")
    given(*no_notation).when(StartEncounter(encounter=FIRST, name="x", monsters=(pick,))).rejected(
        "Brute has no hit point notation to roll"
    )
    given(*PREPARED).when(
        StartEncounter(encounter=FIRST, name="x", monsters=(MonsterPick(statblock="orc"),))
    ).rejected("there is no statblock orc")


@pytest.mark.parametrize("count", [1, 4])
def test_fixed_hit_points_keep_the_sheets_and_a_single_copy_its_name(count: int) -> None:
    pick = MonsterPick(statblock="goblin", count=count)
    started = (
        given(*PREPARED).when(StartEncounter(encounter=FIRST, name="x", monsters=(pick,))).events[0]
    )
    assert isinstance(started, ev.EncounterStarted)
    names = [m.name for m in started.monsters]
    assert names == (["Goblin"] if count == 1 else [f"Goblin {n}" for n in range(1, 5)])
    assert all(m.hit_points is None for m in started.monsters) and not started.rolls


def test_the_process_manager_does_not_carry_again_what_the_gm_undid() -> None:
    events, table = first_fight()
    auto = CarryOver(encounter=FIRST, version=table.version, game=table.game, automatic=True)
    carried = given(*events).when(auto).events  # never carried: the manager carries it
    later = CarryOver(encounter=FIRST, version=table.version + 1, game=table.game, automatic=True)
    assert given(*events, *carried).when(later).events  # in force: a ruling carries again
    undone = given(*events, *carried).when(UndoCarryOver(encounter=FIRST, reason="no")).events
    given(*events, *carried, *undone).when(later).rejected(
        f"the GM undid the carry-over of Ambush at the ford at version {table.version}: "
        "only the GM carries it again"
    )
    # The GM alone carries it again: by carrying it over now, or by a redo.
    asked = CarryOver(encounter=FIRST, version=table.version + 1, game=table.game)
    by_gm = given(*events, *carried, *undone).when(asked).events
    even_later = CarryOver(
        encounter=FIRST, version=table.version + 2, game=table.game, automatic=True
    )
    assert given(*events, *carried, *undone, *by_gm).when(even_later).events
    redone = (
        given(*events, *carried, *undone).when(RedoCarryOver(encounter=FIRST, reason="yes")).events
    )
    assert given(*events, *carried, *undone, *redone).when(later).events
