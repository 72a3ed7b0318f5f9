"""Which commands a player token may issue (service/authorize.py with generic's acts_for)."""

from __future__ import annotations

import pytest

from service.authorize import Forbidden, authorize_player
from service.commands import CommandEnvelope
from service.encounter import Encounter
from service.rulesets.generic import RULESET
from service.rulesets.generic import commands as c
from tests.unit.deciders import fold
from tests.unit.generic.fixtures import everyone_in_combat


def encounter(*, allow_player_dice: bool = False) -> Encounter:  # type: ignore[type-arg]
    game = fold(RULESET, everyone_in_combat())
    return Encounter(game=game, allow_player_dice=allow_player_dice)


ATTACK = c.Attack(attacker="alice", target="goblin", using="longsword")


def check(command: object, bound: set[str], **envelope: object) -> None:
    authorize_player(
        RULESET,
        encounter(allow_player_dice=bool(envelope.pop("allow", False))),
        CommandEnvelope(command=command, **envelope),  # type: ignore[arg-type]
        frozenset(bound),
    )


def test_a_player_attacks_and_checks_for_their_own_combatant_only() -> None:
    check(ATTACK, {"alice"})
    check(c.Check(combatant="alice", using="Stealth"), {"alice", "bob"})
    with pytest.raises(Forbidden, match="act only for bob, not for alice"):
        check(ATTACK, {"bob"})


def test_initiative_for_named_combatants_and_ending_ones_own_turn() -> None:
    check(c.RollInitiative(combatants=("alice",)), {"alice"})
    with pytest.raises(Forbidden, match="GM's to issue"):
        check(c.RollInitiative(), {"alice"})
    game = encounter().game
    whose = game.phase.turn  # type: ignore[union-attr]
    check(c.NextTurn(), {whose})
    with pytest.raises(Forbidden):
        check(c.NextTurn(), {"nobody-here"})


def test_table_commands_are_the_gms() -> None:
    for command in (
        c.Damage(target="goblin", amount=3),
        c.AddCombatant(id="x", name="X", hp=1),
        c.Adjudicate(ruling=c.SetValue(combatant="alice", field="hp", value=1), reason="r"),
        c.EndEncounter(),
    ):
        with pytest.raises(Forbidden, match="GM's to issue"):
            check(command, {"alice", "bob", "goblin"})


def test_player_dice_need_the_encounters_permission_and_secrecy_is_the_gms() -> None:
    with pytest.raises(Forbidden, match="allow_player_dice"):
        check(ATTACK, {"alice"}, manual_dice=[[20]])
    check(ATTACK, {"alice"}, manual_dice=[[20]], allow=True)
    with pytest.raises(Forbidden, match="only the GM may roll in secret"):
        check(ATTACK, {"alice"}, hidden=True)


def test_players_act_from_their_sheet_and_never_bring_numbers_of_their_own() -> None:
    """A player token must not choose the numbers of its rolls ("1d20+1000")."""
    off_sheet = (
        (c.Attack(attacker="alice", target="goblin", notation="1d20+1000"), "attack of the sheet"),
        (c.Attack(attacker="alice", target="goblin", using="longsword", damage="100d100"),
         "from the sheet"),
        (c.Attack(attacker="alice", target="goblin", using="longsword", target_number=1),
         "from the sheet"),
        (c.Check(combatant="alice", notation="1d20+50", label="Stealth"), "checks of the sheet"),
        (c.Check(combatant="alice", using="Stealth", target_number=1), "no target number"),
        (c.Check(combatant="alice", using="Stealth",
                 opposed=c.OpposedRoll(combatant="goblin", notation="1d2")), "opposing roll"),
        (c.RollInitiative(combatants=("alice",), notation="1d20+99"), "encounter's dice"),
    )  # fmt: skip
    for command, reason in off_sheet:
        with pytest.raises(Forbidden, match=reason):
            check(command, {"alice"})
