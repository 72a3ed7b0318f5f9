"""Reactions (section 2): one per round, refreshed when the round starts (AEK-A4),
committed in the Fast Phase in descending Initiative (AEK-14, AEK-A3).

Modifier reactions (Parry, Bonded Defence, Cover, High-Ground, Energy Hub, Ley-Node,
Heroic Burn) attach to a declared action and count when it resolves; immediate ones
resolve at once: Overwatch fire (``overwatch``), the Sprint Lane shift, the Void Slick
save, the Vent.  Breakaway free strikes (``breakaway``) are taken in the Slow Phase
before the move they answer completes (AEK-28), and the suppressed target's Dive or
Hunker Down is chosen right after the hit (AEK-57).
"""

from __future__ import annotations

from service.dice.model import Dice
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical import movement
from service.rulesets.aeonisk_tactical.commands import (
    BondedDefence,
    ChooseSuppression,
    HeroicBurn,
    OverwatchFire,
    Parry,
    React,
    Reaction,
    SpendToken,
)
from service.rulesets.aeonisk_tactical.fields import TOKEN_NAMES
from service.rulesets.aeonisk_tactical.overwatch import overwatch_fire
from service.rulesets.aeonisk_tactical.plan import Attack, Charge, Suppress, Task, is_movement
from service.rulesets.aeonisk_tactical.rolls import check
from service.rulesets.aeonisk_tactical.rules import (
    are_foes,
    is_init_zero,
    living,
    pending_action,
    ranks,
)
from service.rulesets.aeonisk_tactical.state import Character, Fast, Slow, State

_MODIFIER_TOKENS = ("cover", "high_ground", "energy_hub", "ley_node")


def react(state: State, command: React, dice: Dice) -> tuple[ev.Event, ...]:
    who = living(state, command.character)
    reaction = command.reaction
    _timing(state, who, reaction)
    if isinstance(reaction, HeroicBurn) and who.burned_round is not None:
        raise RuleViolation(
            f"Heroic Burn is once per combat, and {who.name} has already burned the Defence "
            "Token (section 4)"
        )
    if who.reaction_used:
        raise RuleViolation(
            f"{who.name} has already used their Reaction this round; it refreshes when the "
            "next round starts (section 2)"
        )
    if state.options.init0_blocks_reactions and is_init_zero(state, who):
        raise RuleViolation(f"{who.name} is at Initiative 0 and has no Reaction this round")
    dice.no_roll(_why_no_roll(reaction), rule="AEK-14")
    match reaction:
        case Parry():
            return _parry(state, who, reaction)
        case SpendToken():
            return _spend(state, dice, who, reaction)
        case BondedDefence():
            return _bonded(state, who, reaction)
        case HeroicBurn():
            return _burn(state, who)
        case OverwatchFire():
            return overwatch_fire(state, dice, who, reaction)


def _why_no_roll(reaction: Reaction) -> str:
    """Why a Reaction rolls nothing as it is taken: it changes a later roll, or none."""
    match reaction:
        case Parry():
            return (
                "a Parry is committed now and changes the defence of the attack it answers, "
                "when that attack resolves (section 4)"
            )
        case BondedDefence():
            return (
                "Bonded Defence adds +2 to the ally's defence when the attack resolves (section 8)"
            )
        case HeroicBurn():
            return "a Heroic Burn upgrades the Defence Token, with no roll (section 4)"
        case _:
            return "the Reaction rolls nothing as it is taken (section 1)"


def _timing(state: State, who: Character, reaction: Reaction) -> None:
    """The Fast Phase, in descending Initiative; with ``reaction_timing = interrupt``
    modifier reactions are also taken in the Slow Phase (AEK-A3)."""
    if isinstance(state.phase, Fast):
        rank = ranks(state)
        mine = rank.get(who.id, len(rank))
        later = [c for c in state.reacted if rank.get(c, len(rank)) > mine]
        if later:
            first = state.characters[later[0]].name
            raise RuleViolation(
                f"Reactions resolve in descending Initiative, and {first}, after {who.name} "
                "in the order, has already reacted (section 1)"
            )
        return
    interrupting = state.options.reaction_timing == "interrupt" and isinstance(state.phase, Slow)
    modifier = isinstance(reaction, Parry | BondedDefence | HeroicBurn) or (
        isinstance(reaction, SpendToken)
        and who.tactical is not None
        and who.tactical.kind in _MODIFIER_TOKENS
    )
    if not (interrupting and modifier):
        raise RuleViolation("Reactions are used in the Fast Phase (section 1)")


