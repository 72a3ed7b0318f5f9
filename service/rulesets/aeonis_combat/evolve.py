"""``evolve``: apply one event to the state.

Events are facts ``decide`` already checked, so nothing here validates or applies a rule:
every number (hp after a strike, AP after paying, the next step) is copied from the
event.  Each case builds new values; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import assert_never

from msgspec.structs import replace

from service.rulesets.aeonis_combat.events import (
    AttackActionEnded,
    AttackDeclared,
    AttackRenewed,
    BattleEnded,
    BattleRoundFought,
    BattleWon,
    CleanupDone,
    DefenceDeclared,
    Event,
    HexesAdded,
    HexOccupied,
    HexSet,
    LordAbilitiesSet,
    LordAbilityUsed,
    LordCaptured,
    LordHealed,
    LordReleased,
    Pressed,
    ReinforceChosen,
    RetreatAllowed,
    Retreated,
    RoundStarted,
    SideAdded,
    SideValueSet,
    Stood,
    TargetsSet,
    UnitHpSet,
    UnitRemoved,
    UnitsAdded,
    UnitsMoved,
)
from service.rulesets.aeonis_combat.state import Battle, Hex, Side, State, Unit, max_hp


def evolve(state: State, event: Event) -> State:
    """The state after ``event``."""
    match event:
        case HexesAdded():
            return replace(state, hexes={**state.hexes, **event.hexes})
        case SideAdded():
            side = Side(
                name=event.name,
                ap=event.ap,
                renown=event.renown,
                vp=event.vp,
                home_city=event.home_city,
                lord=event.lord,
                sheet=event.sheet,
            )
            lord = Unit(side=event.side, kind="lord", hex=event.lord_hex, hp=event.sheet.hp)
            return replace(
                state,
                sides={**state.sides, event.side: side},
                units={**state.units, event.lord: lord},
            )
        case UnitsAdded():
            added = {
                u.id: Unit(side=event.side, kind=u.kind, hex=event.hex, hp=u.hp)
                for u in event.units
            }
            return replace(state, units={**state.units, **added})
        case UnitsMoved():
            units = _units(state, event.units, lambda u: replace(u, hex=event.to))
            moved = replace(state, units=units)
            return replace(moved, battles=_without(moved.battles, event.left_battle))
        case RoundStarted():
            sides = {
                k: replace(s, ap=event.ap.get(k, s.ap), abilities_used={})
                for k, s in state.sides.items()
            }
            return replace(state, round=event.round, stage="action", sides=sides)
        case LordHealed():
            return replace(
                state, units=_units(state, (event.lord,), lambda u: replace(u, hp=event.hp))
            )
        case LordReleased():
            lord = replace(state.units[event.lord], hex=event.hex, hp=event.hp)
            owner = lord.side
            side = replace(state.sides[owner], lord_captured_by=None)
            return replace(
                state,
                units={**state.units, event.lord: lord},
                sides={**state.sides, owner: side},
            )
        case CleanupDone():
            return replace(state, stage="cleanup")
        case AttackDeclared():
            battle = Battle(
                attacker=event.side,
                defender=event.defender,
                cap=event.cap,
                siege=event.siege,
                assault=event.assault,
                step="defence",
                attacker_line=event.line,
                attacker_reserves=event.reserves,
            )
            paid = _side(state, event.side, lambda s: replace(s, ap=event.ap_after))
            decided = {k: v for k, v in state.decided.items() if k != event.hex}
            return replace(paid, battles={**state.battles, event.hex: battle}, decided=decided)
        case AttackRenewed():
            paid = _side(state, event.side, lambda s: replace(s, ap=event.ap_after))
            return _battle(
                paid,
                event.hex,
                lambda b: replace(
                    b,
                    attacker_reserves=(*b.attacker_reserves, *event.reinforcements),
                    step=event.step,
                    pressed=False,
                ),
            )
        case DefenceDeclared():
            return _battle(
                state,
                event.hex,
                lambda b: replace(
                    b,
                    defender_line=(*b.defender_line, *event.line),
                    defender_reserves=(*b.defender_reserves, *event.reserves),
                    siege=event.siege,
                    targets={**b.targets, **event.targets},
                    step="ready",
                ),
            )
        case TargetsSet():
            return _battle(
                state, event.hex, lambda b: replace(b, targets={**b.targets, **event.targets})
            )
        case ReinforceChosen():
            return _battle(
                state,
                event.hex,
                lambda b: replace(b, reinforce={**b.reinforce, event.side: event.promote}),
            )
        case BattleRoundFought():
            return _round_fought(state, event)
        case LordCaptured():
            lord = replace(state.units[event.lord], hex=None, hp=0)
            loser, captor = state.sides[lord.side], state.sides[event.by]
            sides = {
                **state.sides,
                lord.side: replace(loser, lord_captured_by=event.by),
                event.by: replace(captor, renown=event.renown_after, vp=event.vp_after),
            }
            # BattleRoundFought.captured took the Lord off its battle already.
            return replace(state, units={**state.units, event.lord: lord}, sides=sides)
        case Retreated():
            if not event.moved or event.to is None:
                return state
            to = event.to
            units = _units(state, event.moved, lambda u: replace(u, hex=to))
            return replace(state, units=units, battles=_without(state.battles, event.moved))
        case Stood():
            return _battle(state, event.hex, lambda b: replace(b, step=event.step))
        case Pressed():
            paid = _side(state, event.side, lambda s: replace(s, ap=event.ap_after))
            return _battle(
                paid,
                event.hex,
                lambda b: replace(
                    b,
                    attacker_reserves=(*b.attacker_reserves, *event.reinforcements),
                    pressed=True,
                    step=event.step,
                ),
            )
        case AttackActionEnded():
            return _battle(
                state,
                event.hex,
                lambda b: replace(b, step="paused", pressed=False),
            )
        case BattleWon():
            winner = state.sides.get(event.side)
            how = f"{winner.name if winner else event.side} won it"
            won = _hex(
                replace(state, decided={**state.decided, event.hex: how}),
                event.hex,
                lambda h: replace(h, controller=event.side, contested=False),
            )
            return _battle(
                won,
                event.hex,
                lambda b: replace(b, step="occupation", siege=b.siege and not event.siege_removed),
            )
        case HexOccupied():
            into = event.hex
            occupied = _units(state, event.units, lambda u: replace(u, hex=into))
            return _battle_over(replace(state, units=occupied), event.hex, event.healed)
        case BattleEnded():
            how = _DECIDED[event.outcome]
            ended = replace(state, decided={**state.decided, event.hex: how})
            return _battle_over(ended, event.hex, event.healed)
        case SideValueSet():
            change = {event.field: event.value}  # ap, renown or vp
            return _side(state, event.side, lambda s: replace(s, **change))
        case UnitHpSet():
            return replace(
                state, units=_units(state, (event.unit,), lambda u: replace(u, hp=event.hp))
            )
        case UnitRemoved():
            units = {k: u for k, u in state.units.items() if k != event.unit}
            return replace(state, units=units, battles=_without(state.battles, (event.unit,)))
        case HexSet():
            return _hex(
                state,
                event.hex,
                lambda h: replace(
                    h,
                    controller=event.controller,
                    contested=event.contested,
                    attackable=event.attackable,
                ),
            )
        case RetreatAllowed():
            return _battle(state, event.hex, lambda b: replace(b, retreat_allowed=True))
        case LordAbilityUsed():
            return _side(
                state,
                event.side,
                lambda s: replace(
                    s, abilities_used={**s.abilities_used, event.ability: event.uses}
                ),
            )
        case LordAbilitiesSet():
            return _side(
                state,
                event.side,
                lambda s: replace(s, sheet=replace(s.sheet, abilities=event.abilities)),
            )
        case _:
            assert_never(event)


def _round_fought(state: State, event: BattleRoundFought) -> State:
    battle = state.battles[event.hex]
    for side, promoted in event.promoted.items():
        line = (*battle.line(side), *promoted)
        reserves = tuple(u for u in battle.reserves(side) if u not in promoted)
        if side == battle.attacker:
            battle = replace(battle, attacker_line=line, attacker_reserves=reserves)
        else:
            battle = replace(battle, defender_line=line, defender_reserves=reserves)
    battle = replace(battle, rounds_fought=event.number, step="attacker_retreat", reinforce={})
    fallen = (*event.destroyed, *event.captured)
    if fallen:  # a unit fights in one battle at a time: only this one loses them
        battle = _strip(battle, set(fallen))
    units = dict(state.units)
    for strike in event.strikes:
        units[strike.target] = replace(units[strike.target], hp=strike.target_hp)
    for gone in event.destroyed:
        del units[gone]
    return replace(state, units=units, battles={**state.battles, event.hex: battle})


_DECIDED = {
    "defender_held": "the defender held",
    "dissolved": "it ended for now and the commitments dissolved",
    "siege_lifted": "the siege was lifted",
    "siege_ended": "it ended with the siege",
    "defender_retreated": "the defender retreated",
    "ruling": "the defender held, by GM ruling",
}
"""How a battle that ended without a change of control was decided, by its outcome."""


def _battle_over(state: State, hex_key: str, healed: tuple[str, ...]) -> State:
    units = _units(state, healed, lambda u: replace(u, hp=max_hp(state, u)))
    battles = {k: b for k, b in state.battles.items() if k != hex_key}
    return replace(state, units=units, battles=battles)


def _without(battles: dict[str, Battle], gone: Collection[str]) -> dict[str, Battle]:
    """The battles with ``gone`` units taken off every line, reserve and target list."""
    if not gone:
        return battles
    gone = set(gone)
    return {key: _strip(b, gone) for key, b in battles.items()}


def _strip(battle: Battle, gone: Collection[str]) -> Battle:
    """``battle`` with ``gone`` units taken off its lines, reserves and targets."""

    def keep(units: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(u for u in units if u not in gone)

    return replace(
        battle,
        attacker_line=keep(battle.attacker_line),
        attacker_reserves=keep(battle.attacker_reserves),
        defender_line=keep(battle.defender_line),
        defender_reserves=keep(battle.defender_reserves),
        targets={s: t for s, t in battle.targets.items() if s not in gone and t not in gone},
        reinforce={s: keep(chosen) for s, chosen in battle.reinforce.items()},
    )


def _units(state: State, ids: Collection[str], change: Callable[[Unit], Unit]) -> dict[str, Unit]:
    if not ids:
        return state.units
    units = dict(state.units)
    for unit_id in ids:
        units[unit_id] = change(units[unit_id])
    return units


def _side(state: State, side_id: str, change: Callable[[Side], Side]) -> State:
    return replace(state, sides={**state.sides, side_id: change(state.sides[side_id])})


def _hex(state: State, hex_key: str, change: Callable[[Hex], Hex]) -> State:
    return replace(state, hexes={**state.hexes, hex_key: change(state.hexes[hex_key])})


def _battle(state: State, hex_key: str, change: Callable[[Battle], Battle]) -> State:
    return replace(state, battles={**state.battles, hex_key: change(state.battles[hex_key])})
