"""The combat statistics of an encounter: a fold of its facts and rolls (pure).

projections/stats.py feeds it the events in effect, in order, with the state before each;
what it adds up is described in docs/statistics.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime

import msgspec

from service.combat_facts import Attack, CombatFact, Damage, Healing, TurnBegun, TurnEnded
from service.dice.model import RollRecord


class CombatantStats(msgspec.Struct, kw_only=True):
    combatant: str
    damage_dealt: int = 0
    damage_taken: int = 0
    healing_done: int = 0
    healing_received: int = 0
    attacks: int = 0
    hits: int = 0
    misses: int = 0
    criticals: int = 0
    fumbles: int = 0
    rolls: int = 0
    """Rolls this combatant made (the roller of the roll record)."""
    turns: int = 0
    turn_seconds: float = 0.0
    """Wall-clock time of the turns that have ended: from a turn's start to the next
    turn's, or (rulesets whose turns only end) from the turn ended before it."""
    mean_turn_seconds: float | None = None


class DieStats(msgspec.Struct, kw_only=True):
    """Faces seen on one die size against the uniform distribution a fair die gives."""

    sides: int
    dice: int
    faces: list[int]
    """How often each face came up: ``faces[0]`` counts ones."""
    expected_per_face: float
    chi_square: float
    degrees_of_freedom: int
    p_value: float
    """Chance that a fair die shows a spread at least this uneven: a small value (under
    0.01, say) over many dice suggests the dice are not fair."""
    reliable: bool
    """False while some face is expected fewer than 5 times: too few dice for the
    chi-square approximation to mean much."""


class DiceStats(msgspec.Struct, kw_only=True):
    server: list[DieStats]
    manual: list[DieStats]


class EncounterStats(msgspec.Struct, kw_only=True):
    version: int
    """The stream version the figures are as of."""
    combatants: list[CombatantStats]
    unattributed_damage: int
    """Damage no combatant dealt (rulings, hazards)."""
    rolls: int
    dice: DiceStats


class Tally:
    """Add facts and rolls one event at a time, then ``result``."""

    def __init__(self) -> None:
        self._by: dict[str, CombatantStats] = {}
        self._unattributed = 0
        self._rolls = 0
        self._faces: dict[str, dict[int, list[int]]] = {"server": {}, "manual": {}}
        self._turn: tuple[str, datetime] | None = None
        self._last_end: datetime | None = None
        self._timed: dict[str, int] = {}
        self._command: object = None
        self._attacker: str | None = None

    def next_stream(self) -> None:
        """Another encounter's events follow (a campaign's figures add its encounters up):
        a turn, a command or an attacker never runs on from one encounter into the next."""
        self._turn = self._last_end = None
        self._command, self._attacker = None, None

    def _of(self, combatant: str) -> CombatantStats:
        found = self._by.get(combatant)
        if found is None:
            found = self._by[combatant] = CombatantStats(combatant=combatant)
        return found

    def add(
        self,
        facts: Iterable[CombatFact],
        rolls: Iterable[RollRecord],
        at: datetime,
        command: object,
    ) -> None:
        """One event's facts and rolls; ``command`` is equal for the events of one command
        (an attack's damage is credited to its attacker only within it)."""
        if command != self._command:
            self._command, self._attacker = command, None
        for fact in facts:
            self._fact(fact, at)
        for roll in rolls:
            self._roll(roll)

    def _fact(self, fact: CombatFact, at: datetime) -> None:
        match fact:
            case Attack():
                self._attacker = fact.attacker
                if fact.attacker is not None:
                    who = self._of(fact.attacker)
                    who.attacks += 1
                    who.hits += fact.hit
                    who.misses += not fact.hit
                    who.criticals += fact.critical
                    who.fumbles += fact.fumble
            case Damage():
                self._of(fact.target).damage_taken += fact.amount
                source = self._attacker if fact.by_attack else fact.source
                if source is None:
                    self._unattributed += fact.amount
                else:
                    self._of(source).damage_dealt += fact.amount
            case Healing():
                self._of(fact.target).healing_received += fact.amount
                if fact.source is not None:
                    self._of(fact.source).healing_done += fact.amount
            case TurnBegun():
                if self._turn is not None:
                    self._time_turn(self._turn[0], self._turn[1], at)
                self._of(fact.combatant).turns += 1
                self._turn = (fact.combatant, at)
            case TurnEnded():
                self._of(fact.combatant).turns += 1
                if self._last_end is not None:
                    self._time_turn(fact.combatant, self._last_end, at)
                self._last_end = at

    def _time_turn(self, combatant: str, began: datetime, ended: datetime) -> None:
        self._of(combatant).turn_seconds += (ended - began).total_seconds()
        self._timed[combatant] = self._timed.get(combatant, 0) + 1

    def _roll(self, roll: RollRecord) -> None:
        self._rolls += 1
        if roll.roller is not None:
            self._of(roll.roller).rolls += 1
        sizes = self._faces["manual" if roll.source == "manual" else "server"]
        for die in roll.dice:
            if 1 <= die.face <= die.sides:
                sizes.setdefault(die.sides, [0] * die.sides)[die.face - 1] += 1

    def result(self, version: int) -> EncounterStats:
        combatants = []
        for stats in sorted(self._by.values(), key=lambda s: s.combatant):
            timed = self._timed.get(stats.combatant, 0)
            if timed > 0:
                stats.mean_turn_seconds = stats.turn_seconds / timed
            combatants.append(stats)
        return EncounterStats(
            version=version,
            combatants=combatants,
            unattributed_damage=self._unattributed,
            rolls=self._rolls,
            dice=DiceStats(
                server=[die_stats(s, f) for s, f in sorted(self._faces["server"].items())],
                manual=[die_stats(s, f) for s, f in sorted(self._faces["manual"].items())],
            ),
        )


def die_stats(sides: int, faces: list[int]) -> DieStats:
    dice = sum(faces)
    expected = dice / sides
    chi = sum((seen - expected) ** 2 / expected for seen in faces) if dice else 0.0
    freedom = sides - 1
    return DieStats(
        sides=sides,
        dice=dice,
        faces=faces,
        expected_per_face=expected,
        chi_square=chi,
        degrees_of_freedom=freedom,
        p_value=chi_square_p_value(chi, freedom) if dice else 1.0,
        reliable=expected >= 5,
    )


def chi_square_p_value(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square with ``freedom`` degrees: the regularised upper
    incomplete gamma Q(k/2, x/2), by its series below a + 1 and its continued fraction
    above (Numerical Recipes, 6.2), which both converge fast there.  A dozen lines in
    place of SciPy, which this service would carry for this one function."""
    if freedom < 1:
        return 1.0
    a, x = freedom / 2, statistic / 2
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
