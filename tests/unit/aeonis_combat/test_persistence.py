"""AEC-A1: what a non-siege battle keeps between Attack actions, and unit damage."""

from __future__ import annotations

from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import Attack, EndAttack, Fight, Stand
from service.rulesets.aeonis_combat.events import AttackActionEnded, AttackRenewed, BattleEnded
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    attack_on_target,
    faces,
    play,
    state_after,
)
from tests.unit.deciders import given

# 8.1's round: t-inf-2 wounds b-cav in the Counterstrike, everything else ties.
ROUND = faces(1, 1, 1, 1, 1, 1, 1, 1, 6, 1, 1, 1)


def _paused(options: AeonisOptions) -> list[Event]:
    history = attack_on_target(options=options)
    return history + play(
        [
            (Fight(side="red", hex=TARGET), ROUND),
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
        ],
        history=history,
        options=options,
    )


def test_by_default_the_commitments_dissolve_and_damage_stays() -> None:
    options = AeonisOptions()
    history = _paused(options)
    events = (
        given(RULESET, *history)
        .when(EndAttack(side="red", hex=TARGET))
        .then(BattleEnded(hex=TARGET, outcome="dissolved"))
    )
    assert state_after(history + events).units["b-cav"].hp == 1


def test_paused_persistence_keeps_the_battle_for_the_next_attack() -> None:
    options = AeonisOptions(standard_battle_persistence="paused")
    history = _paused(options)
    history += (
        given(RULESET, *history, options=options)
        .when(EndAttack(side="red", hex=TARGET))
        .then(AttackActionEnded(hex=TARGET))
    )
    battle = state_after(history, options).battles[TARGET]
    assert battle.step == "paused" and battle.attacker_line == ("b-cav", "b-inf", "a-arch")
    renewed = given(RULESET, *history, options=options).when(Attack(side="red", hex=TARGET)).events
    assert renewed == [AttackRenewed(hex=TARGET, side="red", ap_spent=2, ap_after=2, step="ready")]


def test_damage_can_be_restored_when_the_battle_ends() -> None:
    options = AeonisOptions(unit_damage_persists=False)
    history = _paused(options)
    events = (
        given(RULESET, *history, options=options)
        .when(EndAttack(side="red", hex=TARGET))
        .then(BattleEnded(hex=TARGET, outcome="dissolved", healed=("b-cav",)))
    )
    assert state_after(history + events, options).units["b-cav"].hp == 2
