"""Rounds and turns: the GM's order (TAC-A8), the start of a turn (action pool, Press
count reset, shield regeneration TAC-A2, pending Presses waiting for the React choice
TAC-07) and its end."""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.tactics import commands as cmd
from service.rulesets.tactics import events as ev
from service.rulesets.tactics.rules import (
    combatant,
    full_actions,
    hits_against,
    name,
    on_turn,
)
from service.rulesets.tactics.state import Fighting, Setup, State, pair


def start_combat(state: State) -> tuple[ev.Event, ...]:
    if not isinstance(state.phase, Setup):
        raise RuleViolation("combat has already started")
    if not state.order:
        raise RuleViolation("the GM sets the turn order before combat starts", rule="TAC-A8")
    return (ev.RoundStarted(round=1), *_next(state, 1, None))


def end_turn(state: State, c: cmd.EndTurn) -> tuple[ev.Event, ...]:
    phase, who = on_turn(state, c.combatant, "ending a turn")
    waiting = hits_against(state, who.id)
    if waiting:
        ids = ", ".join(dict.fromkeys(p.id for p, _ in waiting))
        raise RuleViolation(
            f"{who.name} must first resolve the Presses pending against them ({ids}): actions "
            "are resolved on the defender's turn",
            rule="TAC-07",
        )
    expired = tuple(b.maneuver for b in who.bonuses if b.until_turn <= who.turns_taken)
    return (ev.TurnEnded(combatant=who.id, expired=expired), *_next(state, phase.round, who.id))


def _next(state: State, round_number: int, current: str | None) -> tuple[ev.Event, ...]:
    """The next living creature in the order starts its turn; past the last, a new round."""
    order = [cid for cid in state.order if cid in state.combatants]
    start = order.index(current) + 1 if current in order else 0
    for index in range(start, len(order)):
        if state.combatants[order[index]].status != "dead":
            return begin_turn(state, order[index], round_number)
    for cid in order:
        if state.combatants[cid].status != "dead":
            return (
                ev.RoundStarted(round=round_number + 1),
                *begin_turn(state, cid, round_number + 1),
            )
    raise RuleViolation("no creature in the turn order can take a turn")


def begin_turn(state: State, cid: str, round_number: int) -> tuple[ev.Event, ...]:
    who = combatant(state, cid)
    events: list[ev.Event] = []
    waiting: list[str] = []
    for press, hit in hits_against(state, cid):
        attacker = state.combatants.get(press.attacker)
        feature = state.features.get(press.feature) if press.feature else None
        if press.feature and (feature is None or cid not in feature.users):
            why = f"{who.name} is no longer in the cloud"
        elif press.primary and cid != press.primary and not _near(state, cid, press.primary):
            why = f"{who.name} has moved out of Immediate range of {name(state, press.primary)}"
        elif state.options.attacker_out == "void" and (
            attacker is None or attacker.status != "active"
        ):
            why = "its attacker is out of the fight (attacker_out = void)"
        else:
            waiting.append(press.id)
            continue
        events.append(ev.HitVoided(press=press.id, target=hit.target, why=why))
    shields = who.shields
    cooldown = False
    if who.max_shields:
        if shields == 0:
            cooldown = True
        elif shields < who.max_shields:
            shields += 1
    events.append(
        ev.TurnStarted(
            combatant=cid,
            round=round_number,
            actions=full_actions(state, who),
            shields_before=who.shields,
            shields_after=shields,
            cooldown_needed=cooldown,
            pending=tuple(dict.fromkeys(waiting)),
        )
    )
    return tuple(events)


def cooldown_check(state: State, c: cmd.CooldownCheck, dice: Dice) -> tuple[ev.Event, ...]:
    """TAC-A2: an unshielded creature's cool-down check at the start of its turn; a pass
    restarts regeneration with +1 at once.  The GM says pass or fail: no test is given."""
    dice.no_roll(
        "the text gives the cool-down check no test: the GM says whether it passes",
        rule="TAC-A2",
    )
    _, who = on_turn(state, c.combatant, "the cool-down check")
    if not who.max_shields:
        raise RuleViolation(f"{who.name} has no shields", rule="TAC-17")
    if who.shields:
        raise RuleViolation(
            f"{who.name} is still shielded: shields regenerate on their own", rule="TAC-A2"
        )
    if who.rolled_this_turn or who.actions_left < full_actions(state, who):
        raise RuleViolation(
            f"the cool-down check comes at the start of {who.name}'s turn, before any roll "
            "or action",
            rule="TAC-A2",
        )
    if who.cooldown_tried:
        raise RuleViolation(f"{who.name} already tried a cool-down check this turn", rule="TAC-A2")
    return (
        ev.CooldownChecked(combatant=who.id, passed=c.passed, shields_after=1 if c.passed else 0),
    )


def _near(state: State, cid: str, primary: str) -> bool:
    """Still splashed (TAC-19): in Immediate range of the creature aimed at, or sharing a
    zone feature with it."""
    me, them = state.combatants.get(cid), state.combatants.get(primary)
    if me is None or them is None:
        return False
    if me.zone == them.zone and pair(cid, primary) not in state.hindered:
        return True
    return any(cid in f.users and primary in f.users for f in state.features.values())


__all__ = ["Fighting"]
