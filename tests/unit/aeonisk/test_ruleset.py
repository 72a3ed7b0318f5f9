"""The ``RULESET`` wiring: tags, options and their notes, examples, access, rulings."""

from __future__ import annotations

from collections import Counter
from typing import get_args

import msgspec
import pytest

from service.dice.model import Modifier
from service.ruleset import tag_of
from service.rulesets.aeonisk import RULESET, AeoniskOptions, Command, Event, State
from service.rulesets.aeonisk.commands import (
    Adjudicate,
    Check,
    Declare,
    FreeStrike,
    NextPhase,
    OverrideOutcome,
    React,
    Resolve,
    SetValue,
    SpendToken,
)
from service.rulesets.aeonisk.events import OutcomeOverridden, ValueSet
from service.rulesets.aeonisk.examples import COMMANDS, EVENTS, EXAMPLES, _play
from service.rulesets.aeonisk.plan import Reload
from tests.unit.aeonisk.fixtures import Table, alice, goblin


def _tag(example: msgspec.Struct) -> str:
    return str(type(example).__struct_config__.tag)


def test_tags_are_prefixed_unique_and_strict() -> None:
    tags = [tag_of(t) for t in (*RULESET.command_types, *RULESET.event_types)]
    assert all(t.startswith("aeonisk.") for t in tags) and len(tags) == len(set(tags))
    for command in RULESET.command_types:
        config = command.__struct_config__
        assert config.tag_field == "type" and config.forbid_unknown_fields and config.frozen
    assert set(get_args(Command)) == set(RULESET.command_types)
    assert set(get_args(Event)) == set(RULESET.event_types)


def test_option_notes_document_every_option_with_its_default() -> None:
    defaults = AeoniskOptions()
    notes = {note.key: note for note in RULESET.option_notes}
    assert set(notes) == set(AeoniskOptions.__struct_fields__)
    for key, note in notes.items():
        assert note.default == getattr(defaults, key), key
        assert note.description
    assert defaults.initiative_mode == "reroll_each_round"
    assert "AEK-A5" in notes["hit_rule"].description


def test_the_summary_explains_the_initiative_default_and_the_kaelia_choice() -> None:
    assert "re-rolled every round by default" in RULESET.summary
    assert "16 against attack 18" in RULESET.summary


def test_every_command_and_event_type_has_exactly_one_example() -> None:
    assert RULESET.examples == EXAMPLES == (*COMMANDS, *EVENTS)
    commands = Counter(type(e) for e in COMMANDS)
    events = Counter(type(e) for e in EVENTS)
    assert dict(commands) == dict.fromkeys(RULESET.command_types, 1)
    assert dict(events) == dict.fromkeys(RULESET.event_types, 1)


@pytest.mark.parametrize("example", COMMANDS, ids=_tag)
def test_command_examples_round_trip(example: msgspec.Struct) -> None:
    assert msgspec.json.decode(msgspec.json.encode(example), type=Command) == example


@pytest.mark.parametrize("example", EVENTS, ids=_tag)
def test_event_examples_round_trip(example: msgspec.Struct) -> None:
    assert msgspec.json.decode(msgspec.json.encode(example), type=Event) == example


def test_state_survives_a_json_round_trip() -> None:
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.start_round(12, 4)
    state = table.state
    assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state


def test_players_act_for_their_own_characters_and_the_gm_for_the_table() -> None:
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    state = table.state
    assert RULESET.acts_for(state, Declare(character="alice")) == frozenset({"alice"})
    assert RULESET.acts_for(state, React(character="goblin", reaction=SpendToken())) == frozenset(
        {"goblin"}
    )
    strike = FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee")
    assert RULESET.acts_for(state, strike) == frozenset({"goblin"})
    assert RULESET.acts_for(state, NextPhase()) is None
    assert RULESET.acts_for(state, alice()) is None
    table.start_round(12, 4)
    table.declare(
        Declare(character="goblin"), Declare(character="alice", minor=Reload(weapon="pistol"))
    )
    assert RULESET.acts_for(table.state, Resolve()) == frozenset({"alice"})
    ruled = Resolve(attack_modifiers=(Modifier("split defence", -2),))
    assert RULESET.acts_for(table.state, ruled) is None


def test_set_value_and_override_outcome_rulings() -> None:
    table = Table()
    table.setup(alice(), goblin(), bands={})
    events = table.do(
        Adjudicate(ruling=SetValue(character="alice", field="skill:melee", value=5), reason="xp")
    )
    assert events == [
        ValueSet(character="alice", field="skill:melee", value=5, previous=4, reason="xp")
    ]
    table.refuse(
        Adjudicate(ruling=SetValue(character="alice", field="skill:melee", value=5), reason="x"),
        "already 5",
    )
    table.refuse(
        Adjudicate(ruling=OverrideOutcome(roll_id="r99", outcome="hit"), reason="x"),
        "not a recent decided roll",
    )
    table.do(
        Check(character="alice", label="Climb", attribute="agility", skill="athletics", dc=20), [1]
    )
    events = table.do(
        Adjudicate(ruling=OverrideOutcome(roll_id="r1", outcome="success"), reason="rope")
    )
    assert events == [
        OutcomeOverridden(roll_id="r1", previous="failure", outcome="success", reason="rope")
    ]


def test_every_example_narrates() -> None:
    """The examples are played in one story: each event's line reads without error."""
    _, events = _play()
    state = RULESET.initial_state(AeoniskOptions(shock_init_penalty=5))
    lines = []
    for event in events[:-2]:  # the last two belong to the zone-map table
        lines.append(RULESET.narrate(state, event))
        state = RULESET.evolve(state, event)
    assert (
        "Goblin's Minor action fails: the Cover token has already been claimed by Kaelia"
        in "\n".join(lines)
    )
    assert lines[-1] == "The encounter ends in round 3"
