"""The carry-over contract (service/carry_over.py), checked for every registered ruleset.

Like tests/unit/test_ruleset_conformance.py, parametrised over the registry and naming no
ruleset.  The states come from the rulesets' example stories, so every kind of character
the stories build (wounded, dead, advanced, with conditions) is carried and seeded back.
Seeding is decided through the ruleset's own ``decide``: a seed the rules refuse fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.carry_over import CarryRules
from service.registry import RULESETS
from service.ruleset import Ruleset
from tests.support.ruleset_stories import example_options, example_stories
from tests.unit.deciders import play

AnyRuleset = Ruleset[Any, Any, Any, Any]
AnyRules = CarryRules[Any, Any, Any, Any, Any, Any]

ALL = list(RULESETS.values())
IDS = [r.name for r in ALL]


def each_ruleset(function: Any) -> Any:
    return pytest.mark.parametrize("ruleset", ALL, ids=IDS)(function)


def _rules(ruleset: AnyRuleset) -> AnyRules:
    assert ruleset.carry is not None, f"{ruleset.name} states no carry-over (Ruleset.carry)"
    return ruleset.carry


def _play(ruleset: AnyRuleset, state: Any, commands: Sequence[Any]) -> Any:
    """Decide and fold ``commands`` in order; seeding rolls no die."""
    return play(ruleset, state, commands)


def _story_states(ruleset: AnyRuleset) -> list[list[Any]]:
    """Each story as the list of its states, the start state first."""
    stories = []
    for state, events in example_stories(ruleset):
        states = [state]
        for event in events:
            states.append(ruleset.evolve(states[-1], event))
        stories.append(states)
    return stories


def _carried(rules: AnyRules, state: Any) -> Any:
    return rules.carry_over(state, rules.options_type())


def _sheet_example(ruleset: AnyRuleset) -> Any:
    rules = _rules(ruleset)
    found = [e for e in ruleset.examples if isinstance(e, rules.sheet_type)]
    assert len(found) == 1
    return found[0]


def _before_arrival(ruleset: AnyRuleset, states: list[Any], character: str) -> Any | None:
    """The last state of a story before ``character`` was in it: where its sheet was
    accepted, so seeding it there meets the same battlefield (areas, zones, hexes).  For
    a character there from the start, the initial state; None when it never comes."""
    rules = _rules(ruleset)
    before = ruleset.initial_state(example_options(ruleset))
    for state in states:
        if character in _carried(rules, state).characters:
            return before
        before = state
    return None


def _reseeded(ruleset: AnyRuleset, states: list[Any], index: int) -> tuple[Any, Any, list[str]]:
    """What ``states[index]`` carries, seeded as a campaign seeds a new encounter: on the
    ground the story stood on before any of those characters came, the table prepared,
    every character fit to fight seeded from the sheet the state holds, the table
    settled.  Returns the carry-over, the new state and the ids seeded."""
    rules = _rules(ruleset)
    state = states[index]
    carried = _carried(rules, state)
    ground = ruleset.initial_state(example_options(ruleset))
    for earlier in states[: index + 1]:
        if set(_carried(rules, earlier).characters) & set(carried.characters):
            break
        ground = earlier
    fit = [c for c, condition in carried.characters.items() if rules.unfit(condition) is None]
    seeded = _play(ruleset, ground, rules.prepare_table(ground, carried.table))
    for character in fit:
        commands = rules.seed(
            seeded, rules.sheet_of(state, character), carried.characters[character]
        )
        seeded = _play(ruleset, seeded, commands)
    seeded = _play(ruleset, seeded, rules.settle_table(seeded, carried.table))
    return carried, seeded, fit


@each_ruleset
def test_every_ruleset_states_its_carry_over(ruleset: AnyRuleset) -> None:
    rules = _rules(ruleset)
    assert rules.sheet_type in ruleset.command_types
    for kind in (rules.condition_type, rules.table_type, rules.options_type):
        assert kind.__struct_config__.frozen, f"{kind.__name__} must be frozen"
    documented = {note.key: note.default for note in rules.option_notes}
    defaults = msgspec.structs.asdict(rules.options_type())
    assert documented == defaults, "every carry option is documented with its default"
    assert isinstance(rules.fresh_table, rules.table_type)
    if rules.with_hit_points is None:
        assert rules.no_hit_points, "a ruleset without hit points says why"


@each_ruleset
def test_a_fresh_character_carries_what_its_sheet_gave_and_seeds_as_just_its_sheet(
    ruleset: AnyRuleset,
) -> None:
    rules = _rules(ruleset)
    sheet = _sheet_example(ruleset)
    for states in _story_states(ruleset):
        start = _before_arrival(ruleset, states, sheet.id)
        if start is None:
            continue
        arrived = _play(ruleset, start, (sheet,))
        fresh = _carried(rules, arrived).characters[sheet.id]
        seeded = rules.seed(start, sheet, fresh)
        assert len(seeded) == 1 and isinstance(seeded[0], rules.sheet_type)
        again = _play(ruleset, start, rules.seed(start, sheet, fresh))
        assert _carried(rules, again).characters[sheet.id] == fresh
        return
    pytest.fail(f"no story of {ruleset.name} shows where {sheet.id} could be added")


@each_ruleset
def test_carrying_changes_nothing_of_the_encounter(ruleset: AnyRuleset) -> None:
    """carry_over reads a state; reading it twice gives the same, and the state encodes
    the same before and after."""
    rules = _rules(ruleset)
    for states in _story_states(ruleset):
        for state in states:
            before = msgspec.json.encode(state)
            first = _carried(rules, state)
            assert _carried(rules, state) == first
            assert msgspec.json.encode(state) == before
            for condition in first.characters.values():
                assert isinstance(condition, rules.condition_type)
                again = msgspec.convert(msgspec.to_builtins(condition), rules.condition_type)
                assert again == condition, "a condition round-trips through plain data"
            assert isinstance(first.table, rules.table_type)


@each_ruleset
def test_carry_then_seed_gives_every_character_and_the_table_back(ruleset: AnyRuleset) -> None:
    rules = _rules(ruleset)
    seeded_any = False
    for states in _story_states(ruleset):
        final = states[-1]
        carried, seeded, fit = _reseeded(ruleset, states, len(states) - 1)
        again = _carried(rules, seeded)
        for character in fit:
            assert again.characters[character] == carried.characters[character], character
            assert rules.sheet_of(seeded, character) == rules.sheet_of(final, character)
        assert again.table == carried.table
        seeded_any = seeded_any or bool(fit)
    assert seeded_any, f"no story of {ruleset.name} has a character to carry"


@each_ruleset
def test_an_encounter_is_not_over_before_it_starts_and_stays_over(ruleset: AnyRuleset) -> None:
    rules = _rules(ruleset)
    assert not rules.ended(ruleset.initial_state(example_options(ruleset)))
    for states in _story_states(ruleset):
        over = [rules.ended(state) for state in states]
        assert over == sorted(over), "once over, an encounter stays over"


@each_ruleset
def test_an_unfit_condition_says_why_in_words(ruleset: AnyRuleset) -> None:
    rules = _rules(ruleset)
    for states in _story_states(ruleset):
        for condition in _carried(rules, states[-1]).characters.values():
            why = rules.unfit(condition)
            assert why is None or why.strip()


@each_ruleset
def test_a_statblock_copy_stands_beside_its_original(ruleset: AnyRuleset) -> None:
    rules = _rules(ruleset)
    sheet = _sheet_example(ruleset)
    copy = rules.renamed(sheet, "copy-2", "Copy 2")
    assert (copy.id, copy.name) == ("copy-2", "Copy 2")
    if rules.with_hit_points is not None:
        copy = rules.with_hit_points(copy, 7)
        assert rules.with_hit_points(copy, 8) != copy
    for states in _story_states(ruleset):
        start = _before_arrival(ruleset, states, sheet.id)
        if start is not None:
            both = _play(ruleset, start, (sheet, copy))
            assert {sheet.id, copy.id} <= set(_carried(rules, both).characters)
            return
    pytest.fail(f"no story of {ruleset.name} shows where {sheet.id} could be added")


@each_ruleset
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_carry_seed_carry_is_a_fixed_point(ruleset: AnyRuleset, data: st.DataObject) -> None:
    """Whatever state of a story is carried, seeding what it carried and carrying again
    gives the same conditions and table, however many encounters it passes through."""
    rules = _rules(ruleset)
    stories = _story_states(ruleset)
    states = stories[data.draw(st.integers(min_value=0, max_value=len(stories) - 1))]
    index = data.draw(st.integers(min_value=0, max_value=len(states) - 1))
    carried, seeded, fit = _reseeded(ruleset, states, index)
    once = _carried(rules, seeded)
    _, seeded_again, _ = _reseeded(ruleset, [*states[:index], seeded], index)
    twice = _carried(rules, seeded_again)
    for character in fit:
        assert once.characters[character] == twice.characters[character]
        assert once.characters[character] == carried.characters[character]
    assert once.table == twice.table == carried.table


def test_the_suite_builds_states_from_the_rulesets_example_options() -> None:
    for ruleset in ALL:
        assert isinstance(example_options(ruleset), ruleset.options_type)
