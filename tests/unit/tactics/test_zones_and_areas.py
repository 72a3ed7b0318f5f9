"""Distance bands over zones (TAC-18, TAC-A13) and area effects (TAC-19..TAC-24, TAC-A12)."""

from __future__ import annotations

from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from tests.unit.tactics.fixtures import (
    ZONES,
    at,
    end,
    fighter,
    of,
    play,
    resolve,
    shot,
    state_of,
    table,
)


def place(who: str, zone: str) -> cmd.PlaceCombatant:
    return cmd.PlaceCombatant(combatant=who, zone=zone)


def test_tac_18_close_is_the_same_zone() -> None:
    assert of(table(shot()), ev.PressDeclared)
    at(table(place("vex", "hall"))).when(shot()).rejected(
        match="Vex is out of the pistol's range: Close is the same zone and Vex is 1 zone away"
    )


def test_tac_18_tac_a13_immediate_needs_unhindered_access() -> None:
    assert of(table(shot(weapon="knife")), ev.PressDeclared)
    hindered = table(cmd.SetHindered(a="vex", b="rex"))
    at(hindered).when(shot(weapon="knife")).rejected(
        match="Rex's access to Vex is hindered: Immediate range needs the same zone with "
        "unhindered access"
    )
    assert of(
        play(
            [cmd.SetHindered(a="rex", b="vex", hindered=False), shot(weapon="knife")],
            start=hindered,
        ),
        ev.PressDeclared,
    )


def test_tac_18_medium_reaches_three_zones_far_five() -> None:
    lob = cmd.Press(combatant="rex", weapon="grenade", zone="hold")
    assert of(table(place("vex", "hold"), lob), ev.PressDeclared)
    at(table(place("vex", "vent"))).when(
        cmd.Press(combatant="rex", weapon="grenade", zone="vent")
    ).rejected(
        match="zone vent is out of the grenade's range: Medium reaches up to 3 zones and zone "
        "vent is 4 zones away"
    )
    assert of(table(place("vex", "roof"), shot(weapon="rifle")), ev.PressDeclared)


def test_tac_18_sight_needs_a_line_of_sight() -> None:
    far = table(place("vex", "roof"))
    at(far).when(shot(weapon="scope")).rejected(match="Rex has no line of sight to Vex")
    assert of(
        play([cmd.SetSight(a="roof", b="deck"), shot(weapon="scope")], start=far), ev.PressDeclared
    )


def test_tac_a13_zones_with_no_path_are_out_of_range() -> None:
    events = table(cmd.AddZone(id="moon"), place("vex", "moon"))
    at(events).when(shot(weapon="rifle")).rejected(match="no path of zones links Rex to Vex")


def test_tac_19_splash_hits_the_same_cover_and_immediate_range() -> None:
    events = play(
        [
            *ZONES,
            fighter("rex", zone="hall"),
            fighter("vex"),
            fighter("ann"),
            fighter("bo", zone="hall"),
            fighter("cy"),
            cmd.AddFeature(id="crates", name="crates", zone="hall", kind="cover", users=("bo",)),
            cmd.SetHindered(a="vex", b="cy"),
            cmd.SetTurnOrder(order=("rex", "vex", "ann", "bo", "cy")),
            cmd.StartCombat(),
            cmd.MoveInFeature(feature="crates", enter=("rex",)),
        ]
    )
    # Rex in the hall shotguns Vex on the deck? Out of Close range: refused.
    at(events).when(shot(weapon="shotgun")).rejected(match="Close is the same zone")
    splash = play(
        [cmd.TakeManeuver(combatant="rex", maneuver="aim", move_to="deck"), shot(weapon="shotgun")],
        start=events,
    )
    hits = of(splash, ev.PressDeclared)[0].hits
    # Vex, and Ann in Immediate range of her; Cy's access to her is hindered; Rex is the attacker
    assert [h.target for h in hits] == ["vex", "ann"]
    covered = play([shot(weapon="shotgun", target="bo")], start=events)
    assert [h.target for h in of(covered, ev.PressDeclared)[0].hits] == [
        "bo"
    ]  # Rex, same cover, is the attacker


def test_tac_19_splash_hits_everyone_using_the_targets_feature() -> None:
    events = table(
        cmd.AddZone(id="side", links=("deck",)),
        cmd.AddFeature(id="smoke", name="gas cloud", zone="deck", kind="cloud", users=("vex",)),
    )
    events = play(
        [
            fighter("ann"),
            cmd.SetHindered(a="vex", b="ann"),
            cmd.MoveInFeature(feature="smoke", enter=("ann",)),
            shot(weapon="shotgun"),
        ],
        start=events,
    )
    assert [h.target for h in of(events, ev.PressDeclared)[0].hits] == ["vex", "ann"]


def test_tac_20_tac_a12_small_explosion_each_in_the_zone_rolls_agility() -> None:
    events = table(
        place("vex", "hall"),
        cmd.AddCombatant(id="ann", name="Ann", zone="hall", agility=0),
        cmd.Press(combatant="rex", weapon="grenade", zone="hall"),
    )
    declared = of(events, ev.PressDeclared)[0]
    assert [(h.target, h.mode) for h in declared.hits] == [("vex", "dodge"), ("ann", "dodge")]
    events = play([end("rex")], start=events)
    out = at(events).when(resolve("vex"), manual=[[15]]).events  # 15 + 2 = 17 vs 12: dodged
    assert of(out, ev.AgilityChecked)[0].result == "dodged"


