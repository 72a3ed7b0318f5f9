"""The Declare Phase (section 1, section 2, section 4): who declares when, and what.

Declarations go in ascending Initiative (the reverse of resolution order, so the
tie-break loser declares first: AEK-A8).  Nothing is rolled or resolved (AEK-13), but
what the rules forbid outright is refused now: a second Major or Minor (the command has
one slot each), a Charge from Engaged, Suppress without Rate of Fire 3, a Void Surge at
Void 8, a burned Defence Token, a claim on a token already held.  A declaration made
again, or outside the Declare Phase, is refused by ``late`` with the rule it breaks.
Void Surge, a Free Action, may also join a declared attack later, until its roll.
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.charge import surge_backlash
from service.rulesets.aeonisk_tactical.commands import Declare, VoidSurge
from service.rulesets.aeonisk_tactical.fields import TOKEN_NAMES, VOID_SURGE_LIMIT
from service.rulesets.aeonisk_tactical.initiative import forfeit_reroll
from service.rulesets.aeonisk_tactical.late import refuse_late
from service.rulesets.aeonisk_tactical.movement import away, budget_of, route
from service.rulesets.aeonisk_tactical.plan import (
    AnyAction,
    Attack,
    BondRally,
    Charge,
    Claim,
    Declaration,
    Disengage,
    Move,
    Overwatch,
    Reload,
    Stand,
    Suppress,
    Swap,
    Task,
)
from service.rulesets.aeonisk_tactical.rules import (
    are_foes,
    character,
    known_band,
    living,
    resolution_order,
    still_rolling,
)
from service.rulesets.aeonisk_tactical.state import Character, Declaring, State, Weapon


def declare(state: State, command: Declare, dice: Dice) -> tuple[ev.Event, ...]:
    dice.no_roll(
        'declarations state the Major and Minor actions: "No rolls are made or effects '
        'resolved" in the Declare Phase (section 1)',
        rule="AEK-13",
    )
    who = living(state, command.character)
    if not isinstance(state.phase, Declaring) or who.id in state.declarations:
        refuse_late(state, who, command)
    rolling = still_rolling(state)
    if rolling:
        names = ", ".join(c.name for c in rolling)
        raise RuleViolation(
            f"Initiative is still being rolled ({names} to roll): declarations go in "
            "ascending Initiative once every die has landed (section 1)"
        )
    if who.initiative is None:
        raise RuleViolation(f"{who.name} has no Initiative this round and joins next round")
    turn = next(c for c in reversed(resolution_order(state)) if c.id not in state.declarations)
    if turn.id != who.id:
        raise RuleViolation(
            f"it is {turn.name}'s turn to declare (Initiative {turn.initiative}): "
            "declarations go in ascending Initiative (section 1)"
        )
    _token(state, who, command)
    if command.forfeit and (command.major is not None or command.minor is not None):
        raise RuleViolation(
            f"{who.name} forfeits the turn to re-roll Initiative, so declares no Major or "
            "Minor action (section 1)"
        )
    if command.defence == "full":
        if state.options.full_defence_bonus is None:
            raise RuleViolation(
                "full defence needs the YAGS-core full-defence bonus, which the tactical "
                "text does not give: the GM sets full_defence_bonus for the encounter"
            )
        if command.major is not None:
            raise RuleViolation(
                f"{who.name} cannot full-defend and take a Major action: full defence is "
                "all the character does (YAGS core)"
            )
    if command.defence == "static" and who.static_defence is None:
        raise RuleViolation(f"{who.name} has no static Defence on the sheet")
    if command.major is not None:
        _action(state, who, command.major, "major")
    if command.minor is not None:
        _action(state, who, command.minor, "minor")
    declaration = Declaration(
        character=who.id,
        major=command.major,
        minor=command.minor,
        minor_first=command.minor_first,
        defence_token=command.defence_token,
        heroic_burn=command.heroic_burn,
        defence=command.defence,
        forfeit=command.forfeit,
        stance=command.stance,
    )
    events: list[ev.Event] = [ev.Declared(declaration=declaration)]
    if isinstance(command.major, Attack | Charge) and command.major.void_surge:
        events.append(surge_backlash(who))
    if command.forfeit:
        events.append(forfeit_reroll(state, dice, who))
    return tuple(events)


def void_surge(state: State, command: VoidSurge) -> tuple[ev.Event, ...]:
    """Void Surge, a Free Action declared before an attack roll (section 8, AEK-63,
    AEK-A26): it joins the character's declared attack until that attack is rolled."""
    who = living(state, command.character)
    declared = state.declared(who.id, "major")
    if not isinstance(declared, Attack | Charge):
        raise RuleViolation(
            f"Void Surge is declared before an attack roll (section 8), and {who.name} has no "
            "attack declared this round"
        )
    if f"{who.id}:major" in state.resolved:
        raise RuleViolation(
            f"Void Surge must be declared before the attack roll (section 8), and {who.name}'s "
            "attack has been rolled"
        )
    if declared.void_surge:
        raise RuleViolation(f"{who.name}'s declared attack already carries a Void Surge")
    _surge(who)
    return (ev.VoidSurgeDeclared(character=who.id), surge_backlash(who))


