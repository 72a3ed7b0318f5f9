"""A complete little encounter on provably fair server dice, as the service runs it."""

from __future__ import annotations

import msgspec

from service.dice import RollingDice, ServerFaces, verify_record
from service.rulesets.generic import RULESET, Command, Event, State
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Attack,
    Check,
    Damage,
    EndEncounter,
    Heal,
    NextTurn,
    OpposedRoll,
    RollInitiative,
)
from service.rulesets.generic.options import GenericOptions
from service.rulesets.generic.state import Ended
from tests.unit.deciders import fold

SEED = b"x" * 32
ENCOUNTER: list[Command] = [
    AddCombatant(id="alice", name="Alice", hp=30, stats={"ac": 14, "dex": 3}),
    AddCombatant(id="goblin", name="Goblin", hp=30, stats={"ac": 12, "dex": 2}),
    RollInitiative(),
    Attack(attacker="alice", target="goblin", notation="1d20+5", damage="1d8+2"),
    Damage(target="goblin", notation="2d6", source="fire"),
    Heal(target="goblin", notation="1d4"),
    NextTurn(),
    Check(
        combatant="goblin",
        notation="1d20",
        label="Grapple",
        opposed=OpposedRoll(combatant="alice", notation="1d20+3"),
    ),
    AddCondition(target="goblin", condition="prone", duration_rounds=1),
    NextTurn(),
    NextTurn(),
    EndEncounter(),
]


def test_a_whole_encounter_on_server_dice() -> None:
    state = RULESET.initial_state(GenericOptions(initiative_stat="dex"))
    events: list[Event] = []
    roll_number, index = 1, 0
    for command in ENCOUNTER:
        dice = RollingDice(ServerFaces(SEED, "c", 1, index), next_roll_number=roll_number)
        decided = RULESET.decide(state, command, dice)
        roll_number, index = dice.next_roll_number, dice.next_index or 0
        for event in decided:
            state = RULESET.evolve(state, event)
        events.extend(decided)

    records = [r for e in events for r in getattr(e, "rolls", ())]
    assert len(records) >= 7  # 2 initiative, attack, fire, heal, 2 grapple (+ damage, roll-offs)
    assert all(r.source == "server" and r.epoch == 1 for r in records)
    assert [r.roll_id for r in records] == [f"r{n}" for n in range(1, len(records) + 1)]
    expected_index = 0
    for record in records:
        assert record.index == expected_index, record
        expected_index += len(record.dice)
        assert verify_record(record, SEED, "c")
    assert index == expected_index

    assert isinstance(state.phase, Ended)
    assert fold(RULESET, events, GenericOptions(initiative_stat="dex")) == state
    assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
