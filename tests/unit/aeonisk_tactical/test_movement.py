"""Range bands and movement (section 3), terrain (5a), Prone (5b), Disengage and
Breakaway, the zone map (section 11): AEK-23..29, AEK-51..55, AEK-A19..A21, AEK-A30."""

from __future__ import annotations

from service.dice.model import Modifier
from service.rulesets.aeonisk_tactical import AeoniskOptions
from service.rulesets.aeonisk_tactical.commands import (
    Adjudicate,
    Declare,
    FreeStrike,
    NextPhase,
    PlaceInZone,
    Resolve,
    SetBand,
    SetProne,
    SetValue,
)
from service.rulesets.aeonisk_tactical.events import (
    ActionFailed,
    AttackRolled,
    BandChange,
    BreakawayClosed,
    BreakawayOpened,
    CheckRolled,
    DamageRolled,
    Moved,
    ProneChanged,
)
from service.rulesets.aeonisk_tactical.options import ZoneLink
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Disengage, Move, Reload, Stand
from service.rulesets.aeonisk_tactical.rules import band
from service.rulesets.aeonisk_tactical.state import PendingMove
from tests.unit.aeonisk_tactical.fixtures import (
    RULESET,
    Table,
    alice,
    goblin,
    gunner,
    nyx,
    rolls_of,
)


def _duel(start: str = "near", options: AeoniskOptions | None = None) -> Table:
    table = Table(options)
    table.setup(alice(), goblin(), bands={("alice", "goblin"): start})  # type: ignore[dict-item]
    table.start_round(12, 4)  # Alice 28, Goblin 12
    return table


def test_a_minor_shifts_one_band_and_a_major_two() -> None:
    table = _duel("far")
    table.do(Declare(character="goblin"))
    table.refuse(
        Declare(character="alice", minor=Move(bands=2, reference="goblin", direction="closer")),
        "a Minor action shifts at most 1 band",
    )
    table.declare(
        Declare(
            character="alice",
            major=Move(bands=2, reference="goblin", direction="closer"),
        )
    )
    (_, moved) = table.do(Resolve())
    assert moved == Moved(
        character="alice", changes=(BandChange(other="goblin", before="far", after="engaged"),)
    )
    assert band(table.state, "alice", "goblin") == "engaged"


def test_bands_stop_at_engaged_and_extreme() -> None:
    table = _duel("engaged")
    table.refuse(
        Declare(character="goblin", minor=Move(bands=1, reference="alice", direction="closer")),
        "cannot shift 1 band closer from engaged with Alice",
    )


def test_a_move_names_whom_it_is_measured_to() -> None:
    table = _duel()
    table.refuse(Declare(character="goblin", minor=Move(bands=1)), "names whom it is measured to")


def test_terrain_check_before_the_move() -> None:
    table = _duel("far")
    table.do(Declare(character="goblin"))
    step = Move(bands=1, reference="goblin", direction="closer", terrain="unstable_crates")
    table.declare(Declare(character="alice", minor=step))
    events = table.do(Resolve(), [3])  # 4 x 3 + 3 = 15 vs 15
    checked = events[1]
    assert isinstance(checked, CheckRolled) and checked.outcome == "success"
    assert checked.rolls[0].target == 15 and checked.label == "terrain check (Unstable Crates)"
    assert isinstance(events[2], Moved)


def test_failing_the_terrain_check_loses_the_move_and_leaves_the_mover_prone() -> None:
    table = _duel("far")
    table.do(Declare(character="goblin"))
    step = Move(bands=1, reference="goblin", direction="closer", terrain="vacuum_breach")
    table.declare(Declare(character="alice", minor=step))
    events = table.do(Resolve(), [7])  # 19 vs 20
    assert events[2] == ProneChanged(
        character="alice", prone=True, reason="failed to cross Vacuum Breach"
    )
    assert not any(isinstance(e, Moved) for e in events)
    assert band(table.state, "alice", "goblin") == "far"


