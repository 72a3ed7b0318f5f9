"""Hypothesis strategies for commands of the generic ruleset: any command a table might
send, valid or not, over a small cast so that commands often meet the same combatants."""

from __future__ import annotations

from hypothesis import strategies as st

from service.dice.model import Modifier
from service.rulesets.generic import Command
from service.rulesets.generic import commands as c

IDS = st.sampled_from(["a", "b", "c", "d"])


NOTATIONS = st.sampled_from(["1d20", "1d20+5", "2d6", "1d4-2", "4d6kh3", "1d8!", "d"])


SMALL = st.integers(min_value=-3, max_value=25)


MODIFIERS = st.lists(st.builds(Modifier, st.sampled_from(["bless", "cover"]), SMALL), max_size=2)


CONDITIONS = st.sampled_from(["prone", "down", "blessed"])


DURATIONS = st.none() | st.integers(min_value=0, max_value=3)


OPTIONAL_AMOUNT = st.none() | st.integers(min_value=-1, max_value=15)


RULINGS = st.one_of(
    st.builds(
        c.SetValue,
        combatant=IDS,
        field=st.sampled_from(["hp", "max_hp", "stat:ac", "stat:dex", "speed"]),
        value=SMALL,
    ),
    st.builds(c.AddConditionRuling, target=IDS, condition=CONDITIONS, duration_rounds=DURATIONS),
    st.builds(c.RemoveConditionRuling, target=IDS, condition=CONDITIONS),
    st.builds(
        c.OverrideOutcome,
        roll_id=st.integers(1, 40).map(lambda n: f"r{n}"),
        outcome=st.sampled_from(["hit", "miss", "success", "failure"]),
    ),
)


COMMANDS: st.SearchStrategy[Command] = st.one_of(
    st.builds(
        c.AddCombatant,
        id=IDS,
        name=st.sampled_from(["Alice", "Bob", "Goblin", " "]),
        hp=st.integers(-1, 12),
        max_hp=st.none() | st.integers(0, 12),
        stats=st.dictionaries(st.sampled_from(["ac", "dex"]), SMALL, max_size=2),
        side=st.none() | st.sampled_from(["pc", "foe"]),
    ),
    st.builds(c.RemoveCombatant, id=IDS),
    st.builds(
        c.RollInitiative,
        combatants=st.none() | st.lists(IDS, max_size=3).map(tuple),
        notation=st.none() | NOTATIONS,
    ),
    *[st.just(c.NextTurn())] * 4,  # turns and rounds should pass often
    st.builds(
        c.Attack,
        attacker=IDS,
        target=IDS,
        notation=NOTATIONS,
        target_number=st.none() | SMALL,
        damage=st.none() | NOTATIONS,
        modifiers=MODIFIERS.map(tuple),
    ),
    st.builds(
        c.Check,
        combatant=IDS,
        notation=NOTATIONS,
        label=st.sampled_from(["Stealth", "Grapple", ""]),
        target_number=st.none() | SMALL,
        opposed=st.none() | st.builds(c.OpposedRoll, combatant=IDS, notation=NOTATIONS),
    ),
    st.builds(c.Damage, target=IDS, amount=OPTIONAL_AMOUNT, notation=st.none() | NOTATIONS),
    st.builds(c.Heal, target=IDS, amount=OPTIONAL_AMOUNT, notation=st.none() | NOTATIONS),
    st.builds(c.AddCondition, target=IDS, condition=CONDITIONS, duration_rounds=DURATIONS),
    st.builds(c.RemoveCondition, target=IDS, condition=CONDITIONS),
    st.builds(c.Adjudicate, ruling=RULINGS, reason=st.sampled_from(["table", "house rule", ""])),
)


CAST: list[Command] = [
    c.AddCombatant(id="a", name="Alice", hp=12, stats={"ac": 14, "dex": 3}),
    c.AddCombatant(id="b", name="Bob", hp=4, max_hp=10, stats={"ac": 12}),
    c.AddCombatant(id="c", name="Goblin", hp=7, stats={"ac": 15, "dex": 2}),
]
