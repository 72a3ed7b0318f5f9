"""``narrate``: one replay-log line per event, the way a GM announces it; and
``narrate_secret``, the line players read while a GM roll is secret (no numbers)."""

from __future__ import annotations

from typing import assert_never

from service.dice.announce import announce, announce_hidden
from service.dice.model import RollRecord
from service.health_text import health_part, health_words
from service.ruleset import rolls_of
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import BAND_NAMES, name
from service.rulesets.tactics.state import State

_AREA = {
    "single": "",
    "splash": " (splash)",
    "small": " (small explosion)",
    "medium": " (medium explosion)",
    "large": " (large explosion)",
    "chain": " (chain)",
    "cloud": " (cloud)",
}


def narrate(state: State, event: ev.Event) -> str:
    def n(cid: str | None) -> str:
        return name(state, cid)

    if any(r.hidden for r in rolls_of(event)):
        # A secret roll: this line is what players read (the GM's line is made from the
        # event with its rolls shown), so nothing the roll decided may appear in it.
        return narrate_secret(state, event)
    match event:
        case ev.CombatantAdded():
            kind = {"standard": "", "minion": ", Minion", "slow_heavy": ", slow heavy"}[
                event.category
            ]
            gear = ", ".join(
                f"{w} (Damage {x.damage}, Precision {x.precision}, {BAND_NAMES[x.range]}"
                f"{_AREA[x.area]})"
                for w, x in event.weapons.items()
            )
            shields = f", shields {event.shields}" if event.shields else ""
            return (
                f"{event.name} joins ({event.side or 'no side'}{kind}): Precision "
                f"{event.precision}, Endurance {event.endurance}, Agility {event.agility}, "
                f"Acumen {event.acumen}, armour {event.armour}{shields}"
                + (f"; armed with {gear}" if gear else "")
                + (f"; in {event.zone}" if event.zone else "")
            )
        case ev.CombatantRemoved():
            return f"{n(event.id)} leaves the encounter"
        case ev.ZoneAdded():
            links = f", bordering {', '.join(event.links)}" if event.links else ""
            return f"GM: zone {event.id}{links}"
        case ev.Placed():
            how = "repositions to" if event.by_maneuver else "is placed in"
            return f"{n(event.combatant)} {how} {event.zone}"
        case ev.HinderedSet():
            state_word = "hindered" if event.hindered else "clear"
            return f"GM: access between {n(event.a)} and {n(event.b)} is {state_word}"
        case ev.SightSet():
            seen = "have" if event.visible else "have no"
            return f"GM: zones {event.a} and {event.b} {seen} line of sight"
        case ev.FeatureAdded():
            users = f", used by {_names(state, event.users)}" if event.users else ""
            return f"GM: {event.name} ({event.kind}) in {event.zone}{users}"
        case ev.FeatureUsersChanged():
            feature = state.features.get(event.feature)
            what = feature.name if feature else event.feature
            parts = []
            if event.entered:
                parts.append(
                    f"{_names(state, event.entered)} {_move(event.entered)} into the {what}"
                )
            if event.left:
                parts.append(f"{_names(state, event.left)} {_move(event.left)} out of the {what}")
            return "; ".join(parts)
        case ev.FeatureRemoved():
            feature = state.features.get(event.id)
            return f"GM: the {feature.name if feature else event.id} are gone from the map"
        case ev.TurnOrderSet():
            return f"GM: turn order {', '.join(n(c) for c in event.order)}"
        case ev.RoundStarted():
            return f"Round {event.round} begins"
        case ev.TurnStarted():
            line = f"{n(event.combatant)}'s turn ({_count(event.actions, 'action')})"
            if event.shields_after != event.shields_before:
                line += f"; shields regenerate {event.shields_before} -> {event.shields_after}"
            if event.cooldown_needed:
                line += "; unshielded, a cool-down check is needed before shields regenerate"
            if event.pending:
                waiting = ", ".join(_press(state, p) for p in event.pending)
                if event.actions:
                    line += f". Pending against them: {waiting}. React or not?"
                else:
                    line += f". Pending against them: {waiting}; they cannot act, so no React"
            return line
        case ev.TurnEnded():
            ends = f" ({', '.join(event.expired)} wears off)" if event.expired else ""
            return f"{n(event.combatant)} ends their turn{ends}"
        case ev.ManeuverTaken():
            what = "reacts with" if event.as_react else "maneuvers:"
            bonus = ""
            if event.bonus:
                only = f" against {event.bonus.press}" if event.bonus.press else ""
                bonus = f" ({event.bonus.amount:+d} {event.bonus.stat}{only})"
            return (
                f"{n(event.combatant)} {what} {event.maneuver}{bonus}; "
                f"{event.actions_left} action{'s' if event.actions_left != 1 else ''} left"
            )
        case ev.PressDeclared():
            at = ", ".join(
                n(h.target) + (" (bracing)" if h.mode == "brace" else "") for h in event.hits
            )
            where = f" on {event.zone}" if event.zone and event.area != "cloud" else ""
            penalty = f" (after -{event.penalty} Press penalty)" if event.penalty else ""
            return (
                f"{n(event.attacker)} declares Press {event.press}: {event.weapon}"
                f"{_AREA[event.area]}"
                f"{where}, Damage {event.damage}, Precision {event.precision}{penalty}, against "
                f"{at}; it resolves on the defender's turn. {event.actions_left} action"
                f"{'s' if event.actions_left != 1 else ''} left"
            )
        case ev.AgilityChecked():
            rolled = _rolls(state, event.rolls)
            if event.result == "dodged":
                return (
                    f"{rolled}: {n(event.target)} avoids {n(event.attacker)}'s Press {event.press}"
                )
            if event.result == "grazed":
                return f"{rolled}: a graze, {event.damage} damage (base, no fail-by bonus)"
            return (
                f"{rolled}, so {event.damage - event.fail_by} + {event.fail_by} = "
                f"{event.damage} damage"
            )
        case ev.SoakRolled():
            brace = (
                f"{n(event.target)} cannot dodge the blast and braces against {event.damage} "
                "damage. "
                if event.braced
                else ""
            )
            if not event.through:
                # A full soak: the difference would be negative, and nothing got through.
                return f"{brace}{_rolls(state, event.rolls)}, no wounds"
            return (
                f"{brace}{_rolls(state, event.rolls)} ({event.damage} - {event.soak}), "
                f"{_count(event.wounds, 'wound')}"
            )
        case ev.ShieldsSpent():
            left = (
                f"{event.shields_after} left" if event.shields_after else "shields down, unshielded"
            )
            return (
                f"{n(event.combatant)}'s shields spend {event.spent} point"
                f"{'s' if event.spent != 1 else ''} and negate {event.negated} wound"
                f"{'s' if event.negated != 1 else ''} ({left})"
            )
        case ev.Wounded():
            why = f" from {event.source} (GM: {event.reason})" if event.reason else ""
            line = (
                f"{n(event.combatant)} takes {event.wounds} wound{'s' if event.wounds != 1 else ''}"
                f"{why}{_total(state, event.combatant, event.total_after, ': {}')}"
            )
            if event.status_after in ("incapacitated", "dead"):
                # The status is the players' word for the wounds under "descriptor" (the
                # state shows it), nothing under "hidden".
                said = f". {n(event.combatant)} is {event.status_after}"
                line += health_part(event.combatant, said, said)
            return line
        case ev.WoundsHealed():
            return (
                f"GM ruling: {n(event.combatant)} loses {event.wounds} wound"
                f"{'s' if event.wounds != 1 else ''}"
                f"{_total(state, event.combatant, event.total_after, ', now {}')} ({event.reason})"
            )
        case ev.HitResolved():
            return f"{n(event.target)}: Press {event.press} is resolved ({_hit(event)})"
        case ev.HitVoided():
            return f"Press {event.press} against {n(event.target)} is void: {event.why}"
        case ev.CooldownChecked():
            if event.passed:
                return f"{n(event.combatant)} passes the cool-down check: shields restart at 1"
            return f"{n(event.combatant)} fails the cool-down check: shields stay down"
        case ev.CheckRolled():
            line = f"GM calls for {event.label}: {_rolls(state, event.rolls)}"
            if event.react_open:
                line += (
                    f". This check is not {n(event.combatant)}'s answer to the pending Presses: "
                    "the React choice is still open"
                )
            return line
        case ev.ValueSet():
            change = health_part(event.combatant, f" {event.previous} -> {event.value}")
            return f"GM ruling: {n(event.combatant)}'s {event.field}{change} ({event.reason})"
        case ev.StatusSet():
            return f"GM ruling: {n(event.combatant)} is now {event.status} ({event.reason})"
        case ev.SceneStarted():
            return f"GM ruling: scene {event.scene} begins ({event.reason})"
        case ev.BonusGranted():
            return (
                f"GM ruling: {n(event.combatant)} gets {event.bonus.amount:+d} "
                f"{event.bonus.stat} ({event.bonus.maneuver}; {event.reason})"
            )
        case ev.EncounterEnded():
            r = state.round()
            return f"The encounter ends in round {r}" if r else "The encounter ends"
        case _:
            assert_never(event)


