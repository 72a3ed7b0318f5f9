"""What each Scentfinder action asks before it is taken: its base cost, the skill it
tests, and the requirements the text sets for it (SCF-13..SCF-51).
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder.commands import Act
from service.rulesets.scentfinder.fields import ACTIONS, ATTACK_SKILL_FIXED
from service.rulesets.scentfinder.rules import find_condition
from service.rulesets.scentfinder.state import Combatant, State


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
