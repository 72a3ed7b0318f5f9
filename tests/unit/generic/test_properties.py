"""Properties over random command sequences played with server dice.

Whatever a table does: folding the same events gives equal states, a rejected command
leaves the state it was given untouched, every state and event survives a JSON round
trip (snapshots and the event store rely on it), and every event can be narrated.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.dice import RollingDice, ServerFaces
from service.dice.model import DiceError, Modifier
from service.ruleset import RuleViolation
from service.rulesets.generic import RULESET, Command, Event, GenericOptions, State
from service.rulesets.generic import commands as c
from tests.unit.deciders import fold

IDS = st.sampled_from(["a", "b", "c", "d"])
NOTATIONS = st.sampled_from(["1d20", "1d20+5", "2d6", "1d4-2", "4d6kh3", "1d8!", "d"])
SMALL = st.integers(min_value=-3, max_value=25)
MODIFIERS = st.lists(st.builds(Modifier, st.sampled_from(["bless", "cover"]), SMALL), max_size=2)
CONDITIONS = st.sampled_from(["prone", "down", "blessed"])
DURATIONS = st.none() | st.integers(min_value=0, max_value=3)
OPTIONAL_AMOUNT = st.none() | st.integers(min_value=-1, max_value=15)

RULINGS = st.one_of(
    st.builds(
        c.SetValue,
        combatant=IDS,
        field=st.sampled_from(["hp", "max_hp", "stat:ac", "stat:dex", "speed"]),
        value=SMALL,
    ),
    st.builds(c.AddConditionRuling, target=IDS, condition=CONDITIONS, duration_rounds=DURATIONS),
    st.builds(c.RemoveConditionRuling, target=IDS, condition=CONDITIONS),
    st.builds(
        c.OverrideOutcome,
        roll_id=st.integers(1, 40).map(lambda n: f"r{n}"),
        outcome=st.sampled_from(["hit", "miss", "success", "failure"]),
    ),
)

COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        c.AddCombatant,
        id=IDS,
        name=st.sampled_from(["Alice", "Bob", "Goblin", " "]),
        hp=st.integers(-1, 12),
        max_hp=st.none() | st.integers(0, 12),
        stats=st.dictionaries(st.sampled_from(["ac", "dex"]), SMALL, max_size=2),
        side=st.none() | st.sampled_from(["pc", "foe"]),
    ),
    st.builds(c.RemoveCombatant, id=IDS),
    st.builds(
        c.RollInitiative,
        combatants=st.none() | st.lists(IDS, max_size=3).map(tuple),
        notation=st.none() | NOTATIONS,
    ),
    *[st.just(c.NextTurn())] * 4,  # turns and rounds should pass often
    st.builds(
        c.Attack,
        attacker=IDS,
        target=IDS,
        notation=NOTATIONS,
        target_number=st.none() | SMALL,
        damage=st.none() | NOTATIONS,
        modifiers=MODIFIERS.map(tuple),
    ),
    st.builds(
        c.Check,
        combatant=IDS,
        notation=NOTATIONS,
        label=st.sampled_from(["Stealth", "Grapple", ""]),
        target_number=st.none() | SMALL,
        opposed=st.none() | st.builds(c.OpposedRoll, combatant=IDS, notation=NOTATIONS),
    ),
    st.builds(c.Damage, target=IDS, amount=OPTIONAL_AMOUNT, notation=st.none() | NOTATIONS),
    st.builds(c.Heal, target=IDS, amount=OPTIONAL_AMOUNT, notation=st.none() | NOTATIONS),
    st.builds(c.AddCondition, target=IDS, condition=CONDITIONS, duration_rounds=DURATIONS),
    st.builds(c.RemoveCondition, target=IDS, condition=CONDITIONS),
    st.builds(c.Adjudicate, ruling=RULINGS, reason=st.sampled_from(["table", "house rule", ""])),
)

CAST: list[Command] = [
    c.AddCombatant(id="a", name="Alice", hp=12, stats={"ac": 14, "dex": 3}),
    c.AddCombatant(id="b", name="Bob", hp=4, max_hp=10, stats={"ac": 12}),
    c.AddCombatant(id="c", name="Goblin", hp=7, stats={"ac": 15, "dex": 2}),
]
SCRIPTS = st.builds(
    lambda before, ends, after: [*CAST, *before, *([c.EndEncounter()] if ends else []), *after],
    st.lists(COMMANDS, max_size=40),
    st.booleans(),
    st.lists(COMMANDS, max_size=5),
)
"""Three combatants, then anything; sometimes the end and a few commands after it."""

OPTIONS = st.builds(
    GenericOptions,
    initiative_stat=st.none() | st.just("dex"),
    allow_negative_hp=st.booleans(),
    down_condition=st.none() | st.just("down"),
    skip_down_turns=st.booleans(),
    strict_turns=st.booleans(),
)


def play(options: GenericOptions, commands: list[Command]) -> tuple[list[Event], list[State]]:
    """Run every command with server dice, checking each rejection left the state as is."""
    state = RULESET.initial_state(options)
    events: list[Event] = []
    states = [state]
    roll_number, index = 1, 0
    for command in commands:
        dice = RollingDice(ServerFaces(b"x" * 32, "client", 1, index), next_roll_number=roll_number)
        before = msgspec.json.encode(state)
        snapshot = msgspec.json.decode(before, type=State)
        try:
            new_events = RULESET.decide(state, command, dice)
        except (RuleViolation, DiceError):
            assert msgspec.json.encode(state) == before
            assert state == snapshot
            continue
        roll_number, index = dice.next_roll_number, dice.next_index or index
        for event in new_events:
            assert isinstance(RULESET.narrate(state, event), str)
            state = RULESET.evolve(state, event)
            states.append(state)
        events.extend(new_events)
    return events, states


SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_folding_is_deterministic(options: GenericOptions, commands: list[Command]) -> None:
    events, states = play(options, commands)
    assert fold(RULESET, events, options) == fold(RULESET, events, options) == states[-1]


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_states_and_events_round_trip_through_json(
    options: GenericOptions, commands: list[Command]
) -> None:
    events, states = play(options, commands)
    for state in states:
        assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
    for event in events:
        assert msgspec.json.decode(msgspec.json.encode(event), type=Event) == event


@SETTINGS
@given(OPTIONS, SCRIPTS)
def test_invariants_hold(options: GenericOptions, commands: list[Command]) -> None:
    """hp within bounds (a GM may remove "down" at 0 hp, so that is no invariant), the
    turn holder in the order, the order naming each combatant once."""
    _, states = play(options, commands)
    for state in states:
        for combatant in state.combatants.values():
            assert options.allow_negative_hp or combatant.hp >= 0
        phase = state.phase
        if hasattr(phase, "turn"):
            assert state.in_order(phase.turn)
        ids = [entry.combatant for entry in state.order]
        assert len(ids) == len(set(ids)) and set(ids) <= set(state.combatants)
