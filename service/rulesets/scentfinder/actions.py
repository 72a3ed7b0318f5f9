"""Actions, their tests and Saves (SCF-12..SCF-59).

``act`` checks an action against the text (turn, cost, traits, requirements) and pays
for it; a test then waits for the GM's degree (``resolve``) unless the GM's command
carried it.  ``outcome`` applies the line of the degree.  Only what the text states is
enforced; everything else is a condition on record for the GM.
"""

from __future__ import annotations

from msgspec.structs import replace

from service.dice.model import Dice, Modifier, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Act, Resolve, RollTest, Save
from service.rulesets.scentfinder.fields import (
    ACTIONS,
    ATTACK_SKILL_FIXED,
    DEGREE_WORD,
    MOVE_ACTIONS,
    Degree,
    maximum_of,
)
from service.rulesets.scentfinder.rules import (
    Builder,
    adjacent,
    area_name,
    combatant,
    distance,
    find_condition,
)
from service.rulesets.scentfinder.state import Combatant, Condition, Pending, State


def no_pending(state: State) -> None:
    p = state.pending
    if p is None:
        return
    name = state.combatants[p.actor].name
    if p.kind == "hazard":
        raise RuleViolation(
            f"{name} must first Save against the hazardous terrain of "
            f"{area_name(state, p.area)} (SCF-17)"
        )
    raise RuleViolation(f"The GM has yet to enter the degree of {name}'s {ACTIONS[p.action].title}")


def _cond(kind: str, **fields: object) -> Condition:
    return Condition(id="", kind=kind, **fields)  # type: ignore[arg-type]


def _base_cost(who: Combatant, command: Act) -> int:
    if command.action == "cast_spell":
        spell = who.spells.get(command.spell or "")
        if spell is None:
            raise RuleViolation(f"{who.name} has no spell '{command.spell}' on the sheet")
        return int(spell.actions)
    if command.action == "interact":
        return 1 if command.involved else 0
    return max(ACTIONS[command.action].cost, 0)


def _skill(who: Combatant, command: Act) -> str | None:
    spec = ACTIONS[command.action]
    action = command.action
    if command.skill is not None and who.skills and command.skill not in who.skills:
        raise RuleViolation(f"{who.name} has no skill '{command.skill}' on the sheet")
    if action == "strike":
        weapon = who.weapons[command.weapon or ""]
        skill = command.skill or weapon.skill
        if skill == "Stealth" and not who.has("stealth_strike"):
            raise RuleViolation(
                f"Only a Triumph at Hide lets {who.name} strike using Stealth (SCF-33)"
            )
        return skill
    if action == "cast_spell":
        if who.magic_skill is None:
            raise RuleViolation(f"{who.name} has no magic attack skill on the sheet (SCF-25)")
        return who.magic_skill
    if action == "refocus":
        if who.refocus_skill is None:
            raise RuleViolation(f"{who.name} has no Refocus statistic on the sheet (SCF-42)")
        return who.refocus_skill
    if action in ATTACK_SKILL_FIXED:
        return ATTACK_SKILL_FIXED[action]
    if action == "analyse":
        if command.skill is None:
            raise RuleViolation("Analyse tests an appropriate knowledge skill: name it (SCF-22)")
        return command.skill
    if action == "disable":
        return command.skill or "Dexterity"
    if spec.skills:
        if command.skill is not None and command.skill not in spec.skills:
            allowed = " or ".join(spec.skills)
            raise RuleViolation(f"{spec.title} tests {allowed}, not {command.skill}")
        return command.skill or spec.skills[0]
    return command.skill


def act(state: State, command: Act, dice: Dice) -> tuple[ev.Event, ...]:
    if state.stage != "combat":
        raise RuleViolation("Combat has not begun")
    no_pending(state)
    who = combatant(state, command.actor)
    spec = ACTIONS[command.action]
    action = command.action
    title = spec.title
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


