"""The ``RULESET`` wiring: tags, struct config, documented options, schemas."""

from __future__ import annotations

import msgspec

from service.dice.model import RollRecord
from service.rulesets.generic import RULESET, Command, Event, GenericOptions, State


def _config(cls: type[msgspec.Struct]) -> msgspec.structs.StructConfig:
    return cls.__struct_config__


def test_tags_are_prefixed_and_unique() -> None:
    tags = [_config(t).tag for t in (*RULESET.command_types, *RULESET.event_types)]
    assert all(isinstance(tag, str) and tag.startswith("generic.") for tag in tags)
    assert len(tags) == len(set(tags))


def test_commands_are_strict_keyword_structs_tagged_on_type() -> None:
    for command in RULESET.command_types:
        config = _config(command)
        assert config.tag_field == "type"
        assert config.forbid_unknown_fields and config.frozen, command


def test_events_are_frozen_and_keep_rolls_under_rolls() -> None:
    for event in RULESET.event_types:
        config = _config(event)
        assert config.tag_field == "type" and config.frozen
        for field in msgspec.structs.fields(event):
            if "RollRecord" in str(field.type):
                assert field.name == "rolls"
                assert field.type == tuple[RollRecord, ...]


def test_the_unions_are_exactly_the_listed_types() -> None:
    union_members = set(Event.__args__)
    assert union_members == set(RULESET.event_types)
    assert set(Command.__args__) == set(RULESET.command_types)


def test_option_notes_document_every_option_with_its_default() -> None:
    defaults = GenericOptions()
    notes = {note.key: note for note in RULESET.option_notes}
    assert set(notes) == set(GenericOptions.__struct_fields__)
    for key, note in notes.items():
        assert note.default == getattr(defaults, key), key
        assert note.description


def test_options_reject_unknown_keys() -> None:
    try:
        msgspec.json.decode(b'{"initiative_dice": "1d20"}', type=GenericOptions)
    except msgspec.ValidationError as error:
        assert "initiative_dice" in str(error)
    else:
        raise AssertionError("unknown option accepted")


def test_json_schema_covers_commands_events_and_state() -> None:
    _, components = msgspec.json.schema_components([Command, Event, State])
    names = {t.__name__ for t in (*RULESET.command_types, *RULESET.event_types)}
    assert names <= set(components)
    assert all(components[name].get("description") for name in names), "docstrings missing"


def test_initial_state_has_no_round() -> None:
    state = RULESET.initial_state(GenericOptions())
    assert RULESET.round_of(state) is None
    assert RULESET.name == "generic" and RULESET.state_type is State
