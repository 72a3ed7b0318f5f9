"""Taking a Scentfinder action (SCF-10..SCF-59): ``act`` checks it against the text
(turn, cost, traits, target, movement, requirements) and pays for it.

A test then waits for the GM's degree (degrees.py ``resolve``) unless the GM's command
carried it; an action without a test takes effect at once (untested.py).  Only what the
text states is enforced; everything else is a condition on record for the GM.
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import aids_waiting_test, no_pending
from service.rulesets.scentfinder.commands import Act, Resolve
from service.rulesets.scentfinder.degrees import outcome
from service.rulesets.scentfinder.fields import ACTIONS, MOVE_ACTIONS
from service.rulesets.scentfinder.in_force import in_force
from service.rulesets.scentfinder.requirements import _base_cost, _requirements, _skill
from service.rulesets.scentfinder.rules import Builder, adjacent, area_name, combatant, distance
from service.rulesets.scentfinder.state import Combatant, State
from service.rulesets.scentfinder.untested import _untested


def act(state: State, command: Act, dice: Dice) -> tuple[ev.Event, ...]:
    if state.stage != "combat":
        raise RuleViolation("Combat has not begun")
    if not aids_waiting_test(state, command):
        no_pending(state)
    who = combatant(state, command.actor)
    spec = ACTIONS[command.action]
    action = command.action
    title = spec.title
    dice.no_roll(_no_dice(state, title, tested=spec.test), rule="SCF-A1" if spec.test else "SCF-01")
    via = "reaction" if action == "arrest_fall" else command.via
    here = state.areas.get(who.area or "")
    ended: list[str] = []
    foreign_ends: list[tuple[str, str]] = []

    if action == "release" and (state.current != who.id or via != "turn"):
        raise RuleViolation("Release cannot interrupt anyone else (SCF-43)")
    if action == "cast_spell" and (command.spell is None or command.spell not in who.spells):
        raise RuleViolation(f"{who.name} has no spell '{command.spell}' on the sheet")

    # Who may act now and what it is paid with (SCF-10, SCF-59).
    if via == "turn":
        if state.current != who.id:
            current = state.combatants[state.current].name if state.current else "nobody"
            raise RuleViolation(f"It is {current}'s turn, not {who.name}'s")
    elif via == "reaction":
        if who.reaction < 1 and not who.had_turn:
            raise RuleViolation(
                f"{who.name} has no reaction before their first turn: a character regains 3 "
                "actions & a reaction at the start of their turn, and has none to spend before "
                "it",
                rule="SCF-10",
            )
        if who.reaction < 1:
            raise RuleViolation(f"{who.name} has no reaction left")
        if action == "aid":
            if not who.has("aiding"):
                raise RuleViolation(f"{who.name} has not prepared to Aid (SCF-21)")
        elif action != "arrest_fall":
            readied = [c for c in who.conditions if c.kind == "ready" and c.note == action]
            if not readied:
                raise RuleViolation(
                    f"{who.name} has no Readied {title} to use as a reaction (SCF-41)"
                )
            ended.append(readied[0].id)
    elif via == "bonus_reaction":
        bonus = [c for c in who.conditions if c.kind == "bonus_reaction"]
        if not bonus:
            raise RuleViolation(f"{who.name} has no bonus reaction (SCF-31)")
        if command.target != bonus[0].against:
            feinter = state.combatants[bonus[0].against or ""].name
            raise RuleViolation(
                f"{who.name}'s bonus reaction is only usable against {feinter} (SCF-31)"
            )
        ended.append(bonus[0].id)
    elif via == "minion" and (who.minion_of is None or who.minion_of != state.current):
        raise RuleViolation(
            f"{who.name} only acts with actions its commander grants on their turn (SCF-26)"
        )
    if command.degree is not None and not (
        spec.test or (action == "interact" and command.undetected) or action == "shift"
    ):
        raise RuleViolation(f"{title} calls for no test: it takes no degree")

    if action == "strike" and (command.weapon is None or command.weapon not in who.weapons):
        raise RuleViolation(f"{who.name} has no weapon '{command.weapon}' on the sheet")
    skill = _skill(who, command)

    # Target (SCF-33, SCF-49, SCF-53, SCF-55).
    target: Combatant | None = None
    if command.target is not None:
        target = combatant(state, command.target)
    if spec.target in ("creature", "enemy", "ally") and target is None:
        raise RuleViolation(f"{title} needs a target")
    if target is not None and target.id == who.id and spec.target != "optional":
        raise RuleViolation(f"{who.name} cannot take {title} against themselves")
    if target is not None and target.id != who.id:
        if target.has("hiding") and target.side != who.side and not who.has("spotting", target.id):
            raise RuleViolation(
                f"{target.name} is Hiding: only someone who Successfully Sought its area can "
                "target it (SCF-33)"
            )
        if ("mental" in spec.traits or "emotion" in spec.traits) and not target.sentient:
            raise RuleViolation(
                f"{title} is mental: it only affects sentient creatures, and {target.name} is "
                "not sentient (SCF-55)"
            )
        if "melee" in spec.traits and target.area != who.area:
            raise RuleViolation(
                f"{title} is a mêlée action: it only targets characters in the same area, and "
                f"{target.name} is in {area_name(state, target.area)} (SCF-53)"
            )
        if action == "strike":
            weapon = who.weapons[command.weapon or ""]
            reach = weapon.range if not weapon.melee else 0
            if distance(state, who.area, target.area) > reach:
                raise RuleViolation(
                    f"{target.name} is not in an area {who.name} can hit with the "
                    f"{command.weapon} (SCF-49, SCF-A21)"
                )
        if action == "cast_spell":
            spell = who.spells[command.spell or ""]
            if distance(state, who.area, target.area) > spell.range:
                raise RuleViolation(f"{target.name} is out of range of {command.spell} (SCF-A21)")

    # The attack trait (SCF-52, SCF-A17).
    if "attack" in spec.traits and skill is not None and skill in who.attacked_with:
        raise RuleViolation(f"{who.name} already attacked with {skill} this turn (SCF-52)")

    # Movement and terrain (SCF-14..SCF-18, SCF-44).
    dest: str | None = None
    if action in MOVE_ACTIONS and here is not None and here.obstacle and action != "shift":
        raise RuleViolation("Shift is the only move action inside an obstacle area (SCF-18)")
    if action in ("shift", "sneak"):
        if command.area is None or command.area not in state.areas:
            raise RuleViolation(f"{title} moves to an adjacent area: name it")
        if who.area is None or not adjacent(state, who.area, command.area):
            raise RuleViolation(
                f"{area_name(state, command.area)} is not adjacent to "
                f"{area_name(state, who.area)} (SCF-14)"
            )
        dest = command.area
        for c in who.conditions:
            if c.kind == "taunted" and c.against in state.combatants:
                taunter = state.combatants[c.against]
                if distance(state, dest, taunter.area) > distance(state, who.area, taunter.area):
                    raise RuleViolation(
                        f"{who.name} is Taunted by {taunter.name} and cannot move away from "
                        f"them (SCF-44)"
                    )

    # Requirements of each action.
    _requirements(state, who, target, command, skill)

    # Cost and surcharges (SCF-12, SCF-16, SCF-42, SCF-A6, SCF-A13).
    cost = _base_cost(who, command)
    surcharges: list[str] = []
    if (
        target is not None
        and target.side != who.side  # "enemies have to spend one more action"
        and target.has("evaded")
        and via != "reaction"
    ):
        melee_weapon = None
        if action == "strike":
            weapon = who.weapons[command.weapon or ""]
            melee_weapon = weapon
        taxed = "melee" in spec.traits or (
            melee_weapon is not None
            and melee_weapon.melee
            and state.options.evade_taxes_melee_weapon_strikes
        )
        has_reach = melee_weapon is not None and melee_weapon.reach
        if action != "strike" and command.weapon in who.weapons:
            has_reach = who.weapons[command.weapon or ""].reach
        if taxed and not has_reach:
            cost += 1
            surcharges.append(f"{target.name} is Evading")
    if action in MOVE_ACTIONS:
        dest_area = state.areas.get(dest or "") if dest else None
        if (here is not None and here.difficult) or (dest_area is not None and dest_area.difficult):
            cost += 1
            surcharges.append("difficult terrain")
    if action == "refocus" and who.has("refocus_costly"):
        cost += 1
        surcharges.append("Refocusing costs [2] this turn")
    lost = False
    intimidated = [c for c in who.conditions if c.kind == "intimidated"]
    if intimidated and via == "turn" and not who.acted:
        ended.extend(c.id for c in intimidated)
        if action not in ("strike", "shift"):
            lost = True
            cost += 1
    fp_spent = 0
    if action == "cast_spell":
        fp_spent = who.spells[command.spell or ""].fp
        if who.fp < fp_spent:
            raise RuleViolation(f"{who.name} has {who.fp} FP; {command.spell} costs {fp_spent}")
    if via == "reaction" or via == "bonus_reaction":
        cost = 0
    elif via == "minion":
        if who.granted < cost:
            raise RuleViolation(
                f"{who.name} has {who.granted} action(s) granted by Command; {title} costs [{cost}]"
            )
    elif cost > who.actions:
        raise RuleViolation(
            f"{who.name} has {who.actions} action{'s' if who.actions != 1 else ''} left; "
            f"{title} costs [{cost}]" + (f" ({', '.join(surcharges)})" if surcharges else "")
        )

    # What acting ends (SCF-A18, SCF-51, SCF-31).
    stealthy = (
        action in ("sneak", "hide")
        or (action == "strike" and skill == "Stealth")
        or (action == "interact" and command.undetected)
    )
    if via == "turn" and state.options.hiding_ends_on_non_stealth_action and not stealthy:
        ended.extend(c.id for c in who.conditions if c.kind == "hiding")
    if "attack" in spec.traits:
        ended.extend(c.id for c in who.conditions if c.expiry == "attack_or_start_of_turn")
    for other in state.combatants.values():
        for c in other.conditions:
            if c.expiry == "next_action" and c.against == who.id:
                foreign_ends.append((other.id, c.id))

    obstacle_skill = None
    if action == "shift":
        for area in (here, state.areas.get(dest or "")):
            if area is not None and area.obstacle is not None:
                obstacle_skill = area.obstacle.skill
                break
        if obstacle_skill is None and command.degree is not None:
            raise RuleViolation("Shift calls for no test outside obstacle areas")
        if obstacle_skill is not None:
            skill = obstacle_skill
    tested = (
        spec.test or obstacle_skill is not None or (action == "interact" and command.undetected)
    )
    if action == "interact" and command.undetected:
        skill = "Stealth"

    b = Builder(state)
    b.emit(
        ev.ActionTaken(
            actor=who.id,
            action=action,
            cost=cost,
            target=command.target,
            skill=skill,
            weapon=command.weapon,
            spell=command.spell,
            area=command.area,
            condition=command.condition,
            via=via,
            pending=tested,
            surcharges=tuple(surcharges),
            lost_action=lost,
            fp_spent=fp_spent,
            ended=tuple(dict.fromkeys(ended)),
            note=command.note or command.trigger,
            in_force=in_force(
                state,
                who,
                action,
                target=target,
                weapon=command.weapon,
                area=command.area,
                skill=skill,
            )
            if tested
            else (),
        )
    )
    for bearer, ident in foreign_ends:
        b.emit(ev.ConditionRemoved(bearer=bearer, condition=ident, reason=f"{who.name} acted"))
    if tested:
        if command.degree is not None:
            assert b.state.pending is not None
            outcome(
                b,
                b.state.pending,
                Resolve(
                    degree=command.degree,
                    choice=command.choice,
                    condition=command.condition,
                    area=command.area,
                    extra_action=command.extra_action,
                ),
                dice,
            )
        return b.done()
    _untested(b, who.id, command)
    return b.done()


def _no_dice(state: State, title: str, *, tested: bool) -> str:
    """Why taking an action rolls nothing: its test is settled apart, or it has none."""
    if not tested:
        return f"{title} calls for no test"
    if state.options.degree_input == "house_dice":
        return f"{title}'s test is rolled apart, with roll_test (house rule)"
    return f"{title} is tested by the degree the GM enters, not by dice"