def test_terrain_check_can_add_instead_of_multiply() -> None:
    table = _duel("far", AeoniskOptions(terrain_check_formula="sum"))
    table.do(Declare(character="goblin"))
    step = Move(bands=1, reference="goblin", direction="closer", terrain="light_clutter")
    table.declare(Declare(character="alice", minor=step))
    checked = table.do(Resolve(), [3])[1]
    assert isinstance(checked, CheckRolled)
    assert checked.rolls[0].modifiers == (Modifier("Agility 4 + Athletics 3", 7),)
    assert checked.rolls[0].total == 10 and checked.outcome == "success"


def test_a_major_enters_difficult_terrain_in_place() -> None:
    table = _duel()
    table.do(Declare(character="goblin"))
    table.refuse(Declare(character="alice", major=Move(bands=0)), "enters Difficult Terrain")
    table.refuse(
        Declare(character="alice", minor=Move(bands=0, terrain="light_clutter")),
        r"entering Difficult Terrain within the current band is a Major action \(section 3\)",
    )
    table.declare(Declare(character="alice", major=Move(bands=0, terrain="light_clutter")))
    events = table.do(Resolve(), [1])
    assert [type(e).__name__ for e in events] == ["ActionBegan", "CheckRolled"]


def test_standing_up_is_a_minor_on_a_later_turn() -> None:
    table = _duel()
    table.refuse(Declare(character="goblin", minor=Stand()), "Goblin is not Prone")
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="shoved"))
    table.declare(Declare(character="goblin", minor=Stand()), Declare(character="alice"))
    (_, stood) = table.do(Resolve())
    assert stood == ProneChanged(character="goblin", prone=False, reason="stands up")


def test_knocked_prone_before_a_charge_the_major_is_lost() -> None:
    """Section 5b: an earlier combatant knocks you Prone before your Slow step."""
    table = _duel("far")
    charge = Charge(target="alice", weapon="knife", attribute="agility", skill="melee")
    table.declare(Declare(character="goblin", major=charge), Declare(character="alice"))
    table.do(Adjudicate(ruling=SetProne(character="goblin", prone=True), reason="Alice's shove"))
    (failed,) = table.do(Resolve())
    assert isinstance(failed, ActionFailed) and failed.slot == "major"
    assert "requires standing" in failed.reason and "action is lost" in failed.reason
    table.refuse(Resolve(), "every declared action has resolved")


def test_disengage_is_an_athletics_check_to_leave_without_breakaway() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin"))
    table.declare(Declare(character="alice", minor=Disengage(foe="goblin")))
    events = table.do(Resolve(), [8])  # 12 + 8 = 20 vs 20
    assert isinstance(events[1], CheckRolled) and events[1].outcome == "success"
    assert events[2] == Moved(
        character="alice", changes=(BandChange(other="goblin", before="engaged", after="near"),)
    )
    assert not any(isinstance(e, BreakawayOpened) for e in events)


def test_a_failed_disengage_stays_engaged() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin"))
    table.declare(Declare(character="alice", minor=Disengage(foe="goblin")))
    events = table.do(Resolve(), [7])
    assert len(events) == 2 and isinstance(events[1], CheckRolled)
    assert band(table.state, "alice", "goblin") == "engaged"


def test_disengage_needs_engaged() -> None:
    table = _duel("near")
    table.do(Declare(character="goblin"))
    table.refuse(
        Declare(character="alice", minor=Disengage(foe="goblin")),
        "Disengage: Alice must currently be Engaged with Goblin",
    )


