"""The party and the bestiary: what the campaign refuses, in words."""

from __future__ import annotations

from service.campaigns import events as ev
from service.campaigns.commands import (
    AddStatblock,
    Adjust,
    CarryOver,
    RemoveMember,
    RemoveStatblock,
    StartEncounter,
)
from service.campaigns.typed import plain
from service.rulesets.aeonisk_tactical.carry_over import AeoniskCondition
from tests.unit.aeonisk_tactical.fixtures import goblin, kaelia
from tests.unit.campaigns.party import FIRST, PREPARED, first_fight
from tests.unit.campaigns.steps import given

AEONISK = (
    ev.CampaignCreated(name="Void Run", ruleset="aeonisk", options={"carry_stun": True}),
    ev.MemberAdded(member="kaelia", name="Kaelia", sheet=plain(kaelia())),
)


def test_a_ruleset_without_hit_points_refuses_a_notation_saying_why() -> None:
    given(*AEONISK).when(AddStatblock(sheet=plain(goblin()), hit_points="2d6")).rejected(
        "no hit points to roll: YAGS characters have no hit points"
    )
    given(*PREPARED).when(AddStatblock(sheet=plain(goblin()), hit_points="2d6")).rejected(
        "the statblock's sheet does not fit"
    )


def test_the_dead_are_kept_out_of_a_fight_until_a_ruling() -> None:
    dead = plain(AeoniskCondition(wounds=6, dead=True))
    ruled = ev.Adjusted(member="kaelia", condition=dead, previous=None, reason="the Health check")
    start = StartEncounter(encounter=FIRST, name="Docks", members=("kaelia",))
    given(*AEONISK, ruled).when(start).rejected(
        "Kaelia cannot join a fight: dead: the Health check at 5 Wounds failed"
    )
    revived = ev.Adjusted(member="kaelia", condition=None, previous=dead, reason="a miracle")
    assert given(*AEONISK, ruled, revived).when(start).events


def test_a_ruling_must_fit_the_rulesets_condition_and_change_something() -> None:
    given(*AEONISK).when(Adjust(member="kaelia", condition={"wounds": -1}, reason="x")).rejected(
        r"the condition does not fit: Expected `int` >= 0 - at `\$.wounds`"
    )
    given(*AEONISK).when(Adjust(member="kaelia", reason="x")).rejected(
        "Kaelia's condition is already so"
    )
    given(*AEONISK).when(Adjust(member="nyx", condition={}, reason="x")).rejected(
        "nyx is not a member of the party"
    )


def test_a_member_away_stays_and_gone_statblocks_are_named() -> None:
    events, _ = first_fight()
    given(*events).when(RemoveMember(member="aria", reason="retired")).rejected(
        f"Aria fights in encounter {FIRST}: carry it over or close it first"
    )
    given(*events).when(RemoveStatblock(statblock="orc")).rejected("there is no statblock orc")


def test_a_state_of_another_shape_is_refused() -> None:
    events, _ = first_fight()
    given(*events).when(CarryOver(encounter=FIRST, version=3, game={"combatants": 7})).rejected(
        "the state of Ambush at the ford does not fit"
    )
