"""What players see of a generic encounter while a GM roll is secret (view.py)."""

from __future__ import annotations

import re

import msgspec
from msgspec.structs import replace

from service.rulesets.generic import RULESET, State
from service.rulesets.generic.events import (
    AttackRolled,
    CheckRolled,
    Damaged,
    Event,
    Healed,
    InitiativeRolled,
    OutcomeOverridden,
    ValueSet,
)
from service.rulesets.generic.examples import EVENTS, STORY_SO_FAR
from service.rulesets.generic.state import InitiativeEntry, SheetAttack
from service.rulesets.generic.view import PlayerState, narrate_secret, player_state
from service.secrecy import Audience, HealthView
from tests.unit.deciders import fold
from tests.unit.generic.fixtures import alice, goblin, in_combat


def _example(kind: type[Event]) -> Event:
    return next(e for e in EVENTS if isinstance(e, kind))


def _before(event: Event) -> State:
    """The state before ``event`` in the examples' story."""
    return fold(RULESET, (*STORY_SO_FAR, *EVENTS[: EVENTS.index(event)]))


def _same_line(event: Event, other: Event) -> str:
    state = _before(event)
    line = narrate_secret(state, event)
    assert narrate_secret(state, other) == line
    return line


def test_an_attack_reads_the_same_whether_it_hit_or_missed() -> None:
    hit = _example(AttackRolled)
    assert isinstance(hit, AttackRolled)
    missed = replace(hit, outcome="miss", rolls=())
    assert _same_line(hit, missed) == "The GM rolls in secret for Aria's attack on Grak"


def test_damage_and_healing_read_the_same_whatever_the_amount() -> None:
    damaged = _example(Damaged)
    assert isinstance(damaged, Damaged)
    line = _same_line(damaged, replace(damaged, amount=1, hp_after=6, rolls=()))
    assert not re.search(r"\d", line)
    healed = _example(Healed)
    assert isinstance(healed, Healed)
    line = _same_line(healed, replace(healed, amount=7, hp_after=7, rolls=()))
    assert not re.search(r"\d", line)


def test_a_check_reads_the_same_whatever_its_outcome() -> None:
    check = _example(CheckRolled)
    assert isinstance(check, CheckRolled)
    line = _same_line(check, replace(check, outcome="failure", rolls=()))
    assert line == "The GM rolls in secret for Grak's Dirty trick check against Borin"


def test_initiative_reads_the_same_whatever_the_order() -> None:
    rolled = _example(InitiativeRolled)
    assert isinstance(rolled, InitiativeRolled)
    first = InitiativeEntry(combatant="grak", total=30)
    other = replace(rolled, results=(first,), order=(first, *rolled.order[:1]), note="roll-off")
    assert not re.search(r"\d", _same_line(rolled, other))


def test_rulings_read_the_same_whatever_the_value() -> None:
    value = _example(ValueSet)
    assert isinstance(value, ValueSet)
    line = _same_line(value, replace(value, value=99, previous=1, reason="rolled a 20"))
    assert line == "The GM changes Grak's stat:ac in secret"
    overridden = _example(OutcomeOverridden)
    assert isinstance(overridden, OutcomeOverridden)
    _same_line(overridden, replace(overridden, outcome="success", previous="failure"))


def _wounded_goblin_after_an_attack() -> State:
    return fold(
        RULESET,
        (
            alice(),
            goblin(),
            *in_combat("alice", "goblin"),
            Damaged(target="goblin", amount=3, hp_after=4, source="Alice's attack"),
            Damaged(target="alice", amount=2, hp_after=10),
        ),
    )


def test_players_see_a_word_for_the_npc_and_numbers_for_their_character() -> None:
    state = _wounded_goblin_after_an_attack()
    view = player_state(state, Audience(player_combatants=frozenset({"alice"})))
    assert view.combatants["goblin"].health == HealthView(word="wounded")
    assert view.combatants["goblin"].stats is None
    assert view.combatants["alice"].health == HealthView(current=10, maximum=12)
    assert view.combatants["alice"].stats == {"ac": 14, "dex": 3}
    assert view.order == ("alice", "goblin")
    hidden = player_state(state, Audience(npc_health="hidden"))
    assert hidden.combatants["goblin"].health == HealthView()
    exact = player_state(state, Audience(npc_health="exact"))
    assert exact.combatants["goblin"].health == HealthView(current=4, maximum=7)


def test_a_player_sees_their_own_sheet_and_not_the_gms() -> None:
    """A player picks an attack or a check by name from their own sheet; an NPC's sheet
    stays the GM's unless the table shows NPC numbers."""
    sword = {"sword": SheetAttack(notation="1d20+5", damage="1d8+3")}
    state = fold(
        RULESET,
        (
            alice(attacks=sword, checks={"Stealth": "1d20+4"}),
            goblin(attacks={"club": SheetAttack(notation="1d20+2")}),
        ),
    )
    view = player_state(state, Audience(player_combatants=frozenset({"alice"})))
    assert view.combatants["alice"].attacks == sword
    assert view.combatants["alice"].checks == {"Stealth": "1d20+4"}
    assert view.combatants["goblin"].attacks is None
    assert view.combatants["goblin"].checks is None
    exact = player_state(state, Audience(npc_health="exact"))
    assert exact.combatants["goblin"].attacks == {"club": SheetAttack(notation="1d20+2")}


def test_the_player_view_drops_remembered_outcomes_and_initiative_totals() -> None:
    state = fold(RULESET, (*STORY_SO_FAR, *EVENTS[:8]))
    assert state.outcomes, "the story remembers outcomes a GM may overrule"
    view = player_state(state, Audience())
    assert isinstance(view, PlayerState)
    data = msgspec.json.decode(msgspec.json.encode(view))
    assert "outcomes" not in data
    assert data["order"] == ["aria", "grak", "borin"]
    encoded = msgspec.json.encode(view).decode()
    assert '"total"' not in encoded and "r4" not in encoded
