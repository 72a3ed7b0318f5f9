"""The secrecy contract: fields shown of secret events, the secret log line, the player
view of the state."""

from __future__ import annotations

import msgspec

from service.rulesets.tactics import RULESET
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.examples import EVENTS
from service.secrecy import Audience
from tests.unit.tactics.fixtures import at, end, of, resolve, shot, state_of, table


def test_every_event_tag_has_its_shown_fields_and_never_rolls() -> None:
    tags = {str(t.__struct_config__.tag) for t in RULESET.event_types}
    assert set(RULESET.shown_when_secret) == tags
    for tag, fields in RULESET.shown_when_secret.items():
        assert "rolls" not in fields, tag
    for hidden in ("total", "result", "fail_by", "damage"):
        assert hidden not in RULESET.shown_when_secret["tactics.agility_checked"]
    for hidden in ("soak", "through", "wounds", "damage"):
        assert hidden not in RULESET.shown_when_secret["tactics.soak_rolled"]
    assert "total_after" not in RULESET.shown_when_secret["tactics.wounded"]
    assert "status_after" not in RULESET.shown_when_secret["tactics.wounded"]


def test_secret_lines_do_not_depend_on_hidden_fields() -> None:
    before = table(shot(), end("rex"))
    state = state_of(before)
    high = at(before).when(resolve("vex"), manual=[[1], [1]]).events
    low = at(before).when(resolve("vex"), manual=[[2], [3]]).events
    assert RULESET.narrate_secret is not None
    for a, b in zip(high, low, strict=True):
        assert type(a) is type(b)
        assert RULESET.narrate_secret(state, a) == RULESET.narrate_secret(state, b)
        shown = RULESET.shown_when_secret[str(type(a).__struct_config__.tag)]
        assert {f: getattr(a, f) for f in shown} == {f: getattr(b, f) for f in shown}
    line = RULESET.narrate_secret(state, of(high, ev.AgilityChecked)[0])
    assert line == "The GM rolls Vex's Agility in secret against Rex's Press p1"
    assert not any(ch.isdigit() for ch in line.replace("p1", ""))


def test_every_example_event_has_a_secret_line() -> None:
    assert RULESET.narrate_secret is not None
    state = RULESET.initial_state(msgspec.convert({"press_penalty_step": 2}, RULESET.options_type))
    for event in EVENTS:
        assert isinstance(event, RULESET.event_types)
        assert RULESET.narrate_secret(state, event)


def test_player_view_maps_wounds_to_health_and_hides_npc_sheets() -> None:
    before = table(shot(), end("rex"))
    given = at(before).when(resolve("vex"), manual=[[7], [10]])
    state = given.state_after()
    assert RULESET.player_state is not None
    view = RULESET.player_state(
        state, Audience(npc_health="descriptor", player_combatants=frozenset({"rex"}))
    )
    rex, vex = view.combatants["rex"], view.combatants["vex"]
    assert (rex.health.current, rex.health.maximum) == (20, 20) and rex.sheet is not None
    assert vex.health.word == "wounded" and vex.health.current is None and vex.sheet is None
    exact = RULESET.player_state(state, Audience(npc_health="exact"))
    assert exact.combatants["vex"].health.current == 15
    hidden = RULESET.player_state(state, Audience(npc_health="hidden"))
    assert hidden.combatants["vex"].health.word is None and hidden.combatants["vex"].status is None
    encoded = msgspec.json.encode(view)
    assert b"rolls" not in encoded and b"total" not in encoded


def test_pending_presses_are_visible_to_players() -> None:
    state = state_of(table(shot()))
    assert RULESET.player_state is not None
    view = RULESET.player_state(state, Audience())
    assert [p.id for p in view.pending] == ["p1"]


def test_secret_lines_do_not_tell_whether_the_press_landed() -> None:
    """Shields meeting the hit and wounds read alike, and neither says 'hit'."""
    before = table(shot(), end("rex"))
    state = state_of(before)
    hit = at(before).when(resolve("vex"), manual=[[1], [1]]).events
    assert RULESET.narrate_secret is not None
    wounded = of(hit, ev.Wounded)[0]
    shielded = ev.ShieldsSpent(combatant="vex", press="p1", spent=1, negated=3, shields_after=0)
    line = RULESET.narrate_secret(state, wounded)
    assert line == RULESET.narrate_secret(state, shielded)
    assert line == "The GM keeps secret what happens to Vex"
    voided = ev.HitVoided(press="p1", target="vex", why="Vex is dead")
    assert "dead" not in RULESET.narrate_secret(state, voided)