def _requirements(
    state: State, who: Combatant, target: Combatant | None, command: Act, skill: str | None
) -> None:
    action = command.action
    here = state.areas.get(who.area or "")
    if action == "flank":
        allies = [
            c
            for c in state.combatants.values()
            if c.side == who.side and c.id != who.id and not c.out and c.area == who.area
        ]
        if not allies:
            raise RuleViolation("Flank requires sharing an area with at least one ally (SCF-13)")
    elif action == "sneak":
        if not who.has("hiding"):
            raise RuleViolation(f"Sneak requires Hiding, and {who.name} is not Hiding (SCF-15)")
    elif action == "hide":
        if not ((here is not None and here.cover) or who.has("obscured")):
            raise RuleViolation(
                "Hide requires some potential cover or obscurement against enemy senses (SCF-33)"
            )
    elif action == "take_cover":
        if here is None or not here.cover:
            raise RuleViolation("Take Cover requires potential cover in your area (SCF-51)")
    elif action == "administer_first_help":
        if not who.healing_tools:
            raise RuleViolation("Administer First Help requires available healing tools (SCF-20)")
        assert target is not None
        if not target.deaths_door and not target.persistent:
            raise RuleViolation(
                f"First Help needs a creature at Death's Door or suffering persistent damage, "
                f"and {target.name} is neither (SCF-20)"
            )
    elif action == "disarm":
        if not who.held:
            raise RuleViolation("Disarm requires holding at least one weapon (SCF-29)")
        if command.weapon is not None and command.weapon not in who.held:
            raise RuleViolation(f"{who.name} does not hold the {command.weapon}")
        assert target is not None
        if not target.held:
            raise RuleViolation(f"{target.name} holds no weapon to Disarm (SCF-29)")
    elif action == "grapple":
        if _free_hands(state, who) < 1:
            raise RuleViolation("Grapple requires a free hand (SCF-32)")
    elif action == "point_out":
        if not who.has("sought"):
            raise RuleViolation(
                f"Point Out requires that {who.name} Successfully Sought this turn (SCF-37)"
            )
    elif action == "raise_a_shield":
        if not who.shield:
            raise RuleViolation(f"{who.name} holds no shield to raise (SCF-39)")
    elif action == "ready":
        readied = command.readied_action
        if readied is None or ACTIONS[readied].cost != 1 or readied == "ready":
            raise RuleViolation(
                "Ready prepares any [1]-cost action you could take: name one (SCF-41)"
            )
        if command.trigger is None:
            raise RuleViolation("Ready needs a trigger (SCF-41)")
    elif action == "sustain_spell":
        if who.fp < 1:
            raise RuleViolation(f"Sustain Spell costs 1 FP, and {who.name} has none (SCF-50)")
        active = [
            c
            for x in state.combatants.values()
            for c in x.conditions
            if c.kind == "spell" and c.source == who.id and c.spell == command.spell
        ]
        if not active:
            raise RuleViolation(f"{who.name} has no active spell '{command.spell}' (SCF-50)")
        if not any(c.sustainable for c in active):
            raise RuleViolation(
                "Only a spell cast with a Triumph or a Success can be sustained (SCF-A19)"
            )
    elif action == "command":
        assert target is not None
        if target.minion_of != who.id:
            raise RuleViolation(f"{target.name} is not {who.name}'s minion (SCF-26)")
    elif action == "rally":
        assert target is not None
        if target.side != who.side:
            raise RuleViolation(f"Rally helps an ally, and {target.name} is not one (SCF-40)")
        cond = find_condition(target, command.condition or "")
        if cond.kind != "affliction" or cond.save != "WIL":
            raise RuleViolation(
                "Rally only helps against an affliction that required a WIL Save (SCF-40)"
            )
    elif action == "escape":
        if not (who.has("restrained") or who.has("immobilised")):
            raise RuleViolation(f"{who.name} is neither Restrained nor Immobilised (SCF-30)")
    elif action == "seek":
        if command.area is None or command.area not in state.areas:
            raise RuleViolation("Seek targets one area you can perceive: name it (SCF-46)")
    elif action == "aid" and command.via == "reaction":
        if target is None or target.side != who.side or target.id == who.id:
            raise RuleViolation("Aid's reaction Favours an ally's roll: name the ally (SCF-21)")
    elif action == "release":
        holding = any(
            c.expiry == "held" and c.against == who.id
            for x in state.combatants.values()
            for c in x.conditions
        )
        if command.weapon is None and not holding:
            raise RuleViolation(f"{who.name} has no occupied hand to free (SCF-43)")
        if command.weapon is not None and command.weapon not in who.held:
            raise RuleViolation(f"{who.name} does not hold the {command.weapon}")