def test_leaving_engaged_without_disengaging_provokes_a_free_strike() -> None:
    """AEK-28: the free strike is 'immediate', against a foe 'you were Engaged with': it
    resolves before the move completes, and the log reads break, strike, move."""
    table = _duel("engaged")
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.declare(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="away"))
    )
    events = table.do(Resolve())
    away = BandChange(other="goblin", before="engaged", after="near")
    assert events[-1] == BreakawayOpened(
        mover="alice", foes=("goblin",), move=PendingMove(changes=(away,), slot="minor")
    )
    assert not any(isinstance(e, Moved) for e in events)
    assert band(table.state, "alice", "goblin") == "engaged"
    table.refuse(
        FreeStrike(character="alice", weapon="blade", attribute="agility", skill="melee"),
        "Alice has no Breakaway free strike",
    )
    strike = table.do(
        FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee"),
        [15],
        [2],
        [3],
    )
    rolled = strike[0]
    assert isinstance(rolled, AttackRolled) and rolled.kind == "free_strike"
    assert rolled.rolls[0].modifiers[1:] == (Modifier("Flanking: Alice has no Defence Token", 2),)
    assert strike[-2:] == [
        Moved(character="alice", changes=(away,)),
        BreakawayClosed(mover="alice"),
    ]
    assert table.state.characters["goblin"].reaction_used
    assert band(table.state, "alice", "goblin") == "near"
    lines = table.narrated(table.history[-len(strike) :])
    assert lines[0].startswith("Goblin rolls 1d20 for Breakaway free strike on Alice")
    assert lines[-2] == "Alice moves: Goblin Engaged -> Near"
    assert lines[-1] == "Every free strike at Alice has been taken"  # AEK-28: no chance passed


def test_a_free_strike_that_kills_stops_the_move() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.declare(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="away"))
    )
    table.do(Adjudicate(ruling=SetValue(character="alice", field="wounds", value=4), reason="x"))
    table.do(Resolve())
    strike = table.do(
        FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee"),
        [20],
        [1],
        [20],
        [1],
    )
    assert table.state.characters["alice"].status == "dead"
    assert strike[-1] == BreakawayClosed(mover="alice")
    assert not any(isinstance(e, Moved) for e in strike)
    assert band(table.state, "alice", "goblin") == "engaged"


def test_the_chance_of_a_free_strike_passes_with_the_next_action() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.declare(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="away"))
    )
    table.do(Resolve())
    passed = table.do(Resolve())
    assert [type(e) for e in passed] == [Moved, BreakawayClosed]
    assert (
        table.narrated(passed)[-1] == "The chance of a free strike at Alice has passed for Goblin"
    )
    assert band(table.state, "alice", "goblin") == "near"
    table.refuse(
        FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee"),
        "no Breakaway free strike",
    )


ZONES = (
    ZoneLink(a="catwalk", b="crates", band="near"),
    ZoneLink(a="crates", b="bay", band="near"),
    ZoneLink(a="catwalk", b="bay", band="far"),
    ZoneLink(a="bay", b="control", band="extreme"),
)


def test_zone_map_bands_and_moves() -> None:
    table = Table(AeoniskOptions(zone_map=ZONES))
    table.do(alice(zone="catwalk"))
    table.do(goblin(zone="bay"))
    assert band(table.state, "alice", "goblin") == "far"
    table.refuse(SetBand(a="alice", b="goblin", band="near"), "band follows from their zones")
    table.start_round(12, 4)
    table.do(Declare(character="goblin"))
    table.refuse(
        Declare(character="alice", minor=Move(bands=1, zone="bay")),
        "bay is 2 band shifts away, more than this move's 1",
    )
    table.refuse(Declare(character="alice", minor=Move(bands=1, zone="deck")), "no zone 'deck'")
    table.declare(Declare(character="alice", minor=Move(bands=1, zone="crates")))
    (_, moved) = table.do(Resolve())
    assert moved == Moved(character="alice", zone="crates")
    assert band(table.state, "alice", "goblin") == "near"


def test_zone_map_bands_show_in_the_state_as_the_map_gives_them() -> None:
    """Section 11 / AEK-29: the state carries the band of each pair on the map, so a
    client need not compute it; a pair of zones the map leaves out has none until the GM
    sets it, and that band holds until one of them moves."""
    table = Table(AeoniskOptions(zone_map=(*ZONES, ZoneLink(a="control", b="tunnel", band="near"))))
    table.do(alice(zone="catwalk"))
    table.do(goblin(zone="bay"))
    table.do(nyx(zone="bay"))
    assert table.state.bands == {"alice|goblin": "far", "alice|nyx": "far", "goblin|nyx": "engaged"}
    table.do(PlaceInZone(character="goblin", zone="tunnel"))
    assert table.state.bands == {"alice|nyx": "far"}
    table.refuse(
        SetBand(a="alice", b="nyx", band="near"),
        "their band follows from their zones \\(catwalk and bay are far\\)",
    )
    table.do(SetBand(a="alice", b="goblin", band="extreme"))
    assert band(table.state, "alice", "goblin") == "extreme"
    table.do(PlaceInZone(character="goblin", zone="crates"))
    assert table.state.bands == {"alice|goblin": "near", "alice|nyx": "far", "goblin|nyx": "near"}


