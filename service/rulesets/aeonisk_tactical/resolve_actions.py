"""The Slow Phase's declared actions other than attacks: moves through bands, zones and
terrain, tasks (Ley-Node and Energy Hub bonuses), token claims and swaps, Disengage and
Bond Rally."""

from __future__ import annotations

from service.dice.model import Dice, Modifier
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical import movement
from service.rulesets.aeonisk_tactical.fields import TOKEN_NAMES, Slot
from service.rulesets.aeonisk_tactical.plan import BondRally, Claim, Disengage, Move, Swap, Task
from service.rulesets.aeonisk_tactical.rolls import check
from service.rulesets.aeonisk_tactical.rules import alive_target, known_band
from service.rulesets.aeonisk_tactical.state import Character, State


def move(
    state: State, dice: Dice, actor: Character, action: Move, slot: Slot
) -> tuple[ev.Event, ...]:
    where = movement.route(state, actor, action, movement.budget_of(slot))
    events: list[ev.Event] = []
    if action.terrain is not None:
        crossed, checked = movement.terrain_check(state, dice, actor, action.terrain)
        events.extend(checked)
        if not crossed:
            return tuple(events)
    if action.bands == 0:
        return tuple(events)
    events.extend(movement.moved(state, actor, where, breakaway=True, slot=slot))
    return tuple(events)


def task(state: State, dice: Dice, actor: Character, action: Task) -> tuple[ev.Event, ...]:
    mods: list[Modifier] = []
    used: list[str] = []
    if action.task in ("ritual", "dreamwork"):
        if actor.id in state.ley_node:
            mods.append(Modifier("Ley-Node", 2))
            used.append("ley_node")
        if actor.energy_bonus:
            mods.append(Modifier("Energy Hub", actor.energy_bonus))
            used.append("energy_hub")
    outcome, tiers, record = check(
        state,
        dice,
        actor,
        label=action.label,
        attribute=action.attribute,
        skill=action.skill,
        dc=action.dc,
        situational=mods,
    )
    return (
        ev.CheckRolled(
            character=actor.id,
            label=action.label,
            outcome=outcome,
            tiers=tiers,
            used=tuple(used),
            rolls=(record,),
        ),
    )


def claim(state: State, actor: Character, action: Claim | Swap) -> tuple[ev.Event, ...]:
    """Whoever resolves first gets the token; a later claim fails (AEK-17, section 1)."""
    token = state.tokens.get(action.token)
    if token is None:
        raise RuleViolation(f"the token '{action.token}' is no longer on the table")
    name = TOKEN_NAMES[token.kind]
    if token.holder is not None:
        holder = state.characters[token.holder].name
        raise RuleViolation(
            f"the {name} token has already been claimed by {holder}: {actor.name}'s claim "
            "fails to secure that specific token (section 1)"
        )
    returned = None
    if isinstance(action, Swap):
        if actor.tactical is None:
            raise RuleViolation(f"{actor.name} no longer holds a token to swap")
        returned = actor.tactical.token
    elif actor.tactical is not None:
        raise RuleViolation(f"{actor.name} already holds a Tactical Token (section 5)")
    return (ev.TokenClaimed(character=actor.id, token=token.id, returned=returned),)


def disengage(
    state: State, dice: Dice, actor: Character, action: Disengage
) -> tuple[ev.Event, ...]:
    """Athletics check; success shifts 1 band away without a Breakaway, failure keeps
    the character Engaged and spends the Minor (AEK-27, AEK-A21)."""
    foe = alive_target(state, action.foe)
    if known_band(state, actor, foe) != "engaged":
        raise RuleViolation(f"{actor.name} is no longer Engaged with {foe.name}")
    where = movement.away(state, actor, foe, action.zone)
    outcome, tiers, record = check(
        state,
        dice,
        actor,
        label=f"Disengage from {foe.name}",
        attribute="agility",
        skill="athletics",
        dc=state.options.disengage_dc,
    )
    checked = ev.CheckRolled(
        character=actor.id, label="Disengage", outcome=outcome, tiers=tiers, rolls=(record,)
    )
    if outcome == "failure" or where is None:
        return (checked,)
    return (checked, *movement.moved(state, actor, where, breakaway=False))


def rally(state: State, dice: Dice, actor: Character, action: BondRally) -> tuple[ev.Event, ...]:
    """Empathy x Charm against 20: pull 1 Stun from the Bonded ally (AEK-62)."""
    ally = alive_target(state, action.ally)
    if ally.stun == 0:
        raise RuleViolation(f"{ally.name} has no Stun for {actor.name} to pull")
    outcome, tiers, record = check(
        state,
        dice,
        actor,
        label=f"Bond Rally for {ally.name}",
        attribute="empathy",
        skill="charm",
        dc=state.options.bond_rally_dc,
    )
    checked = ev.CheckRolled(
        character=actor.id, label="Bond Rally", outcome=outcome, tiers=tiers, rolls=(record,)
    )
    if outcome == "failure":
        return (checked,)
    reason = f"Bond Rally: {actor.name} takes 1 Stun from {ally.name}"
    return (
        checked,
        ev.StunChanged(character=ally.id, stun=ally.stun - 1, reason=reason),
        ev.StunChanged(character=actor.id, stun=actor.stun + 1, reason=reason),
    )
