"""Turns: starting the next combatant's turn (and round) and ending a turn, with its
persistent damage and the conditions that count down (SCF-A4)."""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.action_helpers import no_pending
from service.rulesets.scentfinder.commands import EndTurn
from service.rulesets.scentfinder.events import Tick
from service.rulesets.scentfinder.rules import Builder, combatant, next_up
from service.rulesets.scentfinder.state import State


def start_next_turn(b: Builder) -> None:
    """The next combatant's turn starts, opening a new round when everyone has acted."""
    who = next_up(b.state)
    if who is None:
        b.emit(ev.RoundStarted(round=b.state.round + 1))
        who = next_up(b.state)
        if who is None:
            return
    expiring = ["start_of_turn", "attack_or_start_of_turn"]
    expired = tuple(c.id for c in who.conditions if c.expiry in expiring)
    b.emit(
        ev.TurnStarted(
            combatant=who.id,
            round=b.state.round,
            phase=who.phase or 4,
            actions=max(0, 3 - (who.dd_action_loss if who.deaths_door else 0))
            + (who.actions if b.state.options.carry_over else 0),
            reaction=1 + (who.reaction if b.state.options.carry_over else 0),
            expired=expired,
        )
    )


def end_turn(state: State, command: EndTurn) -> tuple[ev.Event, ...]:
    who = combatant(state, command.combatant)
    if state.current != who.id:
        raise RuleViolation(f"It is not {who.name}'s turn")
    no_pending(state)
    decrement = state.options.persistent_decrement
    damage = sum(who.persistent)
    after = tuple(v - decrement for v in who.persistent if v - decrement > 0)
    ticked: list[Tick] = []
    skipped: list[str] = []
    dissipated: list[str] = []
    by_source = state.options.duration_tick == "source"
    others: list[ev.Event] = []
    for c in who.conditions:
        if c.expiry == "end_of_turn":
            dissipated.append(c.id)
        elif c.expiry == "turns" and c.remaining is not None:
            if by_source and c.source not in (None, who.id):
                continue  # counted down at the end of its source's turn (SCF-A4)
            if c.skips > 0:
                skipped.append(c.id)
            elif c.remaining - 1 <= 0:
                dissipated.append(c.id)
            else:
                ticked.append(Tick(condition=c.id, remaining=c.remaining - 1))
    if by_source:
        others = list(_tick_sourced(state, who.id))
    minions = tuple(
        m.id for m in state.combatants.values() if m.minion_of == who.id and m.granted > 0
    )
    b = Builder(state)
    b.emit(
        ev.TurnEnded(
            combatant=who.id,
            persistent_damage=damage,
            hp_after=who.hp - damage,
            persistent_after=after,
            ticked=tuple(ticked),
            skipped=tuple(skipped),
            dissipated=tuple(dissipated),
            minions_lost=minions,
        )
    )
    b.emit(*others)
    start_next_turn(b)
    return b.done()


def _tick_sourced(state: State, source: str) -> list[ev.Event]:
    """SCF-A4 with ``duration_tick = source``: effects a creature caused on others count
    down at the end of the source's turn."""
    out: list[ev.Event] = []
    for bearer in state.combatants.values():
        if bearer.id == source:
            continue
        for c in bearer.conditions:
            if c.expiry != "turns" or c.remaining is None or c.source != source:
                continue
            if c.skips > 0:
                out.append(
                    ev.ConditionChanged(
                        bearer=bearer.id,
                        condition=c.id,
                        remaining=c.remaining,
                        skips=c.skips - 1,
                        intense=c.intense,
                        reason="sustained, no count-down",
                    )
                )
            elif c.remaining - 1 <= 0:
                out.append(
                    ev.ConditionRemoved(bearer=bearer.id, condition=c.id, reason="dissipates")
                )
            else:
                out.append(
                    ev.ConditionChanged(
                        bearer=bearer.id,
                        condition=c.id,
                        remaining=c.remaining - 1,
                        skips=c.skips,
                        intense=c.intense,
                        reason="counts down",
                    )
                )
    return out