def narrate_secret(state: State, event: ev.Event) -> str:
    """What players read of a secret event: who and what, never a number or outcome."""

    def n(cid: str | None) -> str:
        return name(state, cid)

    match event:
        case ev.AgilityChecked():
            return (
                f"The GM rolls {n(event.target)}'s Agility in secret against "
                f"{n(event.attacker)}'s Press {event.press}"
            )
        case ev.SoakRolled():
            return (
                f"The GM rolls {n(event.target)}'s soak in secret against "
                f"{n(event.attacker)}'s Press {event.press}"
            )
        case ev.ShieldsSpent() | ev.Wounded():
            # Not "is hit": whether the Press landed is what the secret rolls decided.
            return f"The GM keeps secret what happens to {n(event.combatant)}"
        case ev.HitResolved():
            return f"{n(event.target)}: Press {event.press} is resolved"
        case ev.HitVoided():
            return (
                f"The GM keeps secret what becomes of Press {event.press} against {n(event.target)}"
            )
        case ev.CheckRolled():
            return f"The GM rolls {event.label} for {n(event.combatant)} in secret"
        case _:
            return narrate(state, event)


def _press(state: State, press_id: str) -> str:
    found = next((p for p in state.pending if p.id == press_id), None)
    if found is None:
        return press_id
    return (
        f"{press_id} ({name(state, found.attacker)}'s {found.weapon}, Damage {found.damage}, "
        f"Precision {found.precision})"
    )