def _free_hands(state: State, who: Combatant) -> int:
    """Hands not holding a weapon nor dedicated to holding a grappled creature (SCF-32)."""
    holding = {
        x.id
        for x in state.combatants.values()
        for c in x.conditions
        if c.expiry == "held" and c.against == who.id
    }
    return who.hands - len(who.held) - len(holding)


def _move(b: Builder, ident: str, dest: str | None, reason: str) -> None:
    """A move action: the new area, then the hazard Save it may call for (SCF-17, SCF-A14)."""
    who = b.who(ident)
    origin = b.state.areas.get(who.area or "")
    if dest is not None and dest != who.area:
        b.emit(ev.Moved(combatant=ident, from_area=who.area, to_area=dest, reason=reason))
    target = b.state.areas.get(dest or "")
    for area in (target, origin):
        if area is not None and area.hazard is not None:
            b.emit(
                ev.HazardTriggered(
                    combatant=ident, area=area.id, save=area.hazard.save, die=area.hazard.die
                )
            )
            return


def _untested(b: Builder, ident: str, command: Act) -> None:
    state = b.state
    who = b.who(ident)
    action = command.action
    name = who.name
    line: str
    if action == "aid" and command.via == "reaction":
        ally = b.who(command.target or "")
        b.emit(
            ev.ConditionRemoved(
                bearer=ident,
                condition=next(c.id for c in who.conditions if c.kind == "aiding"),
                reason="Aid used",
            )
        )
        b.condition(
            ally.id,
            _cond(
                "favoured",
                expiry="next_roll",
                source=ident,
                circumstance=True,
                scope="the aided roll",
            ),
        )
        line = f"{name} Favours {ally.name}'s roll"
    elif action == "aid":
        b.condition(ident, _cond("aiding", expiry="start_of_turn", source=ident, note=command.note))
        line = f"until {name}'s next turn, a reaction can Favour an ally's roll"
    elif action == "avert_gaze":
        b.condition(
            ident,
            _cond(
                "favoured",
                expiry="start_of_turn",
                circumstance=True,
                scope="Saves against visual effects",
            ),
        )
        line = "Saves against visual effects Favoured until next turn"
    elif action == "evade":
        if state.options.evade_until_next_turn:
            b.condition(ident, _cond("evaded", expiry="start_of_turn", source=ident))
        else:
            b.condition(ident, _cond("evaded", expiry="turns", remaining=1, source=ident))
        line = "enemies must spend one more action to affect them in mêlée"
        b.emit(ev.ActionResolved(actor=ident, action=action, effect=line))
        _move(b, ident, None, "Evade")
        return
    elif action == "shift":
        b.emit(
            ev.ActionResolved(
                actor=ident, action=action, effect=f"moves to {area_name(state, command.area)}"
            )
        )
        _move(b, ident, command.area, "Shift")
        return
    elif action == "interact":
        line = command.note or "interacts with something in the area"
    elif action == "point_out":
        spotted = [c for c in who.conditions if c.kind == "spotting"]
        allies = [
            x
            for x in state.combatants.values()
            if x.side == who.side and x.id != ident and not x.out
        ]
        for ally in allies:
            for c in spotted:
                if not ally.has("spotting", c.against):
                    b.condition(ally.id, replace(c, id="", source=ident))
        line = "allies gain the benefits of the last Seek"
    elif action == "raise_a_shield":
        b.condition(ident, _cond("shield_raised", expiry="start_of_turn"))
        line = "benefits from the held shield until next turn"
    elif action == "ready":
        readied = command.readied_action or "strike"
        b.condition(
            ident, _cond("ready", expiry="start_of_turn", note=readied, scope=command.trigger)
        )
        line = f"{ACTIONS[readied].title} readied as a reaction: {command.trigger}"
    elif action == "release":
        if command.weapon is not None:
            b.emit(ev.WeaponDropped(combatant=ident, weapon=command.weapon, area=who.area))
            line = f"lets the {command.weapon} fall"
        else:
            for x in state.combatants.values():
                for c in x.conditions:
                    if c.expiry == "held" and c.against == ident:
                        b.emit(
                            ev.ConditionRemoved(
                                bearer=x.id, condition=c.id, reason=f"{name} let go"
                            )
                        )
            line = "frees a hand and lets go"
    elif action == "sustain_spell":
        b.emit(ev.FpChanged(combatant=ident, fp_after=who.fp - 1, reason="Sustain Spell"))
        for x in state.combatants.values():
            for c in x.conditions:
                if (
                    c.kind == "spell"
                    and c.source == ident
                    and c.spell == command.spell
                    and c.sustainable
                ):
                    b.emit(
                        ev.ConditionChanged(
                            bearer=x.id,
                            condition=c.id,
                            remaining=c.remaining,
                            skips=c.skips + 1,
                            intense=c.intense,
                            reason="sustained",
                        )
                    )
        line = f"{command.spell}'s effects do not count down at the end of their next turn"
    elif action == "take_cover":
        b.condition(
            ident,
            _cond(
                "favoured",
                expiry="attack_or_start_of_turn",
                circumstance=True,
                scope="REF Saves & Stealth rolls",
            ),
        )
        line = "REF Saves & Stealth rolls Favoured until next turn or an attack"
    else:
        line = "done"
    b.emit(ev.ActionResolved(actor=ident, action=action, target=command.target, effect=line))