def _attacks_on(state: State, attacker: Character, target: Character) -> bool:
    """Whether ``attacker`` has a declared, unresolved attack on ``target``."""
    action = pending_action(state, attacker.id, "major")
    return isinstance(action, Attack | Charge | Suppress) and action.target == target.id


def _spend(state: State, dice: Dice, who: Character, spend: SpendToken) -> tuple[ev.Event, ...]:
    held = who.tactical
    if held is None:
        raise RuleViolation(f"{who.name} holds no Tactical Token")
    number = state.round or 0
    name = TOKEN_NAMES[held.kind]
    if held.claimed_round >= number:
        raise RuleViolation(
            f"the {name} token was claimed this round; it can be spent from the next round's "
            "Fast Phase (AEK-A14)"
        )
    spent = ev.TokenSpent(character=who.id, token=held.token, kind=held.kind, target=spend.target)
    match held.kind:
        case "cover" | "energy_hub":
            return (spent,)
        case "high_ground":
            major = pending_action(state, who.id, "major")
            if not isinstance(major, Attack | Charge | Suppress):
                raise RuleViolation(
                    f"High-Ground gives +2 to an attack roll, and {who.name} has no attack "
                    "declared this round"
                )
            return (spent,)
        case "ley_node":
            tasks = [pending_action(state, who.id, s) for s in ("major", "minor")]
            if not any(isinstance(t, Task) and t.task in ("ritual", "dreamwork") for t in tasks):
                raise RuleViolation(
                    f"a Ley-Node gives +2 to a Dreamwork or Ritual roll, and {who.name} has "
                    "none declared this round"
                )
            return (spent,)
        case "vent":
            label = state.tokens[held.token].label
            return (
                spent,
                ev.Obscured(by=who.id, label=label, until_round=number + spend.rounds - 1),
            )
        case "void_slick":
            return (spent, *_void_slick(state, dice, who, spend))
        case "sprint_lane":
            if spend.move is None or spend.move.bands != 1:
                raise RuleViolation(
                    "a Sprint Lane gives one extra band shift: give a move of 1 band"
                )
            where = movement.route(state, who, spend.move, 1)
            return (spent, *movement.moved(state, who, where, breakaway=True))


def _void_slick(
    state: State, dice: Dice, who: Character, spend: SpendToken
) -> tuple[ev.Event, ...]:
    """'Target an enemy moving through it with an Agility save (DC 20) or they fall
    prone' (AEK-48): Agility x Athletics + d20 (AEK-A17)."""
    if spend.target is None:
        raise RuleViolation("a Void Slick targets an enemy moving through it: name the target")
    target = living(state, spend.target)
    if not are_foes(who, target):
        raise RuleViolation(f"{target.name} is not an enemy of {who.name}")
    moves = [pending_action(state, target.id, s) for s in ("major", "minor")]
    if not any(is_movement(m) for m in moves):
        raise RuleViolation(f"{target.name} has no move declared this round to slip on")
    outcome, tiers, record = check(
        state,
        dice,
        target,
        label="Agility save against the Void Slick",
        attribute="agility",
        skill="athletics",
        dc=state.options.void_slick_dc,
    )
    saved = ev.CheckRolled(
        character=target.id, label="Void Slick save", outcome=outcome, tiers=tiers, rolls=(record,)
    )
    if outcome == "success":
        return (saved,)
    return (
        saved,
        ev.ProneChanged(character=target.id, prone=True, reason="slipped on the Void Slick"),
    )


