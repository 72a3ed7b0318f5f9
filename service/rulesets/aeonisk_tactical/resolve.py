"""The Slow Phase (section 1): declared actions resolve one at a time, in descending
Initiative, Normal speed before Slow (AEK-15, AEK-A2), each character's two in the order
declared (AEK-A31).

An action the round has overtaken fails as the text says and is spent (AEK-17, AEK-54):
a token someone claimed first, a Charge by a character knocked Prone, a target who is
dead, a Disengage from a foe no longer Engaged.  The checks that refuse a declaration
are made again here and turned into that failure.  This module holds the step and the
attacks (Attack, Charge, Suppress); ``resolve_actions`` the other declared actions.
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical import movement
from service.rulesets.aeonisk_tactical.breakaway import complete_move
from service.rulesets.aeonisk_tactical.charge import arrive
from service.rulesets.aeonisk_tactical.combat import Strike, strike
from service.rulesets.aeonisk_tactical.commands import Resolve
from service.rulesets.aeonisk_tactical.evolve import fold
from service.rulesets.aeonisk_tactical.fields import Slot
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
from service.rulesets.aeonisk_tactical.resolve_actions import claim, disengage, move, rally, task
from service.rulesets.aeonisk_tactical.rules import alive_target, known_band, next_pending
from service.rulesets.aeonisk_tactical.state import Character, Slow, State, Watch


def resolve(state: State, command: Resolve, dice: Dice) -> tuple[ev.Event, ...]:
    if not isinstance(state.phase, Slow):
        raise RuleViolation("declared actions resolve in the Slow Phase (section 1)")
    if state.suppressed is not None:
        who = state.characters[state.suppressed.target].name
        raise RuleViolation(f"{who} must first choose Dive or Hunker Down (section 7)")
    if state.breakaway is not None and state.breakaway.move is not None:
        return complete_move(state, dice)
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
        dice.no_roll(reason, rule="AEK-54")
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
    if (why := _rolls_nothing(action)) is not None:
        dice.no_roll(why[0], rule=why[1])
    match action:
        case Attack():
            return _attack(state, dice, actor, action, command)
        case Charge():
            return _charge(state, dice, actor, action, command)
        case Suppress():
            target = alive_target(state, action.target)
            return strike(state, dice, _strike(actor, target, action, "suppress", command))
        case Move():
            return move(state, dice, actor, action, slot)
        case Task():
            return task(state, dice, actor, action)
        case Reload():
            return ()
        case Claim() | Swap():
            return claim(state, actor, action)
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
            return disengage(state, dice, actor, action)
        case BondRally():
            return rally(state, dice, actor, action)


def _rolls_nothing(action: AnyAction) -> tuple[str, str] | None:
    """Why resolving an action of this kind rolls no die (with the rule), when the kind
    alone says so; a Move rolls only when its terrain asks for a check."""
    match action:
        case Reload():
            return "a Reload is a Minor action with no roll (section 2)", "AEK-19"
        case Claim() | Swap():
            return (
                "a contested token goes to whoever resolves first, with no roll (section 5)",
                "AEK-17",
            )
        case Overwatch():
            return (
                "setting up Overwatch rolls nothing: it fires once per round in a later Fast "
                "Phase (section 7)",
                "AEK-14",
            )
        case Stand():
            return (
                '"Standing from Prone costs a Minor action", with no roll (section 5b)',
                "AEK-55",
            )
        case Move():
            return (
                "shifting bands rolls nothing unless the move enters Difficult Terrain (section 3)",
                "AEK-26",
            )
    return None


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


def _attack(
    state: State, dice: Dice, actor: Character, action: Attack, command: Resolve
) -> tuple[ev.Event, ...]:
    target = alive_target(state, action.target)
    weapon = actor.weapons[action.weapon]
    if not weapon.ranged and known_band(state, actor, target) != "engaged":
        raise RuleViolation(f"{target.name} is out of reach: a melee attack needs the Engaged band")
    surge = action.void_surge
    s = _strike(actor, target, action, "attack", command, running=action.running, void_surge=surge)
    return strike(state, dice, s)


def _charge(
    state: State, dice: Dice, actor: Character, action: Charge, command: Resolve
) -> tuple[ev.Event, ...]:
    """Near or Far -> Engaged; +2 first melee damage on that foe, -2 to defences until the
    next turn; the melee attack follows with ``charge_includes_attack`` (AEK-58)."""
    target = alive_target(state, action.target)
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
    mods = (command.attack_modifiers, command.defence_modifiers)
    held = movement.moved(
        state,
        actor,
        where,
        breakaway=True,
        slot="major",
        attack_modifiers=mods[0],
        defence_modifiers=mods[1],
    )
    events.extend(held)
    if any(isinstance(e, ev.BreakawayOpened) for e in held):
        return tuple(events)
    after = _fold(state, events)
    events.extend(arrive(after, dice, after.characters[actor.id], action, *mods))
    return tuple(events)


def _fold(state: State, events: list[ev.Event]) -> State:
    return fold(state, events)
