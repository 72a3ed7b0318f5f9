"""Aeonisk carry-over, checked by hand: Wounds, Void and death persist (section 9), Stun
by option, the rest of a fight stays in it."""

from __future__ import annotations

from service.carry_over import CARRIED_REASON
from service.rulesets.aeonisk_tactical.carry_over import (
    CARRY,
    AeoniskCarryOptions,
    AeoniskCondition,
)
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    EndEncounter,
    SetValue,
    VoidSplash,
)
from tests.unit.aeonisk_tactical.fixtures import RULESET, Table, goblin, kaelia
from tests.unit.deciders import play


def _bruised() -> Table:
    """Kaelia (Void 3) ends a fight with 2 Wounds, 1 Stun and a Void splash: Void 4."""
    table = Table()
    table.do(kaelia())
    table.do(goblin())
    table.do(Adjudicate(ruling=SetValue(character="kaelia", field="wounds", value=2), reason="hit"))
    table.do(Adjudicate(ruling=SetValue(character="kaelia", field="stun", value=1), reason="Surge"))
    table.do(Adjudicate(ruling=VoidSplash(characters=("kaelia",)), reason="Void Slick"))
    table.do(EndEncounter())
    return table


def test_wounds_stun_and_void_carry() -> None:
    assert CARRY.ended(_bruised().state)
    carried = CARRY.carry_over(_bruised().state, AeoniskCarryOptions())
    assert carried.characters["kaelia"] == AeoniskCondition(wounds=2, stun=1, void=4)
    assert carried.characters["goblin"] == AeoniskCondition()


def test_stun_can_be_left_behind_by_option() -> None:
    carried = CARRY.carry_over(_bruised().state, AeoniskCarryOptions(carry_stun=False))
    assert carried.characters["kaelia"] == AeoniskCondition(wounds=2, stun=0, void=4)


def test_seeding_sets_void_on_the_sheet_and_wounds_and_stun_by_ruling() -> None:
    state = RULESET.initial_state(RULESET.options_type())
    condition = AeoniskCondition(wounds=2, stun=1, void=4)
    commands = CARRY.seed(state, kaelia(), condition)
    assert commands == (
        kaelia(void=4),
        Adjudicate(
            ruling=SetValue(character="kaelia", field="wounds", value=2), reason=CARRIED_REASON
        ),
        Adjudicate(
            ruling=SetValue(character="kaelia", field="stun", value=1), reason=CARRIED_REASON
        ),
    )
    seeded = play(RULESET, state, commands).characters["kaelia"]
    assert (seeded.wounds, seeded.stun, seeded.void, seeded.burned_round) == (2, 1, 4, None)


def test_the_dead_do_not_fight_again() -> None:
    why = CARRY.unfit(AeoniskCondition(wounds=6, dead=True))
    assert why is not None and "Health check" in why
    assert CARRY.unfit(AeoniskCondition(wounds=4)) is None
