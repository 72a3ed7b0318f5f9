"""The round (section 1) and the action economy (section 2): phases in order, one
declaration of one Major and one Minor, resolution order, refreshes (AEK-13..21)."""

from __future__ import annotations

from service.rulesets.aeonisk_tactical import RULESET
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    Declare,
    EndEncounter,
    NextPhase,
    React,
    Resolve,
    SetProne,
    SpendToken,
)
from service.rulesets.aeonisk_tactical.events import ActionBegan, PhaseStarted
from service.rulesets.aeonisk_tactical.plan import Move, Reload, Stand
from service.rulesets.aeonisk_tactical.state import Cleanup, Declaring, Fast, Phase, Slow
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin


def _phase(table: Table) -> Phase:
    return table.state.phase


def _fighting() -> Table:
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.start_round(12, 4)  # Alice 28, Goblin 12
    return table


def test_the_phases_follow_declare_fast_slow_cleanup() -> None:
    table = _fighting()
    assert _phase(table) == Declaring(round=1) and RULESET.round_of(table.state) == 1
    table.refuse(NextPhase(), "Declare Phase is not over: Goblin, Alice still to declare")
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice", minor=Reload(weapon="pistol")))
    assert table.do(NextPhase()) == [PhaseStarted(phase="fast", round=1)]
    assert _phase(table) == Fast(round=1)
    table.do(NextPhase())
    assert _phase(table) == Slow(round=1)
    table.refuse(NextPhase(), "Alice's Minor action is still to resolve")
    table.do(Resolve())
    events = table.do(NextPhase())
    assert events[0] == PhaseStarted(phase="cleanup", round=1)
    assert _phase(table) == Cleanup(round=1)
    table.start_round(3, 3)
    assert _phase(table) == Declaring(round=2) and RULESET.round_of(table.state) == 2


def test_combat_needs_two_living_characters() -> None:
    table = Table()
    table.do(alice())
    table.refuse(NextPhase(), "at least two living characters")


def test_a_second_declaration_in_a_round_is_refused() -> None:
    table = _fighting()
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.refuse(
        Declare(character="goblin", major=Move(bands=1, reference="alice", direction="away")),
        "Goblin declared no Major action this round: actions are stated when the character "
        "declares, in ascending Initiative, and none can be added later",
    )


def test_commands_outside_their_phase_are_refused() -> None:
    table = _fighting()
    table.refuse(Resolve(), "resolve in the Slow Phase")
    table.refuse(
        React(character="alice", reaction=SpendToken()), "Reactions are used in the Fast Phase"
    )
    table.do(Declare(character="goblin"))
    table.do(Declare(character="alice"))
    table.do(NextPhase())
    table.refuse(Declare(character="alice"), "declarations are made in the Declare Phase")


def test_declared_actions_resolve_major_then_minor_unless_the_minor_comes_first() -> None:
    table = _fighting()
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="tripped"))
    step = Move(bands=1, reference="alice", direction="away")
    table.do(Declare(character="goblin", major=step, minor=Stand(), minor_first=True))
    table.do(
        Declare(
            character="alice",
            minor=Reload(weapon="pistol"),
            major=Move(bands=1, reference="goblin", direction="closer"),
        )
    )
    table.do(NextPhase())
    table.do(NextPhase())
    slots = []
    for _ in range(4):
        began = next(e for e in table.do(Resolve()) if isinstance(e, ActionBegan))
        slots.append((began.character, began.slot))
    assert slots == [
        ("alice", "major"),
        ("alice", "minor"),
        ("goblin", "minor"),
        ("goblin", "major"),
    ]


def test_reactions_and_defence_tokens_refresh_each_round() -> None:
    table = _fighting()
    table.do(Declare(character="goblin", defence_token="alice"))
    table.do(Declare(character="alice", defence_token="goblin"))
    state = table.state
    assert state.characters["alice"].token_on == "goblin"
    for _ in range(3):
        table.do(NextPhase())
    table.start_round(12, 4)
    state = table.state
    assert state.characters["alice"].token_on is None
    assert not state.characters["alice"].reaction_used and state.declarations == {}


def test_after_the_end_only_rulings() -> None:
    table = _fighting()
    table.do(EndEncounter())
    table.refuse(NextPhase(), "the encounter has ended")
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="it fell over"))
    assert RULESET.round_of(table.state) == 1
