"""What the Scentfinder actions' modules share: the pending-test guard, conditions and
moves as the actions make them, the damage of a degree, and the ``Resolution`` every
degree line reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from msgspec.structs import replace

from service.dice.model import Dice, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder.commands import Act, Resolve
from service.rulesets.scentfinder.fields import ACTIONS, DEGREE_WORD, maximum_of
from service.rulesets.scentfinder.rules import Builder, adjacent, area_name
from service.rulesets.scentfinder.state import Combatant, Condition, Pending, State


def no_pending(state: State) -> None:
    p = state.pending
    if p is None:
        return
    name = state.combatants[p.actor].name
    if p.kind == "hazard":
        raise RuleViolation(
            f"{name} must first Save against the hazardous terrain of "
            f"{area_name(state, p.area)} (SCF-17)"
        )
    raise RuleViolation(f"The GM has yet to enter the degree of {name}'s {ACTIONS[p.action].title}")


def aids_waiting_test(state: State, command: Act) -> bool:
    """An Aid's reaction may Favour an ally's test that is declared and waiting for its
    degree: the Favour is there when the GM gives it (SCF-21)."""
    p = state.pending
    return (
        command.action == "aid"
        and command.via == "reaction"
        and p is not None
        and p.kind == "test"
        and p.actor == command.target
    )


def _cond(kind: str, **fields: object) -> Condition:
    return Condition(id="", kind=kind, **fields)  # type: ignore[arg-type]


def _move(b: Builder, ident: str, dest: str | None, reason: str) -> None:
    """A move action: the new area, then the hazard Save it may call for (SCF-17, SCF-A14)."""
    who = b.who(ident)
    origin = b.state.areas.get(who.area or "")
    if dest is not None and dest != who.area:
        b.emit(ev.Moved(combatant=ident, from_area=who.area, to_area=dest, reason=reason))
    target = b.state.areas.get(dest or "")
    for area in (target, origin):
        if area is not None and area.hazard is not None:
            b.emit(
                ev.HazardTriggered(
                    combatant=ident, area=area.id, save=area.hazard.save, die=area.hazard.die
                )
            )
            return


def _damage(
    dice: Dice, notation: str, degree: str, purpose: str, roller: str, fail: int = 1
) -> tuple[int, tuple[RollRecord, ...]]:
    """Strike and Cast Spell: T maximise, S roll, F 1 damage, B none (SCF-25, SCF-49)."""
    if degree == "success":
        record = dice.roll(notation, purpose=purpose, roller=roller)
        return record.total, (replace(record, outcome="rolled"),)
    damage = {"triumph": maximum_of(notation), "failure": fail}.get(degree, 0)
    said = {"triumph": "maximises the damage", "failure": f"deals {fail} damage"}
    dice.no_roll(
        f"a {DEGREE_WORD[degree]} {said.get(degree, 'deals no damage')} ({damage}), so the "
        f"damage die ({notation}) is not rolled",
        rule="SCF-49, SCF-25",
    )
    return damage, ()


def _choice(command: Resolve, allowed: tuple[str, ...], what: str) -> str:
    if command.choice not in allowed:
        raise RuleViolation(f"{what}: choose {' or '.join(allowed)}")
    return command.choice


def _adjacent_of(state: State, area: str | None) -> str | None:
    for a, b in state.links:
        if a == area:
            return b
        if b == area:
            return a
    return area


def _displace(b: Builder, target: Combatant, command: Resolve) -> None:
    if (
        command.area is None
        or target.area is None
        or not adjacent(b.state, target.area, command.area)
    ):
        raise RuleViolation("A displaced target goes to an adjacent area: name it")
    b.emit(
        ev.Moved(combatant=target.id, from_area=target.area, to_area=command.area, reason="shoved")
    )


@dataclass(frozen=True)
class Resolution:
    """The degree of a pending action being applied: what every degree line reads.

    ``outcome`` (degrees.py) takes the state, the actor and the target before its first
    event, and the lines read them as they were then (``b.state`` is the state now).
    """

    b: Builder
    p: Pending
    command: Resolve
    dice: Dice
    state: State
    actor: Combatant
    target: Combatant | None
    line: str
    """The text's line for this degree of the action."""

    def resolved(
        self,
        effect: str,
        damage: int | None = None,
        hp_after: int | None = None,
        rolls: tuple[RollRecord, ...] = (),
    ) -> None:
        self.b.emit(
            ev.ActionResolved(
                actor=self.actor.id,
                action=self.p.action,
                degree=self.command.degree,
                target=self.p.target,
                effect=effect,
                damage=damage,
                hp_after=hp_after,
                rolls=rolls,
            )
        )
