"""Lord abilities from Lord Sheets: AEC-09 (2.1.1), AEC-13 (2.1.2), AEC-10 (2.1.4)."""

from __future__ import annotations

from service.rulesets.aeonis_combat import Event
from service.rulesets.aeonis_combat.access import acts_for
from service.rulesets.aeonis_combat.commands import (
    AddSide,
    Attack,
    Cleanup,
    Defend,
    EndAttack,
    Fight,
    LordAbilitySpec,
    LordSheetSpec,
    SetLordAbilities,
    Stand,
    StartRound,
    UseLordAbility,
)
from service.rulesets.aeonis_combat.events import LordAbilitiesSet, LordAbilityUsed
from service.rulesets.aeonis_combat.state import LordAbility
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    faces,
    play,
    state_after,
    world,
)
from tests.unit.deciders import given, line_for

RALLY = LordAbilitySpec(
    name="Rally",
    timing="once per round, in a battle he is committed to",
    effect="one Infantry on his Battle Line rerolls its Defense Die",
    requires_committed=True,
    per_round=1,
)
STALWART = LordAbilitySpec(
    name="Stalwart", timing="passive", effect="his City's walls hold", passive=True
)
COUNSEL = LordAbilitySpec(
    name="Counsel", timing="Action Phase", effect="look at the top card of the event deck"
)
SHEET = SetLordAbilities(side="blue", abilities=(RALLY, STALWART, COUNSEL))


def _with_sheet() -> list[Event]:
    history = world()
    return history + play([SHEET], history=history)


def _blue_lord_defends() -> list[Event]:
    """Red attacks 0,0; Blue's Lord (2 HP, d6 defence) joins the defence from its City."""
    history = _with_sheet()
    return history + play(
        [
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(
                side="blue",
                hex=TARGET,
                commit=("blue-lord",),
                line=("blue-lord", "t-inf-1", "t-inf-2"),
            ),
        ],
        history=history,
    )


def test_a_lord_sheet_lists_its_abilities_as_data() -> None:
    """AEC-09: abilities are entered with the sheet (add_side) or by the GM later."""
    state = state_after(_with_sheet())
    assert [a.name for a in state.sides["blue"].sheet.abilities] == [
        "Rally",
        "Stalwart",
        "Counsel",
    ]
    assert state.sides["blue"].sheet.abilities[0] == LordAbility(
        name="Rally",
        timing="once per round, in a battle he is committed to",
        effect="one Infantry on his Battle Line rerolls its Defense Die",
        requires_committed=True,
        per_round=1,
    )
    added = play(
        [
            AddSide(
                id="green",
                name="Green",
                lord_id="green-lord",
                lord=LordSheetSpec(
                    name="Ivo",
                    attack_die="d6",
                    defense_die="d6",
                    hp=2,
                    movement=1,
                    abilities=(COUNSEL,),
                ),
            )
        ],
        history=world(),
    )
    assert state_after(world() + added).sides["green"].sheet.abilities[0].name == "Counsel"
    given(RULESET, *world()).when(
        SetLordAbilities(side="blue", abilities=(COUNSEL, COUNSEL))
    ).rejected("the Lord Sheet lists the ability 'Counsel' twice")
    assert acts_for(state_after(world()), SHEET) is None  # the GM's


def test_using_an_ability_records_it_for_the_gm() -> None:
    """AEC-13: available while the Lord is not captured; the GM applies the effect."""
    use = UseLordAbility(side="blue", ability="Counsel", note="before Red's attack")
    events = given(RULESET, *_with_sheet()).when(use).events
    assert events == [
        LordAbilityUsed(
            side="blue",
            lord="blue-lord",
            ability="Counsel",
            timing="Action Phase",
            effect="look at the top card of the event deck",
            note="before Red's attack",
            uses=1,
        )
    ]
    assert line_for(RULESET, state_after(_with_sheet()), events[0]) == (
        "Blue's Lord Aster uses Counsel (before Red's attack) [Action Phase]: look at the top "
        "card of the event deck; the GM applies it"
    )
    assert acts_for(state_after(_with_sheet()), use) == frozenset({"blue"})


