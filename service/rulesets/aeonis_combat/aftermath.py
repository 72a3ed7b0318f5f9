"""The end of a battle round and of an Attack action: Retreat Check, Press the Attack,
pausing, lifting a siege, and occupation after a victory.

- Retreat Check (4.4, AEC-20/21, AEC-A16): the attacker decides first; its retreat ends
  the battle and the defender holds (5.2).  Then the defender, only on a standard hex
  (or with a GM ruling for a card, spell or motion), only into an adjacent hex it
  controls, and never during an Assault; when it cannot retreat it is not asked, and a
  retreat it sends anyway is refused with the reason (for no adjacent hex it controls:
  "if none, defender cannot retreat").  A defender retreat takes its line and the
  Reserves inside the hex along (AEC-A4).
- After both stood, the battle goes on: the attacker Presses the Attack (+1 AP, once per
  Attack action, AEC-16/A14), ends the Attack action (the battle pauses, AEC-15/A1) or,
  in a siege, lifts the siege (6.3).  In an Assault the next round follows at no cost
  until victory or retreat (7).
- Victory: the attacker picks up to the cap of its surviving committed units to occupy
  the hex (5.1, AEC-23, AEC-29).
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat import hexes
from service.rulesets.aeonis_combat.commands import (
    EndAttack,
    LiftSiege,
    Occupy,
    Press,
    Retreat,
    Stand,
)
from service.rulesets.aeonis_combat.commitment import reinforcements
from service.rulesets.aeonis_combat.events import (
    AttackActionEnded,
    BattleEnded,
    Event,
    HexOccupied,
    Pressed,
    Retreated,
    Stood,
)
from service.rulesets.aeonis_combat.rules import (
    battle_at,
    ensure_attacker,
    ensure_side_in_battle,
    label,
    no_duplicates,
    restored,
    side_name,
    won,
)
from service.rulesets.aeonis_combat.state import Battle, State, Step


def retreat(state: State, command: Retreat) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_side_in_battle(state, battle, command.side, command.hex)
    if command.side == battle.attacker:
        _at_check(battle, "attacker_retreat", command.hex)
        if command.to is not None:
            raise RuleViolation(
                "a retreating attacker's units remain in their origin hexes (section 4.4)"
            )
        return (
            Retreated(hex=command.hex, side=command.side),
            BattleEnded(hex=command.hex, outcome="defender_held", healed=restored(state, battle)),
        )
    _defender_may_retreat(state, battle, command.hex)
    _at_check(battle, "defender_retreat", command.hex)
    to = command.to
    if to is None or not hexes.adjacent(to, command.hex) or _controller(state, to) != command.side:
        raise RuleViolation(
            f"{side_name(state, command.side)} retreats only into an adjacent hex it controls "
            f"(section 4.4); {to or 'no hex'} is not one"
        )
    moved = (
        *battle.defender_line,
        *(u for u in battle.defender_reserves if state.units[u].hex == command.hex),
    )
    retreated = Retreated(hex=command.hex, side=command.side, to=to, moved=moved)
    if state.options.defender_retreat_result == "gm":
        why = "the defender retreated; the GM rules on control (defender_retreat_result = gm)"
        ended = BattleEnded(
            hex=command.hex,
            outcome="defender_retreated",
            healed=restored(state, battle),
            reason=why,
        )
        return (retreated, ended)
    return (retreated, won(battle, command.hex))


def stand(state: State, command: Stand) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_side_in_battle(state, battle, command.side, command.hex)
    if command.side == battle.attacker:
        _at_check(battle, "attacker_retreat", command.hex)
        step: Step = (
            "defender_retreat"
            if can_defender_retreat(state, battle, command.hex)
            else _goes_on(battle)
        )
    else:
        _at_check(battle, "defender_retreat", command.hex)
        step = _goes_on(battle)
    return (Stood(hex=command.hex, side=command.side, step=step),)


def press(state: State, command: Press) -> tuple[Event, ...]:
    battle = state.battles.get(command.hex)
    how = state.decided.get(command.hex)
    if how is not None and (battle is None or battle.step == "occupation"):
        raise RuleViolation(
            f"the battle at {command.hex} is decided ({how}): Press the Attack resolves one "
            "more round of a battle still being fought (section 4.0)",
            rule="AEC-16",
        )
    battle = battle_at(state, command.hex)
    ensure_attacker(state, battle, command.side, command.hex, "Press the Attack")
    if battle.pressed:
        raise RuleViolation(
            "Press the Attack is allowed at most once per Attack action (section 4.0)"
        )
    _at_choice(battle, command.hex, "Press the Attack")
    if battle.siege and not state.options.press_allowed_in_siege:
        raise RuleViolation("this encounter does not allow Press the Attack in a siege (AEC-A5)")
    side = state.sides[command.side]
    cost = state.options.press_ap_cost
    if side.ap < cost:
        raise RuleViolation(
            f"{side.name} has {side.ap} AP and Press the Attack costs {cost} AP (section 4.0)"
        )
    added = reinforcements(state, command.side, command.hex, command.commit, battle)
    return (
        Pressed(
            hex=command.hex,
            side=command.side,
            ap_spent=cost,
            ap_after=side.ap - cost,
            reinforcements=added,
            step="defence" if battle.siege else "ready",
        ),
    )


def end_attack(state: State, command: EndAttack) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_attacker(state, battle, command.side, command.hex, "end the Attack action")
    _at_choice(battle, command.hex, "The Attack action")
    if battle.siege or state.options.standard_battle_persistence == "paused":
        return (AttackActionEnded(hex=command.hex),)
    return (BattleEnded(hex=command.hex, outcome="dissolved", healed=restored(state, battle)),)


def lift_siege(state: State, command: LiftSiege) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_attacker(state, battle, command.side, command.hex, "lift the siege")
    if not battle.siege:
        raise RuleViolation(f"there is no siege at {command.hex} to lift (section 6.3)")
    _at_choice(battle, command.hex, "Lifting the siege")
    return (BattleEnded(hex=command.hex, outcome="siege_lifted", healed=restored(state, battle)),)


def occupy(state: State, command: Occupy) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_attacker(state, battle, command.side, command.hex, "occupy the hex")
    if battle.step != "occupation":
        raise RuleViolation(f"{command.hex} is occupied only after a successful attack (5.1)")
    no_duplicates(command.units, "the occupying units")
    survivors = battle.committed(battle.attacker)
    for unit_id in command.units:
        if unit_id not in survivors:
            raise RuleViolation(
                f"{label(state, unit_id)} is not a surviving committed unit of this attack (5.1)"
            )
    if len(command.units) > battle.cap:
        raise RuleViolation(
            f"up to the Battle Line Cap of {battle.cap} units occupy {command.hex} (section 5.1); "
            f"{len(command.units)} given"
        )
    return (
        HexOccupied(
            hex=command.hex,
            side=command.side,
            units=command.units,
            healed=restored(state, battle),
        ),
    )


def can_defender_retreat(state: State, battle: Battle, hex_key: str) -> bool:
    try:
        _defender_may_retreat(state, battle, hex_key)
    except RuleViolation:
        return False
    return True


def _defender_may_retreat(state: State, battle: Battle, hex_key: str) -> None:
    """Why the defender cannot retreat from ``hex_key`` at all, whatever the step: the
    Retreat Check skips a defender who cannot, and its refusal gives this reason."""
    if battle.assault:
        raise RuleViolation("defenders cannot retreat during an Assault (section 7)")
    kind = state.hexes[hex_key].kind
    if kind != "standard" and not battle.retreat_allowed:
        raise RuleViolation(
            f"defenders cannot retreat from a {kind.title()} (section 4.4) unless a card, "
            "spell or motion allows it"
        )
    if not any(_controller(state, h) == battle.defender for h in hexes.neighbours(hex_key)):
        raise RuleViolation(
            f"{side_name(state, battle.defender)} controls no hex adjacent to {hex_key}, so "
            "it cannot retreat (section 4.4: the defender's Battle Line units move to an "
            "adjacent hex they control; if none, defender cannot retreat)"
        )


def _controller(state: State, hex_key: str) -> str | None:
    found = state.hexes.get(hex_key)
    return found.controller if found else None


def _goes_on(battle: Battle) -> Step:
    """Nobody retreated and both sides have units: an Assault fights on, otherwise the
    attacker chooses what happens to the Attack action."""
    return "ready" if battle.assault else "choice"


def _at_check(battle: Battle, step: Step, hex_key: str) -> None:
    if battle.step == step:
        return
    if step == "defender_retreat" and battle.step == "attacker_retreat":
        raise RuleViolation("at the Retreat Check the attacker decides first (section 4.4)")
    if step == "attacker_retreat" and battle.step == "defender_retreat":
        raise RuleViolation("the attacker has already stood at this Retreat Check")
    raise RuleViolation(f"there is no Retreat Check at {hex_key} now: it ends a battle round (4.4)")


def _at_choice(battle: Battle, hex_key: str, what: str) -> None:
    if battle.step != "choice":
        raise RuleViolation(
            f"{what} comes at the end of a battle round at {hex_key}, after the Retreat Check, "
            "with both sides still in the fight (sections 4.0, 6.3)"
        )
