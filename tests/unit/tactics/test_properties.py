"""Hypothesis: folding is deterministic, pending Presses always resolve in declaration
order, and a refused command appends nothing and leaves the state as it was."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.dice import ManualFaces, RollingDice, RollSource
from service.dice.model import DiceError
from service.ruleset import RuleViolation
from service.rulesets.tactics import RULESET
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.events import Event
from service.rulesets.tactics.state import State
from tests.unit.tactics.fixtures import OPTS, end, resolve, shot, state_of, table

WHO = ("rex", "vex")


def _commands() -> st.SearchStrategy[cmd.Command]:
    who = st.sampled_from(WHO)
    return st.one_of(
        st.builds(
            lambda a, w: shot(a, "vex" if a == "rex" else "rex", w),
            who,
            st.sampled_from(("pistol", "knife", "rifle", "shotgun")),
        ),
        st.builds(lambda a: cmd.Press(combatant=a, weapon="grenade", zone="deck"), who),
        st.builds(
            lambda a, m: cmd.TakeManeuver(combatant=a, maneuver=m),
            who,
            st.sampled_from(("aim", "take cover", "dodge roll")),
        ),
        st.builds(
            lambda a, m: cmd.React(combatant=a, maneuver=m),
            who,
            st.sampled_from(("dodge roll", "take cover")),
        ),
        st.builds(resolve, who),
        st.builds(end, who),
        st.builds(lambda a, p: cmd.CooldownCheck(combatant=a, passed=p), who, st.booleans()),
        st.builds(
            lambda a, n: cmd.Adjudicate(
                ruling=cmd.InflictWounds(combatant=a, wounds=n, source="fire"), reason="fire"
            ),
            who,
            st.integers(1, 12),
        ),
    )


def _run(
    state: State, steps: list[tuple[cmd.Command, list[int]]]
) -> tuple[State, list[Event], int]:
    events: list[Event] = []
    refused = 0
    for command, faces in steps:
        before = msgspec.json.encode(state)
        dice = RollingDice(ManualFaces([[f] for f in faces]), next_roll_number=1)
        try:
            new = RULESET.decide(state, command, dice)
        except (RuleViolation, DiceError):
            refused += 1
            assert msgspec.json.encode(state) == before
            continue
        for event in new:
            state = RULESET.evolve(state, event)
        events.extend(new)
    return state, events, refused


STEPS = st.lists(
    st.tuples(_commands(), st.lists(st.integers(1, 20), min_size=2, max_size=2)), max_size=30
)


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_folding_is_deterministic_and_survives_storage(steps: list[Any]) -> None:
    start = table(vex={"shields": 2})
    state, events, _ = _run(state_of(start), steps)
    replayed = state_of([*start, *events])
    assert msgspec.json.encode(replayed) == msgspec.json.encode(state)
    stored = msgspec.json.decode(msgspec.json.encode([*start, *events]), type=list[ev.Event])
    assert msgspec.json.encode(state_of(stored)) == msgspec.json.encode(state)


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_a_refused_command_appends_nothing(steps: list[Any]) -> None:
    state = state_of(table())
    for command, faces in steps:
        before = msgspec.json.encode(state)
        try:
            new = RULESET.decide(
                state, command, RollingDice(ManualFaces([[f] for f in faces]), next_roll_number=1)
            )
        except (RuleViolation, DiceError):
            assert msgspec.json.encode(state) == before
            continue
        for event in new:
            state = RULESET.evolve(state, event)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(("pistol", "knife", "shotgun", "aim")), min_size=1, max_size=3),
    st.lists(st.integers(1, 20), min_size=6, max_size=6),
)
def test_pending_presses_always_resolve_in_declaration_order(
    actions: list[str], faces: list[int]
) -> None:
    """Whatever Rex declares, Vex's Presses resolve p1, p2, ... in that order (TAC-A8)."""
    turn = [
        cmd.TakeManeuver(combatant="rex", maneuver="aim") if a == "aim" else shot(weapon=a)
        for a in actions
    ]
    state = state_of(table(*turn, end("rex")), OPTS)
    declared = [p.id for p in state.pending]
    resolved: list[str] = []
    pool = list(faces)
    while any(h.target == "vex" for p in state.pending for h in p.hits):
        dice = RollingDice(_PoolFaces(pool), next_roll_number=1)
        for event in RULESET.decide(state, resolve("vex"), dice):
            state = RULESET.evolve(state, event)
            if isinstance(event, ev.HitResolved | ev.HitVoided):
                resolved.append(event.press)
    assert resolved == declared
    assert declared == [f"p{i + 1}" for i in range(len(declared))]


class _PoolFaces:
    """Faces from a shared pool, as many as each command asks for (10 once it is empty)."""

    source: RollSource = "manual"

    def __init__(self, pool: list[int]) -> None:
        self.pool = pool

    def begin_roll(self, notation: str) -> tuple[int | None, int | None]:
        return None, None

    def draw(self, sides: int, *, needed: int, exact: bool) -> int:
        return self.pool.pop(0) if self.pool else 10

    def end_roll(self) -> None:
        return None

    def ensure_all_used(self) -> None:
        return None
