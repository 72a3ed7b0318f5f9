"""The Slow Phase (section 1): declared actions resolve one at a time, in descending
Initiative, Normal speed before Slow (AEK-15, AEK-A2), each character's two in the order
declared (AEK-A31).

An action the round has overtaken fails as the text says and is spent (AEK-17, AEK-54):
a token someone claimed first, a Charge by a character knocked Prone, a target who is
dead, a Disengage from a foe no longer Engaged.  The checks that refuse a declaration
are made again here and turned into that failure.
"""

from __future__ import annotations

from service.dice.model import Dice, Modifier
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical import movement
from service.rulesets.aeonisk_tactical.combat import Strike, strike
from service.rulesets.aeonisk_tactical.commands import Resolve
from service.rulesets.aeonisk_tactical.evolve import evolve
from service.rulesets.aeonisk_tactical.fields import TOKEN_NAMES, Slot
from service.rulesets.aeonisk_tactical.plan import (
    AnyAction,
    Attack,
    BondRally,
    Charge,
    Claim,
    Disengage,
    Move,
    Overwatch,
    Reload,
    Stand,
    Suppress,
    Swap,
    Task,
    requires_standing,
)
from service.rulesets.aeonisk_tactical.rolls import check
from service.rulesets.aeonisk_tactical.rules import character, known_band, next_pending
from service.rulesets.aeonisk_tactical.state import Character, Slow, State, Watch


