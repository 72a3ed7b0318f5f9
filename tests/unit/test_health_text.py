"""Health in log lines and event data, per reader (docs/secrecy.md, "NPC health"):
service/health_text.py renders a line's health parts, projections/redaction.py's
``redact_health`` removes the declared fields of event data."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from projections.redaction import KEY, redact_health
from service.health_text import health_part, health_words, render_health
from service.registry import get_ruleset
from service.ruleset import HealthField
from service.secrecy import Audience

LINE = "Grak takes 4 damage" + health_words("grak", " (40 -> 36 hp)", 36, 40)
HIDDEN = Audience(npc_health="hidden")
DESCRIPTOR = Audience(npc_health="descriptor")


def test_the_gm_and_an_exact_table_read_the_numbers() -> None:
    assert render_health(LINE, None) == "Grak takes 4 damage (40 -> 36 hp)"
    assert render_health(LINE, Audience(npc_health="exact")) == render_health(LINE, None)


def test_players_read_the_word_or_nothing() -> None:
    assert render_health(LINE, DESCRIPTOR) == "Grak takes 4 damage (wounded)"
    assert render_health(LINE, HIDDEN) == "Grak takes 4 damage"


def test_a_player_characters_numbers_are_read_by_everyone_at_the_table() -> None:
    bound = Audience(npc_health="hidden", player_combatants=frozenset({"grak"}))
    assert render_health(LINE, bound) == "Grak takes 4 damage (40 -> 36 hp)"


def test_a_part_of_several_owners_is_exact_for_any_of_them() -> None:
    line = "Lord Vess" + health_part(("red", "red-lord"), " (3 HP left)", " (wounded)")
    side = Audience(npc_health="hidden", player_combatants=frozenset({"red"}))
    assert render_health(line, side) == "Lord Vess (3 HP left)"
    assert render_health(line, HIDDEN) == "Lord Vess"


def test_a_part_may_say_something_of_its_own_under_hidden() -> None:
    line = "Hit: " + health_part("grak", "3 Wounds (0 -> 3)", "3 Wounds (bloodied)", "3 Wounds")
    assert render_health(line, HIDDEN) == "Hit: 3 Wounds"


@given(st.text())
def test_no_reader_receives_a_delimiter_whatever_was_typed(text: str) -> None:
    """A name with the private-use delimiters typed into it cannot smuggle text past the
    renderer: none of them reaches any reader."""
    line = text + health_part(text, text + " 12 hp", text) + text
    for audience in (None, HIDDEN, DESCRIPTOR):
        assert not set(render_health(line, audience)) & {"\ue000", "\ue001", "\ue002"}


def _owned(data: dict[str, Any], spec: HealthField, audience: Audience) -> dict[str, Any]:
    ruleset = dataclasses.replace(get_ruleset("generic"), health_fields={"x.y": (spec,)})
    return redact_health(ruleset, "x.y", data, audience)


def test_fields_in_lists_and_maps_go_by_their_owner() -> None:
    strikes = {"strikes": [{"target": "a", "target_hp": 3}, {"target": "b", "target_hp": 1}]}
    seen = _owned(strikes, HealthField("strikes[].target_hp", ("target",)), HIDDEN)
    assert seen == {"strikes": [{"target": "a"}, {"target": "b"}]}
    bound = Audience(npc_health="hidden", player_combatants=frozenset({"a"}))
    seen = _owned(strikes, HealthField("strikes[].target_hp", ("target",)), bound)
    assert seen == {"strikes": [{"target": "a", "target_hp": 3}, {"target": "b"}]}
    after = {"after": {"a": {"stress": 4}, "b": {"stress": 2}}}
    seen = _owned(after, HealthField("after{}.stress", (KEY,)), bound)
    assert seen == {"after": {"a": {"stress": 4}, "b": {}}}


def test_a_ruling_field_is_health_only_for_the_fields_named() -> None:
    spec = HealthField("value", ("character",), frozenset({"damage"}))
    xp = {"character": "c", "field": "xp", "value": 7}
    assert _owned(xp, spec, HIDDEN) is xp
    damage = {"character": "c", "field": "damage", "value": 7}
    assert _owned(damage, spec, HIDDEN) == {"character": "c", "field": "damage"}


def test_an_exact_table_or_an_event_without_health_is_returned_as_it_is() -> None:
    ruleset = get_ruleset("generic")
    data = {"target": "grak", "amount": 4, "hp_after": 36}
    assert redact_health(ruleset, "generic.damaged", data, Audience(npc_health="exact")) is data
    assert redact_health(ruleset, "generic.damaged", data, HIDDEN) == {
        "target": "grak",
        "amount": 4,
    }
    plain = {"combatant": "grak"}
    assert redact_health(ruleset, "generic.turn_started", plain, HIDDEN) is plain