def resolve(state: State, command: Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    p = state.pending
    if p is None:
        raise RuleViolation("There is no test waiting for a degree")
    if p.kind == "hazard":
        no_pending(state)
    b = Builder(state)
    outcome(b, p, command, dice)
    return b.done()


def roll_test(state: State, command: RollTest, dice: Dice) -> tuple[ev.Event, ...]:
    """The optional house-rule resolver (off by default; not the text's, SCF-A1)."""
    options = state.options
    if options.degree_input != "house_dice":
        raise RuleViolation(
            "Tests are resolved by the degree the GM enters; the dice resolver is a house "
            "rule that is off in this encounter (degree_input, SCF-A1)"
        )
    p = state.pending
    if p is None:
        raise RuleViolation("There is no test waiting for a degree")
    if p.kind == "hazard":
        no_pending(state)
    modifiers = (Modifier(label=p.skill or "bonus", value=command.bonus),) if command.bonus else ()
    record = dice.roll(
        options.house_dice,
        purpose=f"{ACTIONS[p.action].title} test (house rule)",
        roller=p.actor,
        modifiers=modifiers,
        target=command.target,
    )
    margin = options.house_triumph_margin
    degree: Degree
    if record.total >= command.target + margin:
        degree = "triumph"
    elif record.total >= command.target:
        degree = "success"
    elif record.total <= command.target - margin:
        degree = "bungle"
    else:
        degree = "failure"
    record = replace(record, outcome=degree)
    b = Builder(state)
    resolve_with = Resolve(
        degree=degree,
        choice=command.choice,
        area=command.area,
        instances=command.instances,
        extra_action=command.extra_action,
        note=command.note,
    )
    outcome(b, p, resolve_with, dice)
    events = list(b.done())
    for i, event in enumerate(events):
        if isinstance(event, ev.ActionResolved):
            events[i] = replace(event, rolls=(record, *event.rolls))
            break
    return tuple(events)


def _damage(
    dice: Dice, notation: str, degree: str, purpose: str, roller: str, fail: int = 1
) -> tuple[int, tuple[RollRecord, ...]]:
    """Strike and Cast Spell: T maximise, S roll, F 1 damage, B none (SCF-25, SCF-49)."""
    if degree == "triumph":
        return maximum_of(notation), ()
    if degree == "success":
        record = dice.roll(notation, purpose=purpose, roller=roller)
        return record.total, (replace(record, outcome="rolled"),)
    if degree == "failure":
        return fail, ()
    return 0, ()


def _choice(command: Resolve, allowed: tuple[str, ...], what: str) -> str:
    if command.choice not in allowed:
        raise RuleViolation(f"{what}: choose {' or '.join(allowed)}")
    return command.choice


def outcome(b: Builder, p: Pending, command: Resolve, dice: Dice) -> None:
    """Apply the degree line of the pending action (SCF-01)."""
    state = b.state
    degree = command.degree
    action = p.action
    spec = ACTIONS[action]
    actor = b.who(p.actor)
    target = b.state.combatants.get(p.target or "")
    index = ("triumph", "success", "failure", "bungle").index(degree)
    line = spec.lines[index]
    word = DEGREE_WORD[degree]
    top = degree in ("triumph", "success")

    def resolved(
        effect: str,
        damage: int | None = None,
        hp_after: int | None = None,
        rolls: tuple[RollRecord, ...] = (),
    ) -> None:
        b.emit(
            ev.ActionResolved(
                actor=actor.id,
                action=action,
                degree=degree,
                target=p.target,
                effect=effect,
                damage=damage,
                hp_after=hp_after,
                rolls=rolls,
            )
        )

    for c in actor.conditions:
        if c.expiry == "next_roll":
            b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="the roll was made"))

    if action == "strike":
        assert target is not None
        weapon = actor.weapons[p.weapon or ""]
        dmg, rolls = _damage(
            dice, weapon.damage, degree, f"{spec.title} on {target.name} with {p.weapon}", actor.id
        )
        resolved(line, dmg, target.hp - dmg if dmg else None, rolls)
    elif action == "cast_spell":
        spell = actor.spells[p.spell or ""]
        bearer = target or actor
        if degree == "bungle":
            resolved(line)
            return
        dmg, rolls = 0, ()
        if spell.damage is not None:
            dmg, rolls = _damage(
                dice, spell.damage, degree, f"{p.spell} on {bearer.name}", actor.id
            )
        resolved(line, dmg if spell.damage else None, bearer.hp - dmg if dmg else None, rolls)
        turns = {"triumph": 3, "success": 2, "failure": 1}[degree]
        b.condition(
            bearer.id,
            _cond(
                "spell",
                remaining=turns,
                source=actor.id,
                spell=p.spell,
                sustainable=top,
                note=spell.effect,
            ),
        )
    elif action == "flank":
        assert target is not None
        resolved(line)
        if top:
            b.condition(
                actor.id,
                _cond(
                    "favoured",
                    remaining=1,
                    against=target.id,
                    circumstance=True,
                    scope=f"attacks against {target.name}",
                    note="ignores 1 Impairment" if degree == "triumph" else None,
                ),
            )
    elif action == "sneak":
        hiding = [c.id for c in actor.conditions if c.kind == "hiding"]
        moves = True
        stop = degree == "bungle"
        if degree == "failure":
            pick = _choice(
                command,
                ("lose_movement", "stop_hiding"),
                "Sneak's Failure: lose the movement or stop Hiding",
            )
            moves = pick == "stop_hiding"
            stop = moves
        resolved(
            line if degree != "failure" else ("stops Hiding" if stop else "loses the movement")
        )
        for hid in hiding if stop else ():
            b.emit(ev.ConditionRemoved(bearer=actor.id, condition=hid, reason="stopped Hiding"))
        if moves:
            for x in state.combatants.values():
                for c in x.conditions:
                    if c.kind == "spotting" and c.against == actor.id:
                        b.emit(
                            ev.ConditionRemoved(
                                bearer=x.id, condition=c.id, reason=f"{actor.name} sneaked away"
                            )
                        )
            if degree == "triumph":
                b.condition(
                    actor.id, _cond("favoured", remaining=1, circumstance=True, scope="attacks")
                )
            _move(b, actor.id, p.area, "Sneak")
    elif action == "shift":
        if top:
            resolved(f"gets through the obstacle to {area_name(state, p.area)}")
            _move(b, actor.id, p.area, "Shift")
        else:
            resolved(
                "fails to get through the obstacle: the Shift does not happen and the action "
                "is spent (SCF-A13)"
            )
    elif action == "interact":
        resolved("unnoticed" if top else "noticed")
    elif action == "administer_first_help":
        assert target is not None
        _first_help(b, actor, target, command)
        return
    elif action == "arrest_fall":
        stops = degree == "success" or (
            degree == "triumph" and state.options.arrest_fall_triumph_as_success
        )
        resolved("stops falling, for as long as the method works" if stops else "¤")
    elif action == "command":
        assert target is not None
        if top:
            granted = 2
            if degree == "triumph" and command.extra_action:
                if b.who(actor.id).actions < 1:
                    raise RuleViolation(f"{actor.name} has no action left to give a third")
                b.emit(
                    ev.ActionTaken(
                        actor=actor.id,
                        action="command",
                        cost=1,
                        target=target.id,
                        note="one more action for a third",
                    )
                )
                granted = 3
            resolved(line)
            b.emit(ev.ActionsGranted(minion=target.id, by=actor.id, actions=granted))
        else:
            resolved(line)
    elif action == "create_a_diversion":
        resolved(line)
        if top:
            b.condition(
                actor.id,
                _cond("obscured", remaining=2 if degree == "triumph" else 1, scope="all senses"),
            )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond("impaired", remaining=2, circumstance=True, scope="Create a Diversion"),
            )
    elif action == "disarm":
        assert target is not None
        resolved(line)
        theirs = target.held[0] if target.held else None
        mine = p.weapon or (actor.held[0] if actor.held else None)
        drop_to = command.area or _adjacent_of(state, actor.area)
        if degree == "triumph" and theirs:
            b.emit(ev.WeaponDropped(combatant=target.id, weapon=theirs, area=drop_to))
        elif degree == "success" and theirs:
            b.condition(
                target.id, _cond("impaired", remaining=1, scope=f"attacks with the {theirs}")
            )
        elif degree == "failure" and mine:
            b.condition(actor.id, _cond("impaired", remaining=1, scope=f"attacks with the {mine}"))
        elif degree == "bungle" and mine:
            b.emit(ev.WeaponDropped(combatant=actor.id, weapon=mine, area=drop_to))
    elif action == "escape":
        resolved(line)
        if degree == "triumph":
            kinds: tuple[str, ...] = ("restrained", "immobilised")
        elif degree == "success":
            kinds = (_choice(command, ("restrained", "immobilised"), "Escape's Success ends one"),)
        else:
            kinds = ()
        for c in actor.conditions:
            if c.kind in kinds:
                b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="escaped"))
    elif action == "feint":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            b.condition(
                target.id,
                _cond("stunned", remaining=1, against=actor.id, scope=f"{actor.name}'s actions"),
            )
        elif degree == "success":
            b.condition(
                target.id,
                _cond(
                    "stunned",
                    expiry="next_action",
                    against=actor.id,
                ),
            )
        elif degree == "bungle":
            b.condition(
                target.id,
                _cond(
                    "bonus_reaction",
                    remaining=1,
                    against=actor.id,
                    scope=f"only against {actor.name}",
                ),
            )
    elif action == "grapple":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            kinds = ("immobilised", "restrained")
        elif degree == "success":
            kinds = (_choice(command, ("immobilised", "restrained"), "Grapple's Success"),)
        else:
            kinds = ()
        for kind in kinds:
            b.condition(
                target.id,
                _cond(
                    kind,
                    expiry="held",
                    against=actor.id,
                    source=actor.id,
                    scope=f"held by {actor.name}",
                ),
            )
    elif action == "hide":
        resolved(line)
        if top:
            b.condition(actor.id, _cond("hiding", expiry="while_hiding"))
            if degree == "triumph":
                b.condition(actor.id, _cond("stealth_strike", remaining=1))
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, circumstance=True, scope="Hiding"))
    elif action == "intimidate":
        assert target is not None
        resolved(line)
        if top:
            b.condition(
                target.id,
                _cond(
                    "intimidated",
                    expiry="end_of_turn",
                    against=actor.id,
                    note="the Strike is Impaired (circumstance)" if degree == "triumph" else None,
                ),
            )
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, scope="Intimidate"))
    elif action == "knockdown":
        assert target is not None
        resolved(line)
        if degree in ("triumph", "success"):
            kind = _choice(
                command, ("immobilised", "staggered"), "Knockdown: Immobilised or Staggered"
            )
            b.condition(target.id, _cond(kind, remaining=2, source=actor.id))
        elif degree == "bungle":
            kind = _choice(
                command,
                ("immobilised", "staggered"),
                "Knockdown's Bungle: Immobilised or Staggered",
            )
            b.condition(actor.id, _cond(kind, remaining=2))
    elif action == "predict":
        assert target is not None
        resolved(line + (f": {command.note}" if command.note else ""))
        if top:
            b.condition(
                target.id, _cond("predicted", remaining=1, against=actor.id, note=command.note)
            )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond("stunned", remaining=2, against=target.id, scope=f"{target.name}'s actions"),
            )
    elif action == "rally":
        assert target is not None
        cond = find_condition(target, p.condition or "")
        resolved(line)
        if degree == "triumph" or (degree == "success" and not cond.intense):
            b.emit(ev.ConditionRemoved(bearer=target.id, condition=cond.id, reason="rallied"))
        elif degree == "success":
            b.emit(
                ev.ConditionChanged(
                    bearer=target.id,
                    condition=cond.id,
                    remaining=cond.remaining,
                    skips=cond.skips,
                    intense=False,
                    reason="downgraded to basic",
                )
            )
        elif degree == "bungle":
            pick = _choice(command, ("sustained", "intense"), "Rally's Bungle")
            if pick == "intense":
                b.emit(
                    ev.ConditionChanged(
                        bearer=target.id,
                        condition=cond.id,
                        remaining=cond.remaining,
                        skips=cond.skips,
                        intense=True,
                        reason="became Intense",
                    )
                )
            else:
                b.condition(
                    target.id,
                    _cond(
                        "sustained",
                        expiry="until_removed",
                        note=cond.id,
                        scope=f"condition {cond.id}",
                    ),
                )
    elif action == "refocus":
        resolved(line)
        gain = {"triumph": 2, "success": 1}.get(degree, 0)
        if gain:
            after = actor.fp + gain
            if actor.max_fp > 0:
                after = min(after, actor.max_fp)
            b.emit(ev.FpChanged(combatant=actor.id, fp_after=after, reason="Refocus"))
        elif degree == "bungle":
            b.condition(actor.id, _cond("refocus_costly", expiry="end_of_turn"))
    elif action == "taunt":
        assert target is not None
        resolved(line)
        if top:
            if degree == "triumph":
                b.condition(target.id, _cond("perturbed", remaining=1, source=actor.id))
            b.condition(
                target.id,
                _cond(
                    "taunted",
                    remaining=1,
                    against=actor.id,
                    circumstance=True,
                    scope=f"attacks against anyone but {actor.name} Impaired",
                ),
            )
        elif degree == "bungle":
            b.condition(actor.id, _cond("impaired", remaining=2, circumstance=True, scope="Taunt"))
    elif action == "seek":
        resolved(line)
        if top:
            b.condition(actor.id, _cond("sought", expiry="end_of_turn", area=p.area))
            for x in state.combatants.values():
                if (
                    x.area == p.area
                    and x.has("hiding")
                    and x.side != actor.side
                    and not actor.has("spotting", x.id)
                ):
                    b.condition(
                        actor.id,
                        _cond(
                            "spotting",
                            expiry="until_removed",
                            against=x.id,
                            area=p.area,
                            scope=f"can target {x.name}",
                        ),
                    )
        elif degree == "bungle":
            b.condition(
                actor.id,
                _cond(
                    "impaired",
                    remaining=1,
                    circumstance=True,
                    area=p.area,
                    scope=f"Seeking in {area_name(state, p.area)}",
                ),
            )
    elif action == "shove":
        assert target is not None
        resolved(line)
        if degree == "triumph":
            b.condition(target.id, _cond("staggered", remaining=2, source=actor.id))
            pick = _choice(
                command, ("perturbed", "displaced"), "Shove's Triumph: Perturbed or displaced"
            )
            if pick == "perturbed":
                b.condition(target.id, _cond("perturbed", remaining=2, source=actor.id))
            else:
                _displace(b, target, command)
        elif degree == "success":
            pick = _choice(
                command,
                ("staggered", "displaced"),
                "Shove's Success: the target chooses Staggered or displaced",
            )
            if pick == "staggered":
                b.condition(target.id, _cond("staggered", remaining=2, source=actor.id))
            else:
                _displace(b, target, command)
        elif degree == "bungle":
            b.condition(actor.id, _cond("staggered", remaining=2))
    elif action == "steel_oneself":
        resolved(line)
        if degree == "triumph":
            kinds = ("faltering", "perturbed")
        elif degree == "success":
            kinds = (_choice(command, ("faltering", "perturbed"), "Steel Oneself's Success"),)
        else:
            kinds = ()
        for c in actor.conditions:
            if c.kind in kinds and c.remaining is not None:
                if c.remaining - 2 <= 0:
                    b.emit(ev.ConditionRemoved(bearer=actor.id, condition=c.id, reason="steeled"))
                else:
                    b.emit(
                        ev.ConditionChanged(
                            bearer=actor.id,
                            condition=c.id,
                            remaining=c.remaining - 2,
                            skips=c.skips,
                            intense=c.intense,
                            reason="steeled",
                        )
                    )
    else:  # analyse, disable
        resolved(line + (f": {command.note}" if command.note else ""))
    del word


