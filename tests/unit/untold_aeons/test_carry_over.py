"""Untold Aeons carry-over, checked by hand: damage, stress, Shaken, xp and what it
bought carry with the investigator; the karma pools carry with the table."""

from __future__ import annotations

from msgspec.structs import replace

from service.carry_over import CARRIED_REASON
from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons.carry_over import (
    CARRY,
    UntoldCarryOptions,
    UntoldCondition,
    UntoldTable,
)
from service.rulesets.untold_aeons.state import Hardened, State
from tests.unit.deciders import play
from tests.unit.untold_aeons.fixtures import JONAH, MARA, state_of
from tests.unit.untold_aeons.fixtures import play as play_events


def _rule(ruling: cmd.Ruling) -> cmd.Rule:
    return cmd.Rule(ruling=ruling, reason="the crypt")


def _after_the_crypt() -> State:
    """Mara earns 30 xp and spends it on Firearms 3 -> 4 (10 x 3), takes 9 damage and
    spends a karma point (players 2 -> 1, Narrator 1 -> 2); Jonah ends Shaken at 17
    stress with a notch of Unnatural."""
    events = play_events(
        [
            MARA,
            JONAH,
            _rule(cmd.SetValue(character="mara", field="xp", value=30)),
            cmd.Advance(character="mara", trait="firearms"),
            _rule(cmd.SetValue(character="mara", field="damage", value=9)),
            cmd.SpendKarma(by="mara", use="bonus"),
            _rule(cmd.SetValue(character="jonah", field="stress", value=17)),
            _rule(cmd.SetStatus(character="jonah", status="shaken")),
            cmd.EndEncounter(),
        ]
    )
    return state_of(events)


TRAITS_MARA = {
    "dexterity": 3,
    "toughness": 3,
    "willpower": 3,
    "intellect": 3,
    "brawl": 2,
    "firearms": 4,
    "perception": 2,
}


def test_the_investigator_and_the_karma_pools_carry() -> None:
    assert CARRY.ended(_after_the_crypt())
    carried = CARRY.carry_over(_after_the_crypt(), UntoldCarryOptions())
    assert carried.characters["mara"] == UntoldCondition(damage=9, xp=0, traits=TRAITS_MARA)
    jonah = carried.characters["jonah"]
    assert (jonah.stress, jonah.shaken, jonah.status) == (17, True, "active")
    assert carried.table == UntoldTable(karma_players=1, karma_narrator=2)


def test_the_pools_can_start_afresh_by_option() -> None:
    carried = CARRY.carry_over(_after_the_crypt(), UntoldCarryOptions(carry_karma=False))
    assert carried.table == UntoldTable()


def test_seeding_brings_the_sheet_as_xp_left_it_and_the_pools_after_the_arrivals() -> None:
    state = RULESET.initial_state(RULESET.options_type())
    mara = UntoldCondition(damage=9, xp=5, traits=TRAITS_MARA)
    jonah = UntoldCondition(
        stress=17, shaken=True, hardened={"unnatural": Hardened(notches=1)}, traits={}
    )
    seeded_mara = CARRY.seed(state, MARA, mara)
    assert seeded_mara == (
        replace(MARA, skills={"brawl": 2, "firearms": 4, "perception": 2}, damage=9),
        cmd.Rule(ruling=cmd.SetValue(character="mara", field="xp", value=5), reason=CARRIED_REASON),
    )
    state = play(RULESET, state, seeded_mara)
    state = play(RULESET, state, CARRY.seed(state, JONAH, jonah))
    assert state.karma_players == 2, "each investigator brought a point (UAE-03)"
    table = UntoldTable(karma_players=1, karma_narrator=2)
    state = play(RULESET, state, CARRY.settle_table(state, table))
    assert (state.karma_players, state.karma_narrator) == (1, 2)
    j = state.characters["jonah"]
    assert (j.stress, j.shaken, j.hardened["unnatural"].notches) == (17, True, 1)
    assert state.characters["mara"].skills["firearms"] == 4
    assert CARRY.settle_table(state, table) == (), "nothing left to settle"


def test_only_the_dead_stay_out() -> None:
    assert CARRY.unfit(UntoldCondition(status="dead")) is not None
    assert CARRY.unfit(UntoldCondition(status="severely_injured")) is None
