"""What players see of an Aeonisk encounter while a GM roll is secret (view.py)."""

from __future__ import annotations

import re

import msgspec
from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import RULESET, Event, State
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.commands import Adjudicate, Check, SetValue
from service.rulesets.aeonisk_tactical.examples import EVENTS, example_stories
from service.rulesets.aeonisk_tactical.view import PlayerState, narrate_secret, player_state
from service.secrecy import Audience, HealthView
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin


def _example(kind: type[Event]) -> tuple[State, Event]:
    """The example of ``kind`` and the state before it in the examples' story."""
    example = next(e for e in EVENTS if isinstance(e, kind))
    for state, events in example_stories():
        for event in events:
            if event is example or event == example:
                return state, event
            state = RULESET.evolve(state, event)
    raise AssertionError(f"{kind.__name__} is not in the story")


def _same_line(kind: type[Event], **hidden: object) -> str:
    state, event = _example(kind)
    line = narrate_secret(state, event)
    assert narrate_secret(state, replace(event, rolls=(), **hidden)) == line
    assert not re.search(r"\d", line), line
    return line


def test_an_attack_reads_the_same_whether_it_hit_or_missed() -> None:
    line = _same_line(ev.AttackRolled, outcome="miss", defence=3, high_ground=True)
    assert line == "The GM rolls in secret for Kaelia's attack on Goblin"


def test_damage_reads_the_same_whatever_the_wounds() -> None:
    line = _same_line(ev.DamageRolled, damage=1, soak=30, wounds=0, wounds_after=0, used=())
    assert line == "The GM keeps secret what Kaelia's attack does to Goblin"


def test_checks_read_the_same_whatever_the_outcome_and_tiers() -> None:
    line = _same_line(ev.CheckRolled, outcome="success", tiers=3, used=("ley_node",))
    assert line == "The GM rolls in secret for Goblin's Morale check"
    line = _same_line(ev.FatalCheck, outcome="success", dead=False)
    assert line == "The GM keeps secret what happens to Goblin"


def test_initiative_reads_the_same_whatever_the_totals() -> None:
    state, rolled = _example(ev.InitiativeRolled)
    assert isinstance(rolled, ev.InitiativeRolled)
    other = replace(rolled, results=(), order=tuple(reversed(rolled.order)), note="tie")
    assert narrate_secret(state, rolled) == narrate_secret(state, other)
    assert _same_line(ev.InitiativeRerolled, total=40) == (
        "The GM re-rolls Nyx's Initiative in secret"
    )


def _table() -> Table:
    """Alice (a PC) and a Goblin (an NPC) with 2 Wounds; a check remembered."""
    table = Table()
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    table.do(Adjudicate(ruling=SetValue(character="goblin", field="wounds", value=2), reason="x"))
    table.do(Adjudicate(ruling=SetValue(character="alice", field="wounds", value=1), reason="x"))
    table.start_round(12, 4)
    table.do(
        Check(character="alice", label="Climb", attribute="agility", skill="athletics", dc=20), [1]
    )
    return table


def test_players_see_a_word_for_the_npc_and_numbers_for_their_character() -> None:
    state = _table().state
    view = player_state(state, Audience(player_combatants=frozenset({"alice"})))
    goblin_view, alice_view = view.characters["goblin"], view.characters["alice"]
    assert goblin_view.health == HealthView(word="wounded")  # 5 - 2 Wounds of 5
    assert goblin_view.sheet is None
    assert alice_view.health == HealthView(current=4, maximum=5)
    assert alice_view.sheet is not None and alice_view.sheet.soak == 12
    assert (
        player_state(state, Audience(npc_health="hidden")).characters["goblin"].health
        == HealthView()
    )
    exact = player_state(state, Audience(npc_health="exact"))
    assert exact.characters["goblin"].health == HealthView(current=3, maximum=5)


def test_the_dead_are_down() -> None:
    state = _table().state
    dead = replace(state.characters["goblin"], status="dead")
    state = replace(state, characters={**state.characters, "goblin": dead})
    view = player_state(state, Audience())
    assert view.characters["goblin"].health == HealthView(word="down")


def test_the_player_view_drops_remembered_outcomes_and_initiative_totals() -> None:
    state = _table().state
    assert state.recent, "the check is remembered for override_outcome"
    view = player_state(state, Audience())
    assert isinstance(view, PlayerState)
    assert view.order == ("alice", "goblin")
    encoded = msgspec.json.encode(view).decode()
    assert "recent" not in encoded and '"initiative"' not in encoded and "r3" not in encoded
