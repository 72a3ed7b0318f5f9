"""What players see of an Aeonis war while a GM roll is secret (view.py)."""

from __future__ import annotations

import re

import msgspec
from msgspec.structs import replace

from service.rulesets.aeonis_combat import RULESET, AeonisOptions, Event, State
from service.rulesets.aeonis_combat import events as ev
from service.rulesets.aeonis_combat.examples import FINAL_STATE, STORY
from service.rulesets.aeonis_combat.view import PlayerState, narrate_secret, player_state
from service.secrecy import Audience, HealthView, health_word


def _before(example: Event) -> State:
    state = RULESET.initial_state(AeonisOptions())
    for event in STORY:
        if event is example:
            return state
        state = RULESET.evolve(state, event)
    raise AssertionError("not in the story")


def _first(kind: type[Event]) -> Event:
    return next(e for e in STORY if isinstance(e, kind))


def _same_line(example: Event, **hidden: object) -> str:
    state = _before(example)
    line = narrate_secret(state, example)
    assert narrate_secret(state, replace(example, **hidden)) == line
    return line


def test_a_battle_round_reads_the_same_whatever_the_strikes() -> None:
    fought = _first(ev.BattleRoundFought)
    assert isinstance(fought, ev.BattleRoundFought)
    line = _same_line(
        fought, strikes=(), destroyed=("red-inf-1",), captured=(), promoted={"red": ()}, rolls=()
    )
    assert line == "The GM rolls in secret for battle round 1 of the battle at 0,0"


def test_captures_and_victories_read_the_same_whoever_won() -> None:
    captured = _first(ev.LordCaptured)
    line = _same_line(captured, lord="red-lord", by="blue", renown_after=9, vp_after=9)
    assert not re.search(r"\d", line)
    won = _first(ev.BattleWon)
    assert _same_line(won, side="blue", reason="a ruling") == (
        "The GM keeps the end of the battle at 0,0 secret"
    )
    ended = _first(ev.BattleEnded)
    line = _same_line(ended, outcome="defender_held", healed=("blue-inf-4",), reason="parley")
    assert line == "The GM keeps the end of the battle at 1,-1 secret"


def test_unit_hp_rulings_read_the_same_whatever_the_value() -> None:
    hp_set = _first(ev.UnitHpSet)
    line = _same_line(hp_set, hp=9, previous=1, reason="rolled a 6")
    assert line == "The GM keeps secret what happens to red-cav"


def _wounded() -> State:
    units = dict(FINAL_STATE.units)
    units["red-cav"] = replace(units["red-cav"], hp=1)
    units["blue-lord"] = replace(units["blue-lord"], hp=1)
    return replace(FINAL_STATE, units=units)


def test_players_see_their_side_exactly_and_the_other_side_in_words() -> None:
    state = _wounded()
    blue_max = state.sides["blue"].sheet.hp
    view = player_state(state, Audience(player_combatants=frozenset({"red"})))
    assert view.units["red-cav"].health == HealthView(current=1, maximum=2)
    assert view.units["blue-lord"].health == HealthView(word=health_word(1, blue_max))
    assert view.units["blue-inf-1"].health == HealthView(word="unhurt")
    hidden = player_state(state, Audience(npc_health="hidden"))
    assert hidden.units["blue-lord"].health == HealthView()
    exact = player_state(state, Audience(npc_health="exact"))
    assert exact.units["blue-lord"].health == HealthView(current=1, maximum=blue_max)


def test_the_player_view_keeps_the_map_and_drops_hit_points() -> None:
    view = player_state(_wounded(), Audience())
    assert isinstance(view, PlayerState)
    assert view.hexes == FINAL_STATE.hexes and view.sides.keys() == FINAL_STATE.sides.keys()
    assert view.round == FINAL_STATE.round and view.stage == FINAL_STATE.stage
    data = msgspec.json.decode(msgspec.json.encode(view))
    assert all("hp" not in unit for unit in data["units"].values())
    # A Lord Sheet's hit points are its Lord's maximum: no player side, none shown.
    for side_id, side in data["sides"].items():
        assert "hp" not in side["sheet"]
        assert side["sheet"]["name"] == FINAL_STATE.sides[side_id].sheet.name
    exact = msgspec.json.decode(
        msgspec.json.encode(player_state(_wounded(), Audience(npc_health="exact")))
    )
    assert {s: d["sheet"]["hp"] for s, d in exact["sides"].items()} == {
        s: side.sheet.hp for s, side in FINAL_STATE.sides.items()
    }