def _hit(event: ev.HitResolved) -> str:
    """The wounds a resolved Press was worth, and how the shields split them."""
    if not event.absorbed:
        return _count(event.wounds, "wound") if event.wounds else "no wounds"
    taken = event.wounds - event.absorbed
    absorbed = "all" if not taken else str(event.absorbed)
    return f"{_count(event.wounds, 'wound')}: the shields absorb {absorbed}, " + (
        f"{taken} taken" if taken else "none taken"
    )


def _names(state: State, ids: tuple[str, ...]) -> str:
    return ", ".join(name(state, i) for i in ids)


def _rolls(state: State, rolls: tuple[RollRecord, ...]) -> str:
    return "; ".join(
        announce_hidden(r) if r.hidden else announce(r, name=name(state, r.roller)) for r in rolls
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _move(ids: tuple[str, ...]) -> str:
    return "moves" if len(ids) == 1 else "move"


def _total(state: State, combatant: str, total: int, template: str) -> str:
    """A creature's wounds against the table's wound limit (``6/20``) for readers who may
    see its numbers; else the word for the wounds it can still take."""
    limit = state.options.wound_limit
    return health_words(
        combatant,
        template.format(f"{total}/{limit}"),
        limit - total,
        limit,
        template.format("{word}"),
    )