def _adjacent_of(state: State, area: str | None) -> str | None:
    for a, b in state.links:
        if a == area:
            return b
        if b == area:
            return a
    return area


def _displace(b: Builder, target: Combatant, command: Resolve) -> None:
    if (
        command.area is None
        or target.area is None
        or not adjacent(b.state, target.area, command.area)
    ):
        raise RuleViolation("A displaced target goes to an adjacent area: name it")
    b.emit(
        ev.Moved(combatant=target.id, from_area=target.area, to_area=command.area, reason="shoved")
    )


def _first_help(b: Builder, actor: Combatant, target: Combatant, command: Resolve) -> None:
    """SCF-20: Death's Door first, otherwise the instances of persistent damage."""
    degree = command.degree
    line = ACTIONS["administer_first_help"].lines[
        ("triumph", "success", "failure", "bungle").index(degree)
    ]
    b.emit(
        ev.ActionResolved(
            actor=actor.id,
            action="administer_first_help",
            degree=degree,
            target=target.id,
            effect=line,
        )
    )
    if target.deaths_door:
        if degree in ("triumph", "success"):
            hp = 5 if degree == "triumph" else 1
            b.emit(
                ev.DeathsDoorChanged(
                    combatant=target.id,
                    deaths_door=False,
                    hp_after=hp,
                    dd_action_loss=0,
                    reason="First Help",
                )
            )
        elif degree == "bungle":
            b.emit(
                ev.DeathsDoorChanged(
                    combatant=target.id,
                    deaths_door=True,
                    hp_after=target.hp,
                    dd_action_loss=min(3, target.dd_action_loss + 1),
                    reason="a bungled First Help",
                )
            )
        return
    values = list(target.persistent)
    picks = command.instances or ((0, 1) if command.choice == "halve_two" else (0,))
    for i in picks:
        if i >= len(values):
            raise RuleViolation(f"{target.name} has no persistent damage instance #{i}")
    if degree == "triumph":
        pick = _choice(
            command, ("zero", "halve_two"), "First Help's Triumph: one instance to 0 or two halved"
        )
        if pick == "zero":
            values[picks[0]] = 0
        else:
            if len(picks) != 2:
                raise RuleViolation("Halving two instances needs two instances")
            for i in picks:
                values[i] //= 2
    elif degree == "success":
        values[picks[0]] //= 2
    elif degree == "bungle":
        values[picks[0]] += 1
    else:
        return
    b.emit(
        ev.PersistentChanged(
            combatant=target.id,
            persistent_after=tuple(v for v in values if v > 0),
            reason="First Help",
        )
    )