def test_tac_21_medium_explosion_cannot_be_dodged() -> None:
    blast = cmd.Press(combatant="rex", weapon="launcher", zone="hall")
    events = table(place("vex", "hall"), blast, end("rex"))
    assert of(events, ev.PressDeclared)[0].hits[0].mode == "brace"
    out = at(events).when(resolve("vex"), manual=[[4]]).events
    assert not of(out, ev.AgilityChecked)
    soak = of(out, ev.SoakRolled)[0]
    assert (soak.braced, soak.damage, soak.soak, soak.through) == (True, 10, 7, 3)


def test_tac_22_large_explosion_centre_medium_radius_small() -> None:
    events = table(
        cmd.SetSight(a="deck", b="bay"),
        place("vex", "bay"),
        cmd.AddCombatant(id="ann", name="Ann", zone="hall"),
        cmd.AddCombatant(id="bo", name="Bo", zone="hold"),
        cmd.AddCombatant(id="cy", name="Cy", zone="vent"),
        cmd.Press(combatant="rex", weapon="mortar", zone="bay"),
    )
    hits = of(events, ev.PressDeclared)[0].hits
    assert [(h.target, h.mode) for h in hits] == [
        ("vex", "brace"),
        ("ann", "dodge"),
        ("bo", "dodge"),
    ]


def test_tac_20_an_explosion_needs_a_zone() -> None:
    at(table()).when(cmd.Press(combatant="rex", weapon="grenade", target="vex")).rejected(
        match="an explosion needs a zone"
    )


def test_tac_23_chain_hits_up_to_its_number_of_targets() -> None:
    events = table(
        cmd.AddCombatant(id="ann", name="Ann", zone="deck"),
        cmd.AddCombatant(id="bo", name="Bo", zone="deck"),
    )
    ok = play([cmd.Press(combatant="rex", weapon="arc", targets=("vex", "ann"))], start=events)
    assert [h.target for h in of(ok, ev.PressDeclared)[0].hits] == ["vex", "ann"]
    at(events).when(
        cmd.Press(combatant="rex", weapon="arc", targets=("vex", "ann", "bo"))
    ).rejected(match="the arc chains to at most 2 targets")


def test_tac_24_a_cloud_is_a_zone_feature_creatures_move_in_and_out_of() -> None:
    events = table(
        cmd.AddCombatant(id="ann", name="Ann", zone="deck"),
        cmd.Press(combatant="rex", weapon="gas", targets=("vex", "ann")),
    )
    cloud = state_of(events).features["cloud-p1"]
    assert (cloud.kind, cloud.zone, cloud.users) == ("cloud", "deck", ("vex", "ann"))
    # Vex steps out before her turn: the cloud's Press no longer touches her
    events = play([cmd.MoveInFeature(feature="cloud-p1", leave=("vex",)), end("rex")], start=events)
    voided = of(events, ev.HitVoided)
    assert [(v.press, v.target, v.why) for v in voided] == [
        ("p1", "vex", "Vex is no longer in the cloud")
    ]
    # and can be moved back in
    back = play([cmd.MoveInFeature(feature="cloud-p1", enter=("vex",))], start=events)
    assert state_of(back).features["cloud-p1"].users == ("ann", "vex")


def test_tac_24_leaving_a_cloud_by_maneuver() -> None:
    events = table(
        cmd.AddFeature(id="fog", name="fog", zone="deck", kind="cloud", users=("rex",)),
        cmd.TakeManeuver(combatant="rex", maneuver="aim", leave="fog"),
    )
    assert state_of(events).features["fog"].users == ()
    entered = play([cmd.TakeManeuver(combatant="rex", maneuver="aim", enter="fog")], start=events)
    assert state_of(entered).features["fog"].users == ("rex",)


def test_tac_a12_each_affected_creature_resolves_its_own_rolls() -> None:
    events = table(
        place("vex", "hall"),
        cmd.AddCombatant(id="ann", name="Ann", zone="hall", agility=0),
        cmd.SetTurnOrder(order=("rex", "vex", "ann")),
        cmd.Press(combatant="rex", weapon="grenade", zone="hall"),
        end("rex"),
        (resolve("vex"), [3, 10]),
        end("vex"),
    )
    out = at(events).when(resolve("ann"), manual=[[5], [2]]).events
    agility = of(out, ev.AgilityChecked)[0]
    assert (agility.target, agility.total, agility.fail_by, agility.damage) == ("ann", 5, 7, 17)


def test_tac_19_a_splashed_creature_that_moved_out_of_immediate_range_is_spared() -> None:
    """'unless that target has moved out of immediate range since then'"""
    events = play(
        [
            *ZONES,
            fighter("rex"),
            fighter("vex"),
            fighter("ann"),
            cmd.SetTurnOrder(order=("rex", "ann", "vex")),
            cmd.StartCombat(),
            shot(weapon="shotgun"),
            end("rex"),
        ]
    )
    assert [h.target for h in of(events, ev.PressDeclared)[0].hits] == ["vex", "ann"]
    events = play([cmd.PlaceCombatant(combatant="ann", zone="hall")], start=events[:-2])
    events = play([end("rex")], start=events)
    assert [(v.target, v.why) for v in of(events, ev.HitVoided)] == [
        ("ann", "Ann has moved out of Immediate range of Vex")
    ]
