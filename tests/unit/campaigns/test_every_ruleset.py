"""A campaign of every registered ruleset, in the domain: the party of a story's last
state carried over from one encounter, the next encounter opened from the campaign with
two copies of a statblock, and the party arriving exactly as the first fight left it."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from service.campaigns import decide, evolve, opening
from service.campaigns import events as ev
from service.campaigns.commands import (
    AddMember,
    AddStatblock,
    Adjust,
    CarryOver,
    Command,
    CreateCampaign,
    MonsterPick,
    StartEncounter,
)
from service.campaigns.state import Campaign, NoCampaign, State
from service.campaigns.typed import plain
from service.dice import ManualFaces, RollingDice
from service.registry import RULESETS
from service.ruleset import Ruleset
from service.rulesets.tactics import RULESET as TACTICS
from service.rulesets.tactics.commands import AddCombatant, AddZone
from service.rulesets.tactics.options import TacticsOptions
from tests.support.ruleset_stories import example_options, example_stories
from tests.unit.deciders import play

FIRST, SECOND = UUID(int=11), UUID(int=12)
AnyRuleset = Ruleset[Any, Any, Any, Any]


def _do(state: State, command: Command, manual: list[list[int]] | None = None) -> State:
    dice = RollingDice(ManualFaces(manual or []), next_roll_number=1)
    for event in decide(state, command, dice):
        state = evolve(state, event)
    dice.ensure_all_used()
    return state


def _story(ruleset: AnyRuleset) -> tuple[Any, Any, list[str]]:
    """The ground a story stood on before its characters came, its last state, and the
    characters of that state fit to fight again."""
    rules = ruleset.carry
    assert rules is not None
    options = rules.options_type()
    for start, events in example_stories(ruleset):
        states = [start]
        for event in events:
            states.append(ruleset.evolve(states[-1], event))
        final = states[-1]
        carried = rules.carry_over(final, options)
        fit = [c for c, k in carried.characters.items() if rules.unfit(k) is None]
        if not fit:
            continue
        ground = ruleset.initial_state(example_options(ruleset))
        for state in states:
            if set(rules.carry_over(state, options).characters) & set(fit):
                break
            ground = state
        return ground, final, fit
    raise AssertionError(f"no story of {ruleset.name} leaves anyone to carry")


@pytest.mark.parametrize("ruleset", list(RULESETS.values()), ids=list(RULESETS))
def test_the_next_encounter_opens_with_what_the_last_one_left(ruleset: AnyRuleset) -> None:
    rules = ruleset.carry
    assert rules is not None
    ground, final, fit = _story(ruleset)
    campaign: State = _do(NoCampaign(), CreateCampaign(name="Saga", ruleset=ruleset.name))
    for character in fit:
        campaign = _do(campaign, AddMember(sheet=plain(rules.sheet_of(final, character))))
    beast = rules.renamed(rules.sheet_of(final, fit[-1]), "beast", "Beast")
    rolled = rules.with_hit_points is not None
    campaign = _do(
        campaign, AddStatblock(sheet=plain(beast), hit_points="1d4+1" if rolled else None)
    )
    campaign = _do(campaign, StartEncounter(encounter=FIRST, name="One", members=tuple(fit)))
    game = plain(final)
    campaign = _do(campaign, CarryOver(encounter=FIRST, version=40, game=game))
    beasts = MonsterPick(statblock="beast", count=2, hit_points="rolled" if rolled else "fixed")
    start = StartEncounter(encounter=SECOND, name="Two", members=tuple(fit), monsters=(beasts,))
    dice = RollingDice(ManualFaces([[3], [1]] if rolled else []), next_roll_number=1)
    (started,) = decide(campaign, start, dice)
    assert isinstance(started, ev.EncounterStarted) and isinstance(campaign, Campaign)
    assert [(m.name, m.hit_points) for m in started.monsters] == (
        [("Beast 1", 4), ("Beast 2", 2)] if rolled else [("Beast 1", None), ("Beast 2", None)]
    )
    campaign = evolve(campaign, started)
    assert isinstance(campaign, Campaign)
    second = play(ruleset, ground, opening(campaign, started, ground))
    expected = rules.carry_over(final, rules.options_type())
    arrived = rules.carry_over(second, rules.options_type())
    for character in fit:
        assert arrived.characters[character] == expected.characters[character], character
    assert {"beast-1", "beast-2"} <= set(arrived.characters)
    assert arrived.table == expected.table


def test_a_ruling_before_any_carry_over_still_opens_with_its_consequences() -> None:
    """A TACTICS member wounded by ruling before any fight: the next encounter brings the
    wounds in and begins a new scene, so they count as an earlier scene's."""
    rex = AddCombatant(id="rex", name="Rex", zone="deck")
    campaign: State = _do(NoCampaign(), CreateCampaign(name="Saga", ruleset="tactics"))
    campaign = _do(campaign, AddMember(sheet=plain(rex)))
    wounds = {"wounds": [{"amount": 4, "source": "a fall"}]}
    campaign = _do(campaign, Adjust(member="rex", condition=wounds, reason="the climb"))
    start = StartEncounter(encounter=FIRST, name="One", members=("rex",))
    (started,) = decide(campaign, start, RollingDice(ManualFaces([]), next_roll_number=1))
    assert isinstance(started, ev.EncounterStarted) and isinstance(campaign, Campaign)
    options = TacticsOptions(press_penalty_step=2)
    ground = play(TACTICS, TACTICS.initial_state(options), [AddZone(id="deck")])
    campaign = evolve(campaign, started)
    assert isinstance(campaign, Campaign)
    state = play(TACTICS, ground, opening(campaign, started, ground))
    assert state.combatants["rex"].wound_total == 4
    assert state.scene == 2 and {w.scene for w in state.combatants["rex"].wounds} == {1}