def resolve(state: State, command: Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    if not isinstance(state.phase, Slow):
        raise RuleViolation("declared actions resolve in the Slow Phase (section 1)")
    if state.suppressed is not None:
        who = state.characters[state.suppressed.target].name
        raise RuleViolation(f"{who} must first choose Dive or Hunker Down (section 7)")
    pending = next_pending(state)
    if pending is None:
        raise RuleViolation(
            "every declared action has resolved: the GM moves on to Cleanup (next_phase)"
        )
    actor, slot, action = pending
    events: list[ev.Event] = []
    if state.breakaway is not None:
        events.append(ev.BreakawayClosed(mover=state.breakaway.mover))
    ended = _next_turn_effects(state, actor)
    if ended:
        events.append(ev.EffectsEnded(character=actor.id, effects=ended))
    state = _fold(state, events)
    actor = state.characters[actor.id]
    reason = _invalidated(state, actor, action)
    if reason is not None:
        events.append(ev.ActionFailed(character=actor.id, slot=slot, reason=reason))
        return tuple(events)
    events.append(ev.ActionBegan(character=actor.id, slot=slot, action=action))
    try:
        events.extend(_effect(state, dice, actor, slot, action, command))
    except RuleViolation as overtaken:
        events[-1] = ev.ActionFailed(character=actor.id, slot=slot, reason=overtaken.reason)
    return tuple(events)


def _next_turn_effects(state: State, actor: Character) -> tuple[str, ...]:
    """Charge's -2 and Hunker Down last 'until their next turn': the owner's first
    resolution step of a later round (AEK-A22, AEK-A23)."""
    number = state.round or 0
    ended: list[str] = []
    if actor.hunkered_round is not None and actor.hunkered_round < number:
        ended.append("hunker_down")
    if actor.charged_round is not None and actor.charged_round < number:
        ended.append("charge")
    return tuple(ended)


def _invalidated(state: State, actor: Character, action: AnyAction) -> str | None:
    if actor.prone and requires_standing(action):
        return (
            f"{actor.name} is Prone, and the declared action requires standing: it fails "
            "and the action is lost (section 5b)"
        )
    return None


def _effect(
    state: State, dice: Dice, actor: Character, slot: Slot, action: AnyAction, command: Resolve
) -> tuple[ev.Event, ...]:
    match action:
        case Attack():
            return _attack(state, dice, actor, action, command)
        case Charge():
            return _charge(state, dice, actor, action, command)
        case Suppress():
            target = _alive_target(state, action.target)
            return strike(state, dice, _strike(actor, target, action, "suppress", command))
        case Move():
            return _move(state, dice, actor, action, slot)
        case Task():
            return _task(state, dice, actor, action)
        case Reload():
            return ()
        case Claim() | Swap():
            return _claim(state, actor, action)
        case Overwatch():
            watch = Watch(
                arc=action.arc,
                weapon=action.weapon,
                attribute=action.attribute,
                skill=action.skill,
                set_round=state.round or 0,
            )
            return (ev.OverwatchSet(character=actor.id, watch=watch),)
        case Stand():
            if not actor.prone:
                raise RuleViolation(f"{actor.name} is no longer Prone")
            return (ev.ProneChanged(character=actor.id, prone=False, reason="stands up"),)
        case Disengage():
            return _disengage(state, dice, actor, action)
        case BondRally():
            return _rally(state, dice, actor, action)


def _alive_target(state: State, target_id: str) -> Character:
    target = character(state, target_id)
    if not target.alive:
        raise RuleViolation(f"{target.name} is dead: the action has no target")
    return target


def _strike(
    actor: Character,
    target: Character,
    action: Attack | Charge | Suppress,
    kind: ev.AttackKind,
    command: Resolve,
    *,
    running: bool = False,
    void_surge: bool = False,
) -> Strike:
    """The Strike of a declared attack, with the GM's extra modifiers of ``command``."""
    return Strike(
        actor,
        target,
        action.weapon,
        actor.weapons[action.weapon],
        action.attribute,
        action.skill,
        kind,
        running=running,
        void_surge=void_surge,
        extra_attack=command.attack_modifiers,
        extra_defence=command.defence_modifiers,
    )


def _surge(actor: Character) -> ev.StunChanged:
    """Void Surge backlash: 1 Stun at once, hit or miss (AEK-63, AEK-A26)."""
    return ev.StunChanged(character=actor.id, stun=actor.stun + 1, reason="Void Surge backlash")


def _attack(
    state: State, dice: Dice, actor: Character, action: Attack, command: Resolve
) -> tuple[ev.Event, ...]:
    target = _alive_target(state, action.target)
    weapon = actor.weapons[action.weapon]
    if not weapon.ranged and known_band(state, actor, target) != "engaged":
        raise RuleViolation(f"{target.name} is out of reach: a melee attack needs the Engaged band")
    surge = action.void_surge
    s = _strike(actor, target, action, "attack", command, running=action.running, void_surge=surge)
    before = (_surge(actor),) if action.void_surge else ()
    return (*before, *strike(state, dice, s))


def _charge(
    state: State, dice: Dice, actor: Character, action: Charge, command: Resolve
) -> tuple[ev.Event, ...]:
    """Near or Far -> Engaged; +2 first melee damage on that foe, -2 to defences until the
    next turn; the melee attack follows with ``charge_includes_attack`` (AEK-58)."""
    target = _alive_target(state, action.target)
    current = known_band(state, actor, target)
    if current not in ("near", "far"):
        raise RuleViolation(
            f"a Charge must start in the Near or Far band; {actor.name} is now {current} to "
            f"{target.name}"
        )
    events: list[ev.Event] = []
    if action.terrain is not None:
        crossed, checked = movement.terrain_check(state, dice, actor, action.terrain)
        events.extend(checked)
        if not crossed:
            return tuple(events)
    where = movement.toward(state, actor, target, None)
    events.extend(movement.moved(state, actor, where, breakaway=True))
    events.append(ev.ChargeMade(character=actor.id, foe=target.id))
    if not state.options.charge_includes_attack:
        return tuple(events)
    after = _fold(state, events)
    charger = after.characters[actor.id]
    s = _strike(
        charger,
        after.characters[target.id],
        action,
        "charge",
        command,
        void_surge=action.void_surge,
    )
    if action.void_surge:
        events.append(_surge(charger))
    events.extend(strike(after, dice, s))
    return tuple(events)


def _fold(state: State, events: list[ev.Event]) -> State:
    for event in events:
        state = evolve(state, event)
    return state


def _move(
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
    events.extend(movement.moved(state, actor, where, breakaway=True))
    return tuple(events)


def _task(state: State, dice: Dice, actor: Character, action: Task) -> tuple[ev.Event, ...]:
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


def _claim(state: State, actor: Character, action: Claim | Swap) -> tuple[ev.Event, ...]:
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


def _disengage(
    state: State, dice: Dice, actor: Character, action: Disengage
) -> tuple[ev.Event, ...]:
    """Athletics check; success shifts 1 band away without a Breakaway, failure keeps
    the character Engaged and spends the Minor (AEK-27, AEK-A21)."""
    foe = _alive_target(state, action.foe)
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


def _rally(state: State, dice: Dice, actor: Character, action: BondRally) -> tuple[ev.Event, ...]:
    """Empathy x Charm against 20: pull 1 Stun from the Bonded ally (AEK-62)."""
    ally = _alive_target(state, action.ally)
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