def test_a_captured_lord_has_no_abilities() -> None:
    """AEC-10 / AEC-13 (2.1.4: 'Cannot use Lord abilities while their Lord is captured'):
    a-arch 6 vs 1 and b-cav 8 vs 1 bring Blue's Lord to 0 HP; he is captured."""
    history = _blue_lord_defends()
    history += play(
        [
            (
                Fight(
                    side="red", hex=TARGET, targets={"a-arch": "blue-lord", "b-cav": "blue-lord"}
                ),
                faces(6, 1, 8, 1, 1, 1, 1, 1),
            )
        ],
        history=history,
    )
    assert state_after(history).sides["blue"].lord_captured_by == "red"
    given(RULESET, *history).when(UseLordAbility(side="blue", ability="Counsel")).rejected(
        r"Blue's Lord Aster is captured: Blue cannot use Lord abilities while its Lord is "
        r"captured \(sections 2.1.2, 2.1.4\)"
    )
    # Released at Cleanup & Checks (2.1.4), the Lord has his abilities again.
    history += play(
        [Stand(side="red", hex=TARGET), Stand(side="blue", hex=TARGET)], history=history
    )
    history += play([EndAttack(side="red", hex=TARGET), Cleanup()], history=history)
    assert given(RULESET, *history).when(UseLordAbility(side="blue", ability="Counsel")).events


def test_an_ability_that_needs_the_lord_committed_says_so() -> None:
    """AEC-13: 'If an ability requires your Lord to be committed to a battle ... it will
    say so' (requires_committed)."""
    given(RULESET, *_with_sheet()).when(UseLordAbility(side="blue", ability="Rally")).rejected(
        r"Rally requires Aster to be committed to a battle \(section 2.1.2\): name the "
        r"battle's hex"
    )
    history = _with_sheet()
    history += play([Attack(side="red", hex=TARGET, commit=("b-cav",))], history=history)
    given(RULESET, *history).when(
        UseLordAbility(side="blue", ability="Rally", hex=TARGET)
    ).rejected(
        r"Rally requires Aster to be committed to a battle \(section 2.1.2\), and Blue's Lord "
        r"Aster is not committed to the battle at 0,0"
    )
    events = (
        given(RULESET, *_blue_lord_defends())
        .when(UseLordAbility(side="blue", ability="Rally", hex=TARGET))
        .events
    )
    assert isinstance(events[0], LordAbilityUsed) and events[0].hex == TARGET


def test_uses_per_round_are_counted_and_reset_at_round_start() -> None:
    """AEC-13 with the sheet's 'once per round': the second use in a round is refused;
    Round Start gives the use back."""
    history = _blue_lord_defends()
    rally = UseLordAbility(side="blue", ability="Rally", hex=TARGET)
    history += play([rally], history=history)
    given(RULESET, *history).when(rally).rejected(
        r"Rally may be used once per round \(the Lord Sheet: once per round, in a battle he "
        r"is committed to\); Blue has used it once in round 1"
    )
    history += play(
        [
            (Fight(side="red", hex=TARGET), faces(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)),
            Stand(side="red", hex=TARGET),
            Stand(side="blue", hex=TARGET),
            EndAttack(side="red", hex=TARGET),
            Cleanup(),
            StartRound(),
            Attack(side="red", hex=TARGET, commit=("b-cav", "a-arch")),
            Defend(side="blue", hex=TARGET, commit=("blue-lord",)),
        ],
        history=history,
    )
    assert state_after(history).sides["blue"].abilities_used == {}
    events = given(RULESET, *history).when(rally).events
    assert isinstance(events[0], LordAbilityUsed) and events[0].uses == 1


def test_passive_and_unknown_abilities_are_not_used() -> None:
    """AEC-13: a passive ability is always on while the Lord is free; an ability the
    sheet does not list does not exist."""
    given(RULESET, *_with_sheet()).when(UseLordAbility(side="blue", ability="Stalwart")).rejected(
        "Stalwart is passive: it applies while Aster is not captured and is never used"
    )
    given(RULESET, *_with_sheet()).when(UseLordAbility(side="blue", ability="Fly")).rejected(
        r"Aster's Lord Sheet has no ability 'Fly' \(it lists: Rally, Stalwart, Counsel\)"
    )
    given(RULESET, *world()).when(UseLordAbility(side="red", ability="Rally")).rejected(
        r"Vess's Lord Sheet has no ability 'Rally' \(it lists: none\)"
    )


def test_the_gm_replaces_a_sheet_s_abilities() -> None:
    events = given(RULESET, *_with_sheet()).when(SetLordAbilities(side="blue", abilities=())).events
    assert events == [LordAbilitiesSet(side="blue", abilities=())]
    assert state_after(_with_sheet() + events).sides["blue"].sheet.abilities == ()
