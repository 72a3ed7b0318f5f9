"""Secrecy (shown_when_secret, narrate_secret, player_state) and who may issue what."""

from __future__ import annotations

from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate, Delay, EndTurn, Resolve, Save
from service.secrecy import Audience
from tests.unit.scentfinder.fixtures import act, fight


def test_every_event_tag_has_a_whitelist_without_rolls_or_numbers() -> None:
    tags = {str(t.__struct_config__.tag) for t in RULESET.event_types}
    assert set(RULESET.shown_when_secret) == tags
    for fields in RULESET.shown_when_secret.values():
        assert not fields & {"rolls", "degree", "damage", "hp_after", "fp_after", "value", "phase"}


def test_secret_lines_do_not_depend_on_hidden_fields() -> None:
    state = fight().state
    a = ev.ActionResolved(
        actor="bob",
        action="strike",
        degree="success",
        target="goblin",
        effect="rolled damage",
        damage=5,
        hp_after=3,
    )
    b = ev.ActionResolved(
        actor="bob",
        action="strike",
        degree="triumph",
        target="goblin",
        effect="maximised damage",
        damage=6,
        hp_after=2,
    )
    assert RULESET.narrate_secret is not None
    assert RULESET.narrate_secret(state, a) == RULESET.narrate_secret(state, b)
    assert RULESET.narrate_secret(state, a) == "The GM rolls in secret for Bob's Strike on Goblin."
    s1 = ev.SaveMade(
        combatant="bob", save="REF", degree="success", label="the trap", damage=1, hp_after=11
    )
    s2 = ev.SaveMade(
        combatant="bob", save="REF", degree="bungle", label="the trap", damage=12, hp_after=0
    )
    assert RULESET.narrate_secret(state, s1) == RULESET.narrate_secret(state, s2)
    for event in RULESET.examples:
        if type(event) in RULESET.event_types:
            assert RULESET.narrate_secret(state, event)  # type: ignore[arg-type]


def test_player_view_health_and_no_initiative_values() -> None:
    table = fight()
    table.do(act("bob", "strike", target="goblin", weapon="spear", degree="success"), [5])
    assert RULESET.player_state is not None
    view = RULESET.player_state(
        table.state,
        Audience(npc_health="descriptor", player_combatants=frozenset({"alice", "bob"})),
    )
    people = {c.id: c for c in view.combatants}
    assert people["goblin"].health.word == "bloodied" and people["goblin"].health.current is None
    assert people["bob"].health.current == 12 and people["bob"].fp == 0
    assert people["goblin"].fp is None
    # A player acts from their character's sheet by name; an NPC's stat block stays hidden.
    bob = people["bob"].sheet
    assert bob is not None and "spear" in bob.weapons
    assert people["goblin"].sheet is None
    encoded = str(view)
    assert "init_value" not in encoded
    hidden = RULESET.player_state(table.state, Audience(npc_health="hidden"))
    assert {c.id: c for c in hidden.combatants}["goblin"].health.word is None


def test_players_declare_for_their_own_characters_the_gm_enters_degrees() -> None:
    state = fight().state
    assert RULESET.acts_for(
        state, act("bob", "strike", target="goblin", weapon="spear")
    ) == frozenset({"bob"})
    assert (
        RULESET.acts_for(
            state, act("bob", "strike", target="goblin", weapon="spear", degree="success")
        )
        is None
    )
    assert RULESET.acts_for(state, Resolve(degree="success")) is None
    assert RULESET.acts_for(state, Save(combatant="bob", degree="success")) is None
    assert RULESET.acts_for(state, Delay(combatant="bob", phase=3)) == frozenset({"bob"})
    assert RULESET.acts_for(state, EndTurn(combatant="bob")) == frozenset({"bob"})
    assert RULESET.acts_for(state, Adjudicate(reason="x")) is None


def test_every_example_event_narrates_and_replays_its_type() -> None:
    state = fight().state
    kinds = {type(e) for e in RULESET.examples}
    assert set(RULESET.command_types) <= kinds and set(RULESET.event_types) <= kinds
    for event in RULESET.examples:
        if type(event) in RULESET.event_types:
            assert RULESET.narrate(state, event)  # type: ignore[arg-type]