def test_zone_placement_by_the_gm() -> None:
    table = Table(AeoniskOptions(zone_map=ZONES))
    table.do(alice())
    table.do(PlaceInZone(character="alice", zone="control"))
    assert table.state.characters["alice"].zone == "control"
    table.refuse(PlaceInZone(character="alice", zone="control"), "already in control")
    plain = Table()
    plain.do(alice())
    plain.refuse(PlaceInZone(character="alice", zone="x"), "no zone map")


def test_an_unknown_band_fails_the_attack_and_asks_the_gm() -> None:
    table = Table()
    table.setup(alice(), goblin(), bands={})
    table.start_round(12, 4)
    shot = Attack(target="goblin", weapon="pistol", attribute="perception", skill="firearms")
    table.declare(Declare(character="goblin"), Declare(character="alice", major=shot))
    (failed,) = [e for e in table.do(Resolve()) if isinstance(e, ActionFailed)]
    assert "band between Alice and Goblin is not set" in failed.reason
    assert rolls_of(table.history[-1:]) == []


def test_the_mover_or_the_gm_completes_a_move_held_by_a_breakaway() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin", minor=Reload(weapon="smg")))
    table.declare(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="away"))
    )
    table.do(Resolve())
    assert RULESET.acts_for(table.state, Resolve()) == frozenset({"alice"})
    strike = FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee")
    assert RULESET.acts_for(table.state, strike) == frozenset({"goblin"})


def test_a_gm_closing_the_slow_phase_completes_a_held_move_first() -> None:
    table = _duel("engaged")
    table.do(Declare(character="goblin"))
    table.declare(
        Declare(character="alice", minor=Move(bands=1, reference="goblin", direction="away"))
    )
    table.do(Resolve())
    events = table.do(NextPhase())
    assert [type(e).__name__ for e in events[:3]] == ["Moved", "BreakawayClosed", "PhaseStarted"]
    assert band(table.state, "alice", "goblin") == "near"


def test_a_charge_out_of_engaged_takes_the_free_strike_before_it_arrives() -> None:
    """AEK-28 with AEK-58: charging from a zone shared with a foe, the foe left behind
    strikes first; then the charger moves, arrives and attacks."""
    table = Table(AeoniskOptions(zone_map=(ZoneLink(a="crates", b="bay", band="near"),)))
    table.do(alice(zone="crates"))
    table.do(goblin(zone="crates"))
    table.do(gunner(zone="bay"))
    table.start_round(12, 4, 4)  # Alice 28, Goblin 12, Gunner 12
    charge = Charge(target="gunner", weapon="blade", attribute="agility", skill="melee")
    table.declare(
        Declare(character="gunner"),
        Declare(character="goblin"),
        Declare(character="alice", major=charge),
    )
    _, opened = table.do(Resolve())
    assert opened == BreakawayOpened(
        mover="alice", foes=("goblin",), move=PendingMove(zone="bay", slot="major")
    )
    assert table.state.characters["alice"].zone == "crates"
    events = table.do(
        FreeStrike(character="goblin", weapon="knife", attribute="agility", skill="melee"),
        [1],
        [19],
        [15],
        [2],
        [5],
    )
    assert [type(e).__name__ for e in events] == [
        "AttackRolled",
        "Moved",
        "BreakawayClosed",
        "ChargeMade",
        "AttackRolled",
        "DamageRolled",
    ]
    first, _, _, _, charging, damage = events
    assert isinstance(first, AttackRolled) and first.kind == "free_strike"
    assert isinstance(charging, AttackRolled) and charging.kind == "charge"
    assert isinstance(damage, DamageRolled)
    assert Modifier("Charge", 2) in damage.rolls[0].modifiers
    assert table.state.characters["alice"].zone == "bay"
