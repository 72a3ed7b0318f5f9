"""The ``RULESET`` wiring specific to Aeonis: the examples' story and access.  The
contract every ruleset shares (tags, Struct config, unions, option notes, one example per
type, round trips, schemas, options that reject unknown keys, secrecy) is checked for all
of them in ``tests/unit/test_ruleset_conformance.py``."""

from __future__ import annotations

import msgspec

from service.rulesets.aeonis_combat import RULESET, AeonisOptions, Command, Event
from service.rulesets.aeonis_combat.access import SIDE_COMMANDS
from service.rulesets.aeonis_combat.commands import (
    AddHexes,
    Adjudicate,
    Attack,
    Cleanup,
    Defend,
    SetSideValue,
    StartRound,
)
from service.rulesets.aeonis_combat.events import BattleWon, SideAdded
from service.rulesets.aeonis_combat.examples import (
    COMMANDS,
    EVENTS,
    EXAMPLES,
    FINAL_STATE,
    STORY,
    example_stories,
)
from tests.unit.deciders import fold


def test_the_examples_are_those_of_the_examples_module() -> None:
    assert RULESET.examples == EXAMPLES == (*COMMANDS, *EVENTS)


def test_the_story_folds_to_its_final_state() -> None:
    """Every example event is a fact of the story the examples module played."""
    state = RULESET.initial_state(AeonisOptions())
    for event in STORY:
        state = RULESET.evolve(state, event)
    assert state == FINAL_STATE
    assert all(e in STORY for e in EVENTS)
    assert state.hexes["0,0"].controller == "red" and state.battles == {}


def test_a_side_acts_for_itself_and_the_table_is_the_gms() -> None:
    state = fold(RULESET, ())
    assert RULESET.acts_for(state, Attack(side="red", hex="0,0", commit=("x",))) == frozenset(
        {"red"}
    )
    assert RULESET.acts_for(state, Defend(side="blue", hex="0,0")) == frozenset({"blue"})
    for gm_only in (
        AddHexes(hexes=()),
        StartRound(),
        Cleanup(),
        Adjudicate(ruling=SetSideValue(side="red", field="ap", value=1), reason="r"),
    ):
        assert RULESET.acts_for(state, gm_only) is None
    assert all("side" in t.__struct_fields__ for t in SIDE_COMMANDS)


def test_the_conformance_suite_replays_the_story_from_the_start() -> None:
    assert example_stories() == ((RULESET.initial_state(AeonisOptions()), STORY),)


def test_events_stored_before_reinforce_choices_and_lord_abilities_still_decode() -> None:
    """New fields are additive: an old Lord Sheet has no abilities, an old victory kept
    its Siege marker until the occupation (as it did when it was stored)."""
    old_side = (
        b'{"type":"aeonis.side_added","side":"red","name":"Red","lord":"red-lord",'
        b'"sheet":{"name":"Vess","attack_die":"d8","defense_die":"d8","hp":3,"movement":2},'
        b'"lord_hex":null}'
    )
    side = msgspec.json.decode(old_side, type=Event)
    assert isinstance(side, SideAdded) and side.sheet.abilities == ()
    old_win = b'{"type":"aeonis.battle_won","hex":"0,0","side":"red"}'
    assert msgspec.json.decode(old_win, type=Event) == BattleWon(
        hex="0,0", side="red", siege_removed=False
    )
    old_defence = b'{"type":"aeonis.defend","side":"blue","hex":"0,0","hold_the_walls":false}'
    assert msgspec.json.decode(old_defence, type=Command) == Defend(
        side="blue", hex="0,0", hold_the_walls=False
    )
