"""The dice rule in Untold Aeons: bleeding that keeps a Severely Injured character at or
below twice the wound limit calls for no Toughness roll (UAE-21, UAE-A14), so a die sent
with it is refused, saying why; above twice the limit the save is rolled."""

from __future__ import annotations

from service.rulesets.untold_aeons import RULESET
from service.rulesets.untold_aeons import commands as cmd
from service.rulesets.untold_aeons import events as ev
from tests.unit.deciders import given
from tests.unit.untold_aeons.fixtures import play, table


def _severe(damage: int) -> list[ev.Event]:
    """The Cultist (wound limit 12) Severely Injured at ``damage``."""
    return play(
        [
            cmd.Rule(
                ruling=cmd.SetValue(character="cultist", field="damage", value=damage),
                reason="x",
            ),
            cmd.Rule(
                ruling=cmd.SetStatus(character="cultist", status="severely_injured"), reason="x"
            ),
        ],
        events=table(),
    )


def test_uae_21_bleeding_that_calls_for_no_wound_check_refuses_a_die() -> None:
    at = given(RULESET, *_severe(14))
    refused = at.when(cmd.Bleed(character="cultist"), manual=[[5, 5]]).rejected(
        match=r"^No die is rolled: the Cultist is already Severely Injured and the damage \(15\) "
        r"is not above twice the wound limit \(24\), so no Toughness roll is made"
    )
    assert refused.rule == "UAE-21, UAE-A14"
    assert [type(e) for e in at.when(cmd.Bleed(character="cultist")).events] == [ev.Bled]


def test_uae_23_bleeding_above_twice_the_limit_rolls_the_save() -> None:
    made = (
        given(RULESET, *_severe(26))
        .when(cmd.Bleed(character="cultist"), manual=[[3, 3, 3, 3, 3]])
        .events
    )
    assert any(isinstance(e, ev.LimitChecked) for e in made)
