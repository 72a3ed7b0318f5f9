"""Declaring an attack and answering it: targets, commitment, Battle Lines, sieges.

- Legal target (3.1, AEC-03): enemy-controlled, contested or scenario-attackable, with at
  least one of the attacker's units adjacent.  The defender is the hex's controller, or
  for an uncontrolled hex the one other side with units in it.
- Commitment (3.2, AEC-04/05): the attacker commits units from adjacent hexes; every
  defending unit in the target hex is committed (AEC-A7) plus any the defender commits
  from adjacent hexes.  Committed units stay where they are.  A captured Lord cannot
  commit (2.1.4); a unit fights in one battle at a time.
- Lines (3.3, AEC-06/07): up to the cap (3, or 5 on a City/Fortress), Lords included;
  the attacker forms its line first, then the defender, both in the open (AEC-A6).
- Sieges (6.1, AEC-25): a Fortress always (a defence that declines is refused, not
  ignored); a City when the defender Holds the Walls, which it may decline.
  A later Attack action on a paused siege is a new siege round in which each side may
  add up to 3 units to its Reserves (6.4, AEC-28/A10).

This module declares the attack and the defence; ``commitment`` checks what each side
commits, its Battle Line, siege reinforcements and targets.
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat import commitment, hexes, reinforce
from service.rulesets.aeonis_combat.commands import Attack, Defend, SetTargets
from service.rulesets.aeonis_combat.events import (
    AttackDeclared,
    AttackRenewed,
    DefenceDeclared,
    Event,
    TargetsSet,
)
from service.rulesets.aeonis_combat.rules import (
    battle_at,
    battle_of_unit,
    ensure_action_phase,
    ensure_side_in_battle,
    hex_of,
    label,
    open_action,
    side_name,
    side_of,
    units_in,
)
from service.rulesets.aeonis_combat.state import LINE_CAP, Battle, Hex, State


def attack(state: State, command: Attack) -> tuple[Event, ...]:
    """``aeonis.attack``: a new battle, or the next round of a paused one."""
    side = side_of(state, command.side)
    ensure_action_phase(state, "An Attack action")
    ongoing = open_action(state)
    if ongoing is not None:
        raise RuleViolation(f"the Attack action at {ongoing[0]} is not finished yet")
    cost = state.options.attack_ap_cost
    if side.ap < cost:
        raise RuleViolation(
            f"{side.name} has {side.ap} AP and an Attack action costs {cost} AP (section 8.1)"
        )
    existing = state.battles.get(command.hex)
    if existing is not None:
        return _renew(state, command, existing, cost)
    return _declare(state, command, cost)


def _declare(state: State, command: Attack, cost: int) -> tuple[Event, ...]:
    target = hex_of(state, command.hex)
    name = side_name(state, command.side)
    if not (target.controller not in (None, command.side) or target.contested or target.attackable):
        raise RuleViolation(
            f"{command.hex} is not enemy-controlled, contested or attackable by scenario rules "
            "(section 3.1)"
        )
    around = set(hexes.neighbours(command.hex))
    if not any(u.side == command.side and u.hex in around for u in state.units.values()):
        raise RuleViolation(
            f"{name} has no unit in a hex adjacent to {command.hex}, so it cannot attack it "
            "(section 3.1)"
        )
    defender = _defender(state, command.side, command.hex, target)
    for unit_id in units_in(state, command.hex, defender):
        elsewhere = battle_of_unit(state, unit_id)
        if elsewhere is not None:
            raise RuleViolation(
                f"{label(state, unit_id)} in {command.hex} is committed to the battle at "
                f"{elsewhere}; a hex whose units fight elsewhere cannot be attacked until that "
                "battle ends (the text is silent; the GM may rule otherwise)"
            )
    if not command.commit:
        raise RuleViolation("an attack commits at least one unit from an adjacent hex (3.2)")
    commitment.check_commit(state, command.side, command.hex, command.commit)
    cap = LINE_CAP[target.kind]
    line = commitment.line(state, command.side, command.commit, command.line, cap, target)
    if command.assault:
        if not state.options.assault_variant:
            raise RuleViolation(
                "this encounter does not use the optional Assault variant (section 7; option "
                "assault_variant)"
            )
        if target.kind == "standard":
            raise RuleViolation("an Assault is declared against a City or Fortress (section 7)")
    return (
        AttackDeclared(
            hex=command.hex,
            side=command.side,
            defender=defender,
            cap=cap,
            siege=target.kind == "fortress" and not command.assault,
            assault=command.assault,
            line=line,
            reserves=tuple(u for u in command.commit if u not in line),
            ap_spent=cost,
            ap_after=state.sides[command.side].ap - cost,
        ),
    )


def _renew(state: State, command: Attack, battle: Battle, cost: int) -> tuple[Event, ...]:
    """Another Attack action against a paused battle: one more round (6.2, AEC-26)."""
    if battle.attacker != command.side:
        raise RuleViolation(
            f"{command.hex} is under attack by {side_name(state, battle.attacker)}; one battle "
            "per hex"
        )
    if command.line is not None:
        raise RuleViolation(
            "Battle Lines change only in Reinforce, when a line is under the cap (AEC-A8)"
        )
    if command.assault:
        raise RuleViolation("an Assault is declared instead of a siege, not during one (section 7)")
    added = commitment.reinforcements(state, command.side, command.hex, command.commit, battle)
    return (
        AttackRenewed(
            hex=command.hex,
            side=command.side,
            reinforcements=added,
            ap_spent=cost,
            ap_after=state.sides[command.side].ap - cost,
            step="defence" if battle.siege else "ready",
        ),
    )


def defend(state: State, command: Defend) -> tuple[Event, ...]:
    """``aeonis.defend``: the defender's commitment, line and Hold the Walls."""
    battle = battle_at(state, command.hex)
    ensure_side_in_battle(state, battle, command.side, command.hex)
    if command.side != battle.defender:
        raise RuleViolation(
            f"only the defender ({side_name(state, battle.defender)}) answers the attack on "
            f"{command.hex}"
        )
    if battle.step != "defence":
        raise RuleViolation(f"the defence of {command.hex} is not called for now")
    target = state.hexes[command.hex]
    siege = battle.siege
    if command.hold_the_walls is False and siege:
        raise RuleViolation(_walls_held(state, battle, command.hex, target))
    if command.hold_the_walls and not siege:
        if battle.rounds_fought:
            raise RuleViolation("Hold the Walls is declared when the attack is declared (6.1)")
        if battle.assault:
            raise RuleViolation(
                f"{side_name(state, battle.attacker)} declared an Assault instead of a siege: "
                "the walls cannot be held (section 7)"
            )
        if target.kind != "city":
            raise RuleViolation(
                f"Hold the Walls is declared on a City; {command.hex} is not one (6.1)"
            )
        siege = True
    if battle.rounds_fought:
        if command.line is not None:
            raise RuleViolation(
                "Battle Lines change only in Reinforce, when a line is under the cap (AEC-A8)"
            )
        reserves = commitment.reinforcements(
            state, command.side, command.hex, command.commit, battle
        )
        line: tuple[str, ...] = ()
    else:
        present = units_in(state, command.hex, command.side)
        for unit_id in command.commit:
            if unit_id in present:
                raise RuleViolation(
                    f"{label(state, unit_id)} is in {command.hex} and so committed already (3.2)"
                )
        commitment.check_commit(state, command.side, command.hex, command.commit)
        committed = (*present, *command.commit)
        line = commitment.line(state, command.side, committed, command.line, battle.cap, target)
        reserves = tuple(u for u in committed if u not in line)
    commitment.check_targets(
        state,
        battle,
        command.side,
        command.targets,
        enemy_line=reinforce.line_after(state, battle, battle.attacker),
        own=(*line, *reserves),
    )
    return (
        DefenceDeclared(
            hex=command.hex,
            side=command.side,
            line=line,
            reserves=reserves,
            siege=siege,
            targets=dict(command.targets),
        ),
    )


