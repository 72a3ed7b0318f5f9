"""The ``RULESET`` wiring specific to Aeonisk: option defaults, summary, access, rulings,
the examples' story.  The contract every ruleset shares (tags, Struct config, unions,
option notes, one example per type, round trips, schemas, secrecy) is checked for all of
them in ``tests/unit/test_ruleset_conformance.py``."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import RULESET, AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
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
from service.rulesets.aeonisk_tactical.events import OutcomeOverridden, ValueSet
from service.rulesets.aeonisk_tactical.examples import (
    COMMANDS,
    EVENTS,
    EXAMPLES,
    _play,
    example_stories,
)
from service.rulesets.aeonisk_tactical.plan import Reload
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin
from tests.unit.deciders import line_for


def test_option_defaults_and_notes_specific_to_aeonisk() -> None:
    notes = {note.key: note for note in RULESET.option_notes}
    assert AeoniskOptions().initiative_mode == "reroll_each_round"
    assert "AEK-A5" in notes["hit_rule"].description


def test_the_summary_explains_the_initiative_default_and_the_kaelia_choice() -> None:
    assert "re-rolled every round by default" in RULESET.summary
    assert "16 against attack 18" in RULESET.summary


def test_the_examples_are_those_of_the_examples_module() -> None:
    assert RULESET.examples == EXAMPLES == (*COMMANDS, *EVENTS)


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
    """The examples are played in three stories: each event's line reads without error."""
    stories = []
    for state, events in example_stories():
        lines = []
        for event in events:
            lines.append(line_for(RULESET, state, event))
            state = RULESET.evolve(state, event)
        stories.append(lines)
    main, zones, duel = stories
    assert (
        "Goblin's Minor action fails: the Cover token has already been claimed by Kaelia"
        in "\n".join(main)
    )
    assert main[-1] == "The encounter ends in round 3"
    assert zones[-1] == "GM: Kaelia is in catwalk"
    assert duel[-2].startswith("Kaelia declared nothing before the GM closed the Declare Phase")


def test_the_conformance_suite_replays_every_table_of_the_story() -> None:
    stories = example_stories()
    assert [e for _, events in stories for e in events] == _play()[1]
    assert stories[0][0] == RULESET.initial_state(AeoniskOptions(shock_init_penalty=5))
    assert len(stories[1][1]) == 2  # the zone-map table
