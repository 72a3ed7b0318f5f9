"""Reinforce is a choice (AEC-17, section 4.1), and the units it promotes are on the Battle
Line for the same round's strikes (AEC-17/AEC-19/AEC-A9, sections 4.2, 4.3).

The lines: Red's Battle Line is b-cav and a-arch (2 of 3) with Reserves b-inf, a-inf-1,
a-inf-2 in commitment order; Blue's is t-inf-1 and t-inf-2 with Reserves c-arch, c-inf.
"""

from __future__ import annotations

from service.rulesets.aeonis_combat import AeonisOptions, Event
from service.rulesets.aeonis_combat.commands import Fight, Reinforce, SetTargets
from service.rulesets.aeonis_combat.events import BattleRoundFought, ReinforceChosen
from tests.unit.aeonis_combat.fixtures import (
    RULESET,
    TARGET,
    attack_on_target,
    faces,
    play,
    state_after,
    strikes,
)
from tests.unit.deciders import given, line_for

RED = {"side": "red", "hex": TARGET}
BLUE = {"side": "blue", "hex": TARGET}


def _under_cap(options: AeonisOptions | None = None) -> list[Event]:
    return attack_on_target(
        line=("b-cav", "a-arch"), defender_line=("t-inf-1", "t-inf-2"), options=options
    )


def _fought(events: list[Event]) -> BattleRoundFought:
    return next(e for e in events if isinstance(e, BattleRoundFought))


def test_a_side_promotes_the_reserves_it_chooses() -> None:
    """AEC-17: 'you may promote units from your Reserves': Red picks a-inf-2, not the
    first committed Reserve (b-inf); Blue picks c-inf, not c-arch."""
    history = _under_cap()
    chosen = given(RULESET, *history).when(Reinforce(**RED, promote=("a-inf-2",))).events
    assert chosen == [ReinforceChosen(hex=TARGET, side="red", promote=("a-inf-2",))]
    history += chosen
    history += play([Reinforce(**BLUE, promote=("c-inf",))], history=history)
    # a-arch on t-inf-1; b-cav and a-inf-2 strike; t-inf-1, t-inf-2, c-inf counterstrike.
    events = given(RULESET, *history).when(Fight(**RED), faces(*[1] * 12)).events
    fought = _fought(events)
    assert fought.promoted == {"red": ("a-inf-2",), "blue": ("c-inf",)}
    assert [s.striker for s in fought.strikes] == [
        "a-arch",
        "b-cav",
        "a-inf-2",
        "t-inf-1",
        "t-inf-2",
        "c-inf",
    ]
    battle = state_after(history + events).battles[TARGET]
    assert battle.attacker_line == ("b-cav", "a-arch", "a-inf-2")
    assert battle.attacker_reserves == ("b-inf", "a-inf-1")
    assert battle.defender_line == ("t-inf-1", "t-inf-2", "c-inf")
    assert battle.defender_reserves == ("c-arch",)
    assert battle.reinforce == {}  # a choice is for one round


def test_a_side_may_promote_none() -> None:
    """AEC-17: promoting is a 'may'; an empty choice keeps the line as it is."""
    history = _under_cap()
    history += play([Reinforce(**RED, promote=())], history=history)
    # a-arch, then Blue's promoted c-arch; b-cav strikes; t-inf-1, t-inf-2 counterstrike.
    events = given(RULESET, *history).when(Fight(**RED), faces(*[1] * 10)).events
    fought = _fought(events)
    assert fought.promoted == {"blue": ("c-arch",)}  # Blue chose nothing: filled (default)
    assert "b-inf" not in [s.striker for s in fought.strikes]
    assert state_after(history + events).battles[TARGET].attacker_line == ("b-cav", "a-arch")


def test_the_attacker_may_choose_on_the_fight_command() -> None:
    """AEC-17: aeonis.fight's promote is the attacker's Reinforce choice; it overrides an
    earlier aeonis.reinforce."""
    history = _under_cap()
    history += play([Reinforce(**RED, promote=("b-inf",))], history=history)
    events = (
        given(RULESET, *history).when(Fight(**RED, promote=("a-inf-1",)), faces(*[1] * 12)).events
    )
    assert _fought(events).promoted["red"] == ("a-inf-1",)


def test_a_side_that_chose_nothing_follows_the_option() -> None:
    """AEC-17, option reinforce_unchosen: 'fill' (default) promotes in commitment order up
    to the cap; 'none' promotes nobody."""
    filled = given(RULESET, *_under_cap()).when(Fight(**RED), faces(*[1] * 12)).events
    assert _fought(filled).promoted == {"red": ("b-inf",), "blue": ("c-arch",)}
    options = AeonisOptions(reinforce_unchosen="none")
    events = (
        given(RULESET, *_under_cap(options), options=options)
        .when(Fight(**RED), faces(*[1] * 8))
        .events
    )
    assert _fought(events).promoted == {}


