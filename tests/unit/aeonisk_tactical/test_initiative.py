"""Initiative (section 1): Agility x 4 + d20, natural 1, ties, re-roll timing, Shock and
the forfeit re-roll (AEK-06..12, AEK-A1, AEK-A7, AEK-A8)."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    Declare,
    InflictShock,
    NextPhase,
    RemoveCharacter,
    Resolve,
    RollInitiative,
    SetValue,
)
from service.rulesets.aeonisk_tactical.events import (
    InitiativeEntry,
    InitiativeRerolled,
    InitiativeRolled,
    RoundStarted,
    ShockSuffered,
)
from service.rulesets.aeonisk_tactical.plan import Reload
from service.rulesets.aeonisk_tactical.rules import resolution_order
from service.rulesets.aeonisk_tactical.state import Character
from tests.unit.aeonisk_tactical.fixtures import Table, alice, goblin, gunner, nyx, rolls_of


def _two(options: AeoniskOptions | None = None) -> Table:
    table = Table(options)
    table.setup(alice(), goblin(), bands={("alice", "goblin"): "near"})
    return table


def _through_round(table: Table) -> None:
    """Both declare nothing, and the round runs to Cleanup."""
    for who in reversed([c.id for c in _order(table)]):
        table.do(Declare(character=who))
    table.do(NextPhase())
    table.do(NextPhase())
    table.do(NextPhase())


def _order(table: Table) -> list[Character]:
    return resolution_order(table.state)


def test_agility_times_4_plus_d20_in_descending_order() -> None:
    table = _two()
    events = table.start_round(5, 17)
    assert events[0] == RoundStarted(round=1)
    rolled = events[1]
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.results == (
        InitiativeEntry(character="alice", total=21),
        InitiativeEntry(character="goblin", total=25),
    )
    assert rolled.order == ("goblin", "alice")
    assert rolled.rolls[0].modifiers == (Modifier("Agility 4 x 4", 16),)
    assert table.narrated(events)[1] == (
        "Alice rolls 1d20 for initiative: d20 [5] +16 Agility 4 x 4 = 21 (manual); Goblin "
        "rolls 1d20 for initiative: d20 [17] +8 Agility 2 x 4 = 25 (manual). Initiative "
        "order: Goblin 25, Alice 21"
    )


def test_a_natural_1_gives_initiative_0_and_slow_actions() -> None:
    table = _two()
    (_, rolled) = table.start_round(1, 2)
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.results[0] == InitiativeEntry(character="alice", total=0, natural_one=True)
    assert rolled.rolls[0].modifiers[-1] == Modifier("natural 1: INIT 0", -17)
    assert rolled.order == ("goblin", "alice")
    assert "natural 1: all skill checks halved, all actions Slow" in table.narrated([rolled])[0]


def test_ties_go_to_the_highest_skill_then_agility() -> None:
    table = Table()
    table.setup(nyx(), gunner(), bands={})
    # Nyx 12 + 5 = 17, Gunner 8 + 9 = 17; best skill 3 each; Agility 3 beats 2.
    (_, rolled) = table.start_round(5, 9)
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.order == ("nyx", "gunner") and rolled.note is None


def test_a_tie_the_tie_breaks_cannot_split_is_noted_for_the_gm() -> None:
    table = Table()
    table.setup(goblin(), goblin(id="grub", name="Grub"), bands={})
    (_, rolled) = table.start_round(6, 6)
    assert isinstance(rolled, InitiativeRolled)
    assert rolled.order == ("goblin", "grub")
    assert rolled.note is not None and "Goblin and Grub tie" in rolled.note
    table.do(
        Adjudicate(ruling=SetValue(character="grub", field="initiative", value=15), reason="ambush")
    )
    assert [c.id for c in _order(table)] == ["grub", "goblin"]


def test_initiative_is_rerolled_every_round_by_default() -> None:
    table = _two()
    table.start_round(5, 17)
    _through_round(table)
    events = table.start_round(20, 1)
    assert events[0] == RoundStarted(round=2)
    assert [r.total for r in rolls_of(events)] == [36, 0]


def test_initiative_once_at_start_keeps_it() -> None:
    table = _two(AeoniskOptions(initiative_mode="once_at_start"))
    table.start_round(5, 17)
    _through_round(table)
    assert table.start_round() == [RoundStarted(round=2)]
    assert table.state.characters["alice"].initiative == 21


def test_declarations_go_in_ascending_initiative() -> None:
    table = _two()
    table.start_round(5, 17)  # Goblin 25, Alice 21: Alice declares first
    table.refuse(Declare(character="goblin"), "it is Alice's turn to declare \\(Initiative 21\\)")
    table.do(Declare(character="alice"))
    table.do(Declare(character="goblin"))


def test_shock_lowers_initiative_by_the_option() -> None:
    table = _two(AeoniskOptions(shock_init_penalty=5))
    table.start_round(5, 17)
    events = table.do(Adjudicate(ruling=InflictShock(character="goblin"), reason="flashbang"))
    assert events == [ShockSuffered(character="goblin", initiative=20, reason="flashbang")]
    assert table.state.characters["goblin"].shocks == 1


def test_shock_without_a_size_leaves_initiative_to_the_gm() -> None:
    table = _two()
    table.start_round(5, 17)
    (event,) = table.do(Adjudicate(ruling=InflictShock(character="goblin"), reason="flashbang"))
    assert event == ShockSuffered(character="goblin", initiative=None, reason="flashbang")
    assert table.narrated([event]) == [
        "Goblin suffers Shock (flashbang); the GM sets how far Initiative 25 drops"
    ]


def test_shock_stops_at_initiative_0() -> None:
    table = _two(AeoniskOptions(shock_init_penalty=30))
    table.start_round(5, 17)
    (event,) = table.do(Adjudicate(ruling=InflictShock(character="goblin"), reason="blast"))
    assert isinstance(event, ShockSuffered) and event.initiative == 0


def test_forfeit_rerolls_initiative_instead_of_acting() -> None:
    table = _two()
    table.start_round(5, 17)
    table.refuse(
        Declare(character="alice", forfeit=True, minor=Reload(weapon="pistol")),
        "forfeits the turn to re-roll Initiative, so declares no Major or Minor",
    )
    events = table.do(Declare(character="alice", forfeit=True), [15])
    rerolled = events[1]
    assert isinstance(rerolled, InitiativeRerolled) and rerolled.total == 31
    assert table.state.characters["alice"].initiative == 31


def test_the_forfeit_reroll_is_halved_at_initiative_0() -> None:
    table = _two()
    table.start_round(1, 17)  # Alice at INIT 0
    events = table.do(Declare(character="alice", forfeit=True), [15])
    rerolled = events[1]
    assert isinstance(rerolled, InitiativeRerolled) and rerolled.total == 15  # 31 // 2
    assert rerolled.rolls[0].modifiers[-1] == Modifier("halved: Initiative was 0", -16)


def test_the_forfeit_reroll_halves_with_the_halve_rounding_option() -> None:
    table = _two(AeoniskOptions(halve_rounding="ceil"))
    table.start_round(1, 17)
    rerolled = table.do(Declare(character="alice", forfeit=True), [15])[1]
    assert isinstance(rerolled, InitiativeRerolled) and rerolled.total == 16  # 31 / 2 up


def test_init_zero_actions_resolve_after_every_normal_action() -> None:
    table = Table()
    table.setup(alice(), goblin(), gunner(), bands={})
    table.start_round(1, 3, 2)  # Alice 0, Goblin 11, Gunner 10
    table.do(Declare(character="alice", minor=Reload(weapon="pistol")))
    table.do(Declare(character="gunner", minor=Reload(weapon="rifle")))
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.do(NextPhase())
    table.do(NextPhase())
    order = [table.do(Resolve())[0].character for _ in range(3)]  # type: ignore[union-attr]
    assert order == ["goblin", "gunner", "alice"]


def test_aek_06_initiative_one_character_at_a_time_as_the_dice_land() -> None:
    table = _two()
    started = table.do(NextPhase(initiative="one_at_a_time"))
    assert started == [RoundStarted(round=1, awaiting=("alice", "goblin"))]
    assert table.narrated(started) == [
        "Round 1 begins. Initiative one at a time as the dice land (Alice, Goblin to roll). "
        "Declare Phase: declarations in ascending Initiative"
    ]
    table.refuse(
        Declare(character="goblin"),
        "Initiative is still being rolled \\(Alice, Goblin to roll\\)",
    )
    table.refuse(NextPhase(), "Initiative is still being rolled: Alice, Goblin to roll")
    (goblin_die,) = table.do(RollInitiative(character="goblin"), [17])
    assert isinstance(goblin_die, InitiativeRolled)
    assert goblin_die.results == (InitiativeEntry(character="goblin", total=25),)
    assert goblin_die.order == ("goblin",)
    table.refuse(RollInitiative(character="goblin"), "Goblin has no Initiative die to roll")
    (alice_die,) = table.do(RollInitiative(character="alice"), [5])
    assert isinstance(alice_die, InitiativeRolled) and alice_die.order == ("goblin", "alice")
    assert table.state.initiative_due == ()
    table.refuse(Declare(character="goblin"), "it is Alice's turn to declare")
    table.do(Declare(character="alice"))


def test_one_at_a_time_leaves_last_rounds_totals_out_of_the_order() -> None:
    table = _two()
    table.start_round(5, 17)  # Goblin 25, Alice 21
    _through_round(table)
    table.do(NextPhase(initiative="one_at_a_time"))
    (rolled,) = table.do(RollInitiative(character="alice"), [2])
    assert isinstance(rolled, InitiativeRolled) and rolled.order == ("alice",)


def test_a_roll_initiative_needs_a_round_started_one_at_a_time() -> None:
    table = _two()
    table.refuse(RollInitiative(character="alice"), "Initiative is rolled at the start of a round")
    table.start_round(5, 17)
    table.refuse(RollInitiative(character="alice"), "Alice has no Initiative die to roll")


def test_a_character_who_leaves_while_the_dice_land_is_not_waited_for() -> None:
    table = Table()
    table.setup(alice(), goblin(), nyx(), bands={})
    table.do(NextPhase(initiative="one_at_a_time"))
    table.do(RollInitiative(character="alice"), [3])
    table.do(RemoveCharacter(id="nyx"))
    table.refuse(
        Declare(character="alice"), "Initiative is still being rolled \\(Goblin to roll\\)"
    )
    table.do(RollInitiative(character="goblin"), [3])
    table.do(Declare(character="goblin"))
