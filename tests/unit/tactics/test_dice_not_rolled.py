"""The dice rule in TACTICS: attackers never roll (TAC-01) and the cool-down check has no
test (TAC-A2), so a die sent with either is refused, saying why."""

from __future__ import annotations

from service.rulesets.tactics import commands as cmd
from tests.unit.tactics.fixtures import at, end, ruling, shot, table


def test_tac_01_a_press_sent_with_a_die_is_refused_as_attackers_never_roll() -> None:
    refused = (
        at(table())
        .when(shot(), manual=[[17]])
        .rejected(
            match=r'^No die is rolled: attackers "do not roll": a Press is resolved by the '
            "defender's rolls on their turn; send the command without manual dice$"
        )
    )
    assert refused.rule == "TAC-01"
    assert at(table()).when(shot()).events  # without the die the Press is declared


def test_tac_a2_a_cool_down_check_sent_with_a_die_is_refused() -> None:
    events = table(
        ruling(cmd.SetValue(combatant="vex", field="shields", value=0)),
        end("rex"),
        vex={"shields": 3},
    )
    refused = (
        at(events)
        .when(cmd.CooldownCheck(combatant="vex", passed=True), manual=[[12]])
        .rejected(match="the text gives the cool-down check no test: the GM says whether it passes")
    )
    assert refused.rule == "TAC-A2"