def set_targets(state: State, command: SetTargets) -> tuple[Event, ...]:
    battle = battle_at(state, command.hex)
    ensure_side_in_battle(state, battle, command.side, command.hex)
    enemy_line = reinforce.line_after(state, battle, battle.opponent(command.side))
    commitment.check_targets(state, battle, command.side, command.targets, enemy_line=enemy_line)
    return (TargetsSet(hex=command.hex, side=command.side, targets=dict(command.targets)),)


def _walls_held(state: State, battle: Battle, hex_key: str, target: Hex) -> str:
    """Why a defence cannot decline Hold the Walls once the battle is a siege."""
    if target.kind == "fortress":
        return (
            f"{hex_key} is a Fortress: the battle is automatically a Siege and the defender "
            "is assumed to Hold the Walls (section 6.1); it cannot decline"
        )
    return (
        f"{side_name(state, battle.defender)} held the walls of {hex_key} when the attack was "
        "declared: the Siege marker remains until the siege is lifted or the defender is "
        "defeated (sections 6.1, 6.2)"
    )


def _defender(state: State, side: str, hex_key: str, target: Hex) -> str:
    if target.controller is not None and target.controller != side:
        return target.controller
    others = sorted({state.units[u].side for u in units_in(state, hex_key)} - {side})
    if len(others) == 1:
        return others[0]
    if not others:
        raise RuleViolation(
            f"no other side holds or has units in {hex_key}: there is no one to fight"
        )
    raise RuleViolation(f"several sides have units in {hex_key}; the GM sets its control first")
