"""The generic party the campaign tests share: Aria and Borin, a goblin statblock, and
their first fight played through the generic ruleset."""

from __future__ import annotations

from uuid import UUID

from service.campaigns import events as ev
from service.campaigns.commands import MonsterPick, StartEncounter
from service.campaigns.state import Campaign
from service.campaigns.typed import plain
from service.rulesets.generic.commands import AddCombatant, AddCondition, Damage, EndEncounter
from tests.unit.campaigns.steps import Table, fold, given

FIRST = UUID("00000000-0000-4000-8000-000000000001")
SECOND = UUID("00000000-0000-4000-8000-000000000002")

ARIA = AddCombatant(id="aria", name="Aria", hp=22, stats={"ac": 15})
BORIN = AddCombatant(id="borin", name="Borin", hp=28, stats={"ac": 17})
GOBLIN = AddCombatant(id="goblin", name="Goblin", hp=7, stats={"ac": 13})

PREPARED: tuple[ev.Event, ...] = (
    ev.CampaignCreated(
        name="The Sunless Road", ruleset="generic", options={"carry_conditions": True}
    ),
    ev.MemberAdded(member="aria", name="Aria", sheet=plain(ARIA)),
    ev.MemberAdded(member="borin", name="Borin", sheet=plain(BORIN)),
    ev.StatblockAdded(statblock="goblin", name="Goblin", sheet=plain(GOBLIN), hit_points="2d6"),
)


def campaign_of(*events: ev.Event) -> Campaign:
    state = fold(events)
    assert isinstance(state, Campaign)
    return state


def first_fight() -> tuple[tuple[ev.Event, ...], Table]:
    """Encounter one: three goblins rolled 3+4, 1+1 and 6+5; Aria takes 7 and is
    poisoned until cured, Borin drops to 0."""
    start = StartEncounter(
        encounter=FIRST,
        name="Ambush at the ford",
        members=("aria", "borin"),
        monsters=(MonsterPick(statblock="goblin", count=3, hit_points="rolled"),),
    )
    (started,) = given(*PREPARED).when(start, manual=[[3, 4], [1, 1], [6, 5]]).events
    assert isinstance(started, ev.EncounterStarted)
    table = Table(campaign_of(*PREPARED, started), started)
    table.play(Damage(target="aria", amount=7, source="goblin-1"))
    table.play(Damage(target="borin", amount=30, source="goblin-3"))
    table.play(AddCondition(target="aria", condition="poisoned"))
    table.play(EndEncounter())
    return (*PREPARED, started), table
