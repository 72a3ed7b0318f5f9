"""Hypothesis: folding is deterministic, a refused command appends nothing, and pools
never go negative (SCF-10) whatever players and the GM try."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.dice import ManualFaces, RollingDice
from service.dice.model import DiceError
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder.commands import Act, Delay, EndTurn, Resolve, Save
from service.rulesets.scentfinder.fields import ACTIONS
from tests.unit.deciders import fold
from tests.unit.scentfinder.fixtures import fight

PEOPLE = ("alice", "bob", "goblin", "ogre")
AREAS = ("rear", "melee", "front", "mud", "lava", "beams", "rubble")
DEGREES = ("triumph", "success", "failure", "bungle")
CHOICES = (
    None,
    "immobilised",
    "staggered",
    "restrained",
    "displaced",
    "lose_movement",
    "stop_hiding",
    "zero",
)

acts = st.builds(
    Act,
    actor=st.sampled_from(PEOPLE),
    action=st.sampled_from(sorted(ACTIONS)),
    target=st.sampled_from((None, *PEOPLE)),
    weapon=st.sampled_from((None, "sword", "spear", "dagger", "club", "bow")),
    area=st.sampled_from((None, *AREAS)),
    spell=st.sampled_from((None, "Firebolt")),
    degree=st.sampled_from((None, *DEGREES)),
    choice=st.sampled_from(CHOICES),
    via=st.sampled_from(("turn", "turn", "reaction", "bonus_reaction")),
)
commands = st.one_of(
    acts,
    st.builds(
        Resolve,
        degree=st.sampled_from(DEGREES),
        choice=st.sampled_from(CHOICES),
        area=st.sampled_from((None, *AREAS)),
    ),
    st.builds(
        Save,
        combatant=st.sampled_from(PEOPLE),
        degree=st.sampled_from(DEGREES),
        save=st.sampled_from((None, "REF")),
    ),
    st.builds(EndTurn, combatant=st.sampled_from(PEOPLE)),
    st.builds(Delay, combatant=st.sampled_from(PEOPLE), phase=st.integers(1, 4)),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, max_size=30))
def test_folding_is_deterministic_and_refusals_append_nothing(script: list[Any]) -> None:
    table = fight()
    history = list(table.history)
    state = fold(RULESET, history)
    for command in script:
        before = msgspec.json.encode(state)
        dice = RollingDice(ManualFaces([[3]] * 10), next_roll_number=1)
        try:
            events = RULESET.decide(state, command, dice)
        except (RuleViolation, DiceError):
            assert msgspec.json.encode(state) == before
            continue
        for event in events:
            state = RULESET.evolve(state, event)
        history.extend(events)
        for who in state.combatants.values():
            assert who.actions >= 0 and who.reaction >= 0 and who.granted >= 0
    assert msgspec.json.encode(fold(RULESET, history)) == msgspec.json.encode(state)
    assert msgspec.json.encode(fold(RULESET, history)) == msgspec.json.encode(
        fold(RULESET, history)
    )