def _bonded(state: State, who: Character, reaction: BondedDefence) -> tuple[ev.Event, ...]:
    ally = living(state, reaction.ally)
    if ally.id not in who.bonds:
        raise RuleViolation(f"{ally.name} is not Bonded to {who.name} (section 8)")
    attacker = living(state, reaction.attacker)
    if not _attacks_on(state, attacker, ally):
        raise RuleViolation(
            f"Bonded Defence answers an attack, and {attacker.name} has no attack on "
            f"{ally.name} still to resolve this round"
        )
    if any(b.ally == ally.id and b.attacker == attacker.id for b in state.bondings):
        raise RuleViolation(f"{ally.name} already has Bonded Defence against {attacker.name}")
    return (ev.BondedDefenceGiven(by=who.id, ally=ally.id, attacker=attacker.id),)


def _parry(state: State, who: Character, parry: Parry) -> tuple[ev.Event, ...]:
    """YAGS Parry (AEK-14, AEK-21, AEK-A3): attached to a foe's declared attack on the
    parrying character, it is that attack's defence roll when it resolves; its numbers
    come from the sheet's ``parry`` pairing or the command (AEK-A34)."""
    attacker = living(state, parry.attacker)
    if not are_foes(who, attacker):
        raise RuleViolation(f"{attacker.name} is not a foe of {who.name}")
    if not _attacks_on(state, attacker, who):
        raise RuleViolation(
            f"a Parry answers an attack, and {attacker.name} has no attack on {who.name} still "
            "to resolve this round"
        )
    major = pending_action(state, attacker.id, "major")
    if isinstance(major, Attack | Charge | Suppress):
        weapon = attacker.weapons.get(major.weapon)
        if weapon is not None and weapon.ranged and not state.options.parry_ranged:
            raise RuleViolation(
                f"a Parry turns aside a close-combat blow, and {attacker.name} attacks with "
                f"the {major.weapon}, a ranged weapon (YAGS; option parry_ranged)"
            )
    sheet = who.parry
    attribute = parry.attribute or (sheet.attribute if sheet else None)
    skill = parry.skill or (sheet.skill if sheet else None)
    if attribute is None or skill is None:
        raise RuleViolation(
            f"a Parry uses YAGS numbers the tactical text does not give: {who.name}'s sheet has "
            "no parry pairing, so name the attribute and skill"
        )
    if attribute not in who.attributes:
        raise RuleViolation(f"{who.name} has no attribute '{attribute}'")
    if skill not in who.skills and skill not in who.attributes:
        raise RuleViolation(f"{who.name} has no skill '{skill}'")
    return (
        ev.ParryCommitted(
            character=who.id,
            attacker=attacker.id,
            attribute=attribute,
            skill=skill,
            bonus=parry.bonus,
        ),
    )


def _burn(state: State, who: Character) -> tuple[ev.Event, ...]:
    """Heroic Burn as 'a reaction to being attacked' by the allocated foe (AEK-A12)."""
    if who.token_on is None:
        raise RuleViolation(f"{who.name} has no Defence Token allocated to burn")
    foe = state.characters[who.token_on]
    if not _attacks_on(state, foe, who):
        raise RuleViolation(
            f"a Heroic Burn reacts to being attacked, and {foe.name} (holding the token) has "
            f"no attack on {who.name} still to resolve"
        )
    return (ev.HeroicBurnMade(character=who.id, foe=foe.id, reaction=True),)


def choose_suppression(state: State, command: ChooseSuppression) -> tuple[ev.Event, ...]:
    """Dive (1 band away from the suppressor, losing a held Cover token, no Breakaway)
    or Hunker Down (-4 to attack and defence until the next turn): AEK-57, AEK-A23."""
    pending = state.suppressed
    who = living(state, command.character)
    if pending is None or pending.target != who.id:
        raise RuleViolation(f"{who.name} is not being suppressed")
    if command.choice == "hunker_down":
        return (ev.SuppressionChosen(character=who.id, choice="hunker_down"),)
    by = state.characters[pending.by]
    lost = who.tactical is not None and who.tactical.kind == "cover"
    chosen = ev.SuppressionChosen(character=who.id, choice="dive", lost_cover=lost)
    where = movement.away(state, who, by, command.zone)
    if where is None:
        return (chosen,)
    return (chosen, *movement.moved(state, who, where, breakaway=False))