def _token(state: State, who: Character, command: Declare) -> None:
    """Defence Token allocation (AEK-31..37)."""
    if command.defence_token is None:
        if command.heroic_burn:
            raise RuleViolation("a Heroic Burn upgrades an allocated Defence Token: allocate it")
        return
    if not who.pc and not state.options.defence_tokens_for_npcs:
        raise RuleViolation("NPCs have no Defence Token in this encounter")
    if command.heroic_burn and who.burned_round is not None:
        raise RuleViolation(
            f"Heroic Burn is once per combat, and {who.name} has already burned the Defence "
            "Token (section 4)"
        )
    if who.burned_round is not None:
        raise RuleViolation(
            f"{who.name}'s Defence Token is burned and does not refresh for the remainder "
            "of the combat (section 4)"
        )
    foe = living(state, command.defence_token)
    if not are_foes(who, foe):
        raise RuleViolation(
            f"the Defence Token goes on a visible foe, and {foe.name} is on {who.name}'s side"
        )


def _action(state: State, who: Character, action: AnyAction, slot: str) -> None:
    match action:
        case Attack():
            _target(state, who, action.target)
            weapon = _weapon(who, action.weapon)
            _traits(who, action.attribute, action.skill)
            if action.running and not weapon.ranged:
                raise RuleViolation("'running while shooting' needs a ranged weapon (section 6)")
            if action.void_surge:
                _surge(who)
        case Charge():
            target = _target(state, who, action.target)
            weapon = _weapon(who, action.weapon)
            _traits(who, action.attribute, action.skill)
            if state.options.charge_includes_attack and weapon.ranged:
                raise RuleViolation("a Charge ends in a melee attack: name a melee weapon")
            current = known_band(state, who, target)
            if current not in ("near", "far"):
                raise RuleViolation(
                    f"a Charge must start in the Near or Far band, and {who.name} is "
                    f"{current} to {target.name} (section 7)"
                )
            if action.void_surge:
                _surge(who)
        case Suppress():
            _target(state, who, action.target)
            weapon = _weapon(who, action.weapon)
            _traits(who, action.attribute, action.skill)
            if weapon.rate_of_fire < 3:
                raise RuleViolation(
                    f"Suppress needs a weapon with Rate of Fire 3 or more; {action.weapon} has "
                    f"{weapon.rate_of_fire} (section 7)"
                )
        case Move():
            route(state, who, action, budget_of(slot))
        case Task():
            _traits(who, action.attribute, action.skill)
        case Reload():
            _weapon(who, action.weapon)
        case Claim() | Swap():
            _claim(state, who, action)
        case Overwatch():
            weapon = _weapon(who, action.weapon)
            _traits(who, action.attribute, action.skill)
            if not weapon.ranged:
                raise RuleViolation("Overwatch fires a ranged attack: name a ranged weapon")
        case Stand():
            if not who.prone:
                raise RuleViolation(f"{who.name} is not Prone")
        case Disengage():
            foe = _target(state, who, action.foe)
            if known_band(state, who, foe) != "engaged":
                raise RuleViolation(
                    f"Disengage: {who.name} must currently be Engaged with {foe.name} (section 7)"
                )
            away(state, who, foe, action.zone)
        case BondRally():
            ally = living(state, action.ally)
            if ally.id not in who.bonds:
                raise RuleViolation(f"{ally.name} is not Bonded to {who.name} (section 8)")


def _target(state: State, who: Character, target_id: str) -> Character:
    target = living(state, target_id)
    if target.id == who.id:
        raise RuleViolation(f"{who.name} cannot target themself")
    return target


def _weapon(who: Character, name: str) -> Weapon:
    found = who.weapons.get(name)
    if found is None:
        known = ", ".join(who.weapons) or "none"
        raise RuleViolation(f"{who.name} has no weapon '{name}' (weapons: {known})")
    return found


def _traits(who: Character, attribute: str, skill: str) -> None:
    if attribute not in who.attributes:
        raise RuleViolation(f"{who.name} has no attribute '{attribute}'")
    if skill not in who.skills:
        raise RuleViolation(f"{who.name} has no skill '{skill}'")


def _surge(who: Character) -> None:
    if who.void > VOID_SURGE_LIMIT:
        raise RuleViolation(
            f"Void Surge is locked at Void 8 or more, and {who.name} has Void {who.void} "
            "(section 8)"
        )


def _claim(state: State, who: Character, action: Claim | Swap) -> None:
    token = state.tokens.get(action.token)
    if token is None:
        raise RuleViolation(f"there is no Tactical Token '{action.token}' on the table")
    if token.holder is not None:
        holder = character(state, token.holder)
        raise RuleViolation(f"the {TOKEN_NAMES[token.kind]} token is already held by {holder.name}")
    if isinstance(action, Claim) and who.tactical is not None:
        raise RuleViolation(
            f"only one Tactical Token can be active per character at a time, and {who.name} "
            "holds one: Swap it (section 5)"
        )
    if isinstance(action, Swap) and who.tactical is None:
        raise RuleViolation(f"{who.name} holds no Tactical Token to swap: Claim one")
