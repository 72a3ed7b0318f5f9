"""Every piece of a combatant's sheet can be set by a GM ruling, with its reason
(SCF-20's healing tools, SCF-A20's maximum FP, weapons, Saves ...)."""

from __future__ import annotations

from service.rulesets.scentfinder import RULESET
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Adjudicate
from service.rulesets.scentfinder.sheet import SheetChange
from service.rulesets.scentfinder.state import Spell, Weapon
from tests.unit.deciders import fold
from tests.unit.scentfinder.fixtures import act, fight


def test_scf_20_healing_tools_given_by_ruling_allow_first_help() -> None:
    table = fight()
    table.do(Adjudicate(reason="hurt", combatant="alice", persistent=(4,)))
    table.refuse(
        act("bob", "administer_first_help", target="alice"), "requires available healing tools"
    )
    ruling = Adjudicate(
        reason="Bob finds a medkit", combatant="bob", sheet=SheetChange(healing_tools=True)
    )
    events = table.do(ruling)
    assert events == [
        ev.Ruling(
            reason="Bob finds a medkit", combatant="bob", sheet=SheetChange(healing_tools=True)
        )
    ]
    assert table.who("bob").healing_tools
    state = fold(RULESET, table.history[:-1])
    assert RULESET.narrate(state, events[0]) == (
        "GM ruling (Bob finds a medkit): Bob: sheet: healing tools: yes."
    )
    table.do(act("bob", "administer_first_help", target="alice", degree="success"))
    assert table.who("alice").persistent == (2,)


def test_scf_a20_every_other_piece_of_the_sheet_can_be_ruled() -> None:
    table = fight()
    change = SheetChange(
        max_hp=20,
        max_fp=5,
        saves={"REF": 1, "VIG": 4},
        skills=("Might", "Medicine"),
        weapons={"axe": Weapon(damage="1d10")},
        held=("axe",),
        spells={"Spark": Spell(fp=1, damage="1d4")},
        magic_skill="Arcana",
        refocus_skill="Focus",
        shield=True,
        sentient=False,
        side="foes",
        name="Bob the Bold",
    )
    table.do(Adjudicate(reason="a new sheet", combatant="bob", sheet=change))
    bob = table.who("bob")
    assert (bob.max_hp, bob.max_fp, bob.saves, bob.skills) == (
        20,
        5,
        {"REF": 1, "VIG": 4},
        ("Might", "Medicine"),
    )
    assert (bob.held, tuple(bob.weapons), tuple(bob.spells)) == (("axe",), ("axe",), ("Spark",))
    assert (bob.magic_skill, bob.refocus_skill, bob.shield, bob.sentient, bob.side) == (
        "Arcana",
        "Focus",
        True,
        False,
        "foes",
    )
    assert bob.name == "Bob the Bold"


def test_a_weapon_taken_off_the_sheet_is_no_longer_held() -> None:
    table = fight()
    table.do(Adjudicate(reason="the spear breaks", combatant="bob", sheet=SheetChange(weapons={})))
    assert table.who("bob").held == () and table.who("bob").weapons == {}


def test_a_sheet_ruling_that_does_not_hold_together_is_refused() -> None:
    table = fight()
    table.refuse(
        Adjudicate(reason="x", combatant="bob", sheet=SheetChange(held=("axe",))),
        "Bob would hold 'axe', which is not on the sheet",
    )
    table.refuse(
        Adjudicate(reason="x", combatant="bob", sheet=SheetChange(hands=0)),
        "Bob has 0 hand\\(s\\) and cannot hold 1 weapons",
    )
    table.refuse(
        Adjudicate(
            reason="x", combatant="bob", sheet=SheetChange(weapons={"x": Weapon(damage="d")})
        ),
        "'d' is not a damage die",
    )
    table.refuse(
        Adjudicate(reason="x", combatant="bob", sheet=SheetChange()),
        "sets at least one piece of the sheet",
    )
    table.refuse(
        Adjudicate(reason="x", sheet=SheetChange(shield=True)),
        "names the combatant it changes",
    )