def save(state: State, command: Save, dice: Dice) -> tuple[ev.Event, ...]:
    """[0] Save (SCF-45); against hazardous terrain the terrain's table (SCF-A8)."""
    who = combatant(state, command.combatant)
    p = state.pending
    degree = command.degree
    rolls: tuple[RollRecord, ...] = ()
    if p is not None and p.kind == "hazard" and p.actor == who.id:
        assert p.save is not None and p.die is not None
        if command.save is not None and command.save != p.save:
            raise RuleViolation(
                f"The hazard of {area_name(state, p.area)} calls for a {p.save} Save"
            )
        purpose = f"hazard in {area_name(state, p.area)} ({p.save} Save)"
        if degree == "triumph":
            dmg = 0
        elif degree == "bungle":
            dmg = maximum_of(p.die)
        else:
            record = dice.roll(p.die, purpose=purpose, roller=who.id)
            dmg = record.total // 2 if degree == "success" else record.total
            rolls = (replace(record, outcome="halved" if degree == "success" else "rolled"),)
        return (
            ev.SaveMade(
                combatant=who.id,
                save=p.save,
                degree=degree,
                label="hazardous terrain",
                hazard_area=p.area,
                damage=dmg,
                hp_after=who.hp - dmg,
                rolls=rolls,
            ),
        )
    no_pending(state)
    if command.save is None:
        raise RuleViolation("Name the Save the danger calls for: VIG, REF or WIL (SCF-45)")
    dmg = 0
    if command.damage is not None:
        if degree == "success":
            dmg = 1
        elif degree == "failure":
            record = dice.roll(
                command.damage, purpose=f"{command.label} ({command.save} Save)", roller=who.id
            )
            dmg = record.total
            rolls = (replace(record, outcome="rolled"),)
        elif degree == "bungle":
            dmg = maximum_of(command.damage)
    return (
        ev.SaveMade(
            combatant=who.id,
            save=command.save,
            degree=degree,
            label=command.label,
            damage=dmg,
            hp_after=who.hp - dmg,
            rolls=rolls,
        ),
    )
