"""The ``RULESET`` wiring: tags, options, examples, access, schemas."""

from __future__ import annotations

from collections import Counter
from typing import get_args

import msgspec
import pytest

from service.dice.model import RollRecord
from service.rulesets.aeonis import RULESET, AeonisOptions, Command, Event, State
from service.rulesets.aeonis.access import SIDE_COMMANDS
from service.rulesets.aeonis.commands import (
    AddHexes,
    Adjudicate,
    Attack,
    Cleanup,
    Defend,
    SetSideValue,
    StartRound,
)
from service.rulesets.aeonis.examples import COMMANDS, EVENTS, EXAMPLES, FINAL_STATE, STORY
from tests.unit.deciders import fold


def _tag(example: msgspec.Struct) -> str:
    return str(type(example).__struct_config__.tag)


def test_tags_are_prefixed_unique_and_strict() -> None:
    tags = [str(t.__struct_config__.tag) for t in (*RULESET.command_types, *RULESET.event_types)]
    assert all(tag.startswith("aeonis.") for tag in tags) and len(tags) == len(set(tags))
    for command in RULESET.command_types:
        config = command.__struct_config__
        assert config.tag_field == "type" and config.forbid_unknown_fields and config.frozen
    for event in RULESET.event_types:
        for field in msgspec.structs.fields(event):
            if "RollRecord" in str(field.type):
                assert field.name == "rolls" and field.type == tuple[RollRecord, ...]


def test_the_unions_are_the_ruleset_types() -> None:
    assert set(get_args(Command)) == set(RULESET.command_types)
    assert set(get_args(Event)) == set(RULESET.event_types)


def test_option_notes_document_every_option_with_its_default() -> None:
    defaults = AeonisOptions()
    notes = {note.key: note for note in RULESET.option_notes}
    assert set(notes) == set(AeonisOptions.__struct_fields__)
    for key, note in notes.items():
        assert note.default == getattr(defaults, key), key
        assert note.description


def test_every_command_and_event_type_has_exactly_one_example() -> None:
    assert RULESET.examples == EXAMPLES == (*COMMANDS, *EVENTS)
    commands = Counter(type(e) for e in COMMANDS)
    events = Counter(type(e) for e in EVENTS)
    assert commands == dict.fromkeys(RULESET.command_types, 1)
    assert events == dict.fromkeys(RULESET.event_types, 1)


@pytest.mark.parametrize("example", COMMANDS, ids=_tag)
def test_command_examples_are_valid_requests(example: msgspec.Struct) -> None:
    assert msgspec.json.decode(msgspec.json.encode(example), type=Command) == example


@pytest.mark.parametrize("example", EVENTS, ids=_tag)
def test_event_examples_round_trip(example: msgspec.Struct) -> None:
    assert msgspec.json.decode(msgspec.json.encode(example), type=Event) == example


def test_the_story_folds_and_narrates() -> None:
    """Every example event is a fact of the story the examples module played."""
    state = RULESET.initial_state(AeonisOptions())
    for event in STORY:
        assert RULESET.narrate(state, event)
        state = RULESET.evolve(state, event)
    assert state == FINAL_STATE
    assert all(e in STORY for e in EVENTS)
    assert state.hexes["0,0"].controller == "red" and state.battles == {}


def test_state_snapshots_round_trip() -> None:
    data = msgspec.json.encode(FINAL_STATE)
    assert msgspec.json.decode(data, type=State) == FINAL_STATE


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


def test_json_schema_covers_commands_events_and_state() -> None:
    _, components = msgspec.json.schema_components([Command, Event, State])
    names = {t.__name__ for t in (*RULESET.command_types, *RULESET.event_types)}
    assert names <= set(components)
    assert all(components[name].get("description") for name in names)


def test_options_reject_unknown_keys() -> None:
    with pytest.raises(msgspec.ValidationError, match="siege_cap"):
        msgspec.json.decode(b'{"siege_cap": 4}', type=AeonisOptions)