def test_reinforce_refusals_name_the_rule() -> None:
    """AEC-17: Reserves only, only up to the cap, only before the round is resolved."""
    history = _under_cap()
    when = given(RULESET, *history).when
    when(Reinforce(**RED, promote=("b-inf", "a-inf-1"))).rejected(
        r"Red's Battle Line has 2 of its cap of 3 units: Reinforce promotes Reserves only "
        r"until the line reaches the cap \(section 4.1\); 2 given"
    )
    when(Reinforce(**RED, promote=("a-arch",))).rejected(
        r"a-arch is on the Battle Line already; Reinforce promotes Reserves \(section 4.1\)"
    )
    when(Reinforce(**RED, promote=("c-inf",))).rejected(
        r"c-inf is not in Red's Reserves; Reinforce promotes Reserves onto the Battle Line"
    )
    when(Fight(**RED, promote=("b-inf", "b-inf"))).rejected(
        "b-inf is named twice in the units to promote"
    )
    full = attack_on_target()  # 8.1's lines are at the cap: nothing may be promoted
    given(RULESET, *full).when(Reinforce(**BLUE, promote=("c-inf",))).rejected(
        r"Blue's Battle Line has 3 of its cap of 3 units"
    )
    history += play([(Fight(**RED), faces(*[1] * 12))], history=history)
    given(RULESET, *history).when(Reinforce(**BLUE, promote=())).rejected(
        r"Reinforce is step 1 of a battle round \(section 4.1\)"
    )


def test_promoted_units_are_targets_in_the_same_round() -> None:
    """AEC-19 / AEC-A9 (4.3: 'choose a target enemy Battle Line unit'): units promoted in
    this round's Reinforce are on the line for this round's strikes, on both sides."""
    history = _under_cap()
    history += play(
        [
            Reinforce(**RED, promote=("a-inf-2",)),
            Reinforce(**BLUE, promote=("c-inf",)),
            SetTargets(**BLUE, targets={"t-inf-1": "a-inf-2"}),
        ],
        history=history,
    )
    # a-arch 1 vs t-inf-1 1; b-cav 8 vs c-inf 1 (destroyed); a-inf-2 1 vs t-inf-1 1;
    # t-inf-1 6 vs a-inf-2 1 (destroyed); t-inf-2 1 vs b-cav 1; c-inf has fallen.
    events = (
        given(RULESET, *history)
        .when(Fight(**RED, targets={"b-cav": "c-inf"}), faces(1, 1, 8, 1, 1, 1, 6, 1, 1, 1))
        .events
    )
    assert strikes(events) == [
        ("pre_strike", "a-arch", "t-inf-1", 1, 1, 0, 1),
        ("strike", "b-cav", "c-inf", 8, 1, 1, 0),
        ("strike", "a-inf-2", "t-inf-1", 1, 1, 0, 1),
        ("counterstrike", "t-inf-1", "a-inf-2", 6, 1, 1, 0),
        ("counterstrike", "t-inf-2", "b-cav", 1, 1, 0, 2),
    ]
    assert _fought(events).destroyed == ("c-inf", "a-inf-2")


def test_a_reserve_left_in_reserve_is_still_no_target() -> None:
    """AEC-A9: only Battle Line units, as Reinforce leaves the line, are targets."""
    history = _under_cap()
    history += play([Reinforce(**BLUE, promote=("c-inf",))], history=history)
    given(RULESET, *history).when(Fight(**RED, targets={"b-cav": "c-arch"})).rejected(
        r"c-arch is in the Reserves and not promoted in this round's Reinforce \(4.1\); only "
        r"enemy Battle Line units can be targeted \(sections 4.2, 4.3\)"
    )


def test_a_target_the_enemy_then_keeps_in_reserve_falls_back() -> None:
    """AEC-A9 / the Targets rule: Blue aims at b-inf, which Red would promote by default;
    Red then promotes nobody, so t-inf-1 strikes the first unit of Red's line."""
    history = _under_cap()
    history += play(
        [SetTargets(**BLUE, targets={"t-inf-1": "b-inf"}), Reinforce(**RED, promote=())],
        history=history,
    )
    events = given(RULESET, *history).when(Fight(**RED), faces(*[1] * 10)).events
    assert ("counterstrike", "t-inf-1", "b-cav", 1, 1, 0, 2) in strikes(events)


def test_the_log_says_whom_a_side_promotes() -> None:
    state = state_after(_under_cap())
    assert (
        line_for(RULESET, state, ReinforceChosen(hex=TARGET, side="red", promote=("a-inf-2",)))
        == "Red will promote a-inf-2 in Reinforce at 0,0"
    )
    assert (
        line_for(RULESET, state, ReinforceChosen(hex=TARGET, side="blue"))
        == "Blue will promote nobody in Reinforce at 0,0"
    )
