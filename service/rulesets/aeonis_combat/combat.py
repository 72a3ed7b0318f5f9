"""One battle round, steps 1-4 of section 4 (AEC-14, AEC-17..19), and the Victory Check
that follows when a side has nothing left.

Order and timing (AEC-A3): Reinforce promotes the Reserves each side chose (``reinforce``),
and they strike and may be struck this very round; attacking Archers on the line roll
first, then defending Archers; then every attacking line unit strikes in line order, then
every defending one counterstrikes.
Damage applies at once: a unit at 0 HP leaves the line, cannot be targeted and does not
roll later in the round (with ``archer_prestrike_simultaneous`` defending Archers roll
even if the attacking Archers destroyed them).  Archers roll only in the Pre-Strike
unless ``archers_also_strike_in_main_step`` (AEC-A2).

Each strike is two rolls, in this order (the order of manual dice): the striker's Attack
Die, then the target's Defense Die.  Attack strictly greater deals 1 damage; a tie deals
none (4.3).  A Lord at 0 HP is captured, not destroyed (2.1.4).
"""

from __future__ import annotations

from typing import Literal

from msgspec.structs import replace

from service.dice.model import Dice, Modifier, RollRecord
from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat import reinforce
from service.rulesets.aeonis_combat.commands import Fight
from service.rulesets.aeonis_combat.commitment import check_targets
from service.rulesets.aeonis_combat.events import (
    BattleEnded,
    BattleRoundFought,
    DefenceDeclared,
    Event,
    LordCaptured,
    Strike,
)
from service.rulesets.aeonis_combat.evolve import evolve
from service.rulesets.aeonis_combat.rules import (
    battle_at,
    ensure_attacker,
    restored,
    short,
    side_name,
    won,
)
from service.rulesets.aeonis_combat.state import (
    CAPTURE_RENOWN,
    CAPTURE_VP,
    Battle,
    State,
    attack_die,
    defense_die,
)

StrikeStep = Literal["pre_strike", "strike", "counterstrike"]
_PURPOSE: dict[StrikeStep, str] = {
    "pre_strike": "Archer Pre-Strike",
    "strike": "Strike",
    "counterstrike": "Counterstrike",
}


def fight(state: State, command: Fight, dice: Dice) -> tuple[Event, ...]:
    """``aeonis.fight``: resolve the battle round the Attack action (or Press) paid for."""
    battle = battle_at(state, command.hex)
    ensure_attacker(state, battle, command.side, command.hex, "resolve the battle round")
    answered: tuple[Event, ...] = ()
    if battle.step == "defence" and battle.siege and battle.rounds_fought:
        # A later siege round: the defender's answer only adds Reserves (6.2), and a
        # defender adding nothing need not say so.
        answered = (
            DefenceDeclared(
                hex=command.hex, side=battle.defender, line=(), reserves=(), siege=True
            ),
        )
        state = evolve(state, answered[0])
        battle = state.battles[command.hex]
    if battle.step != "ready":
        raise RuleViolation(_not_ready(state, battle, command.hex))
    if command.promote is not None:
        reinforce.check(state, battle, command.side, command.promote)
        battle = replace(battle, reinforce={**battle.reinforce, command.side: command.promote})
    check_targets(
        state,
        battle,
        command.side,
        command.targets,
        enemy_line=reinforce.line_after(state, battle, battle.defender),
    )
    resolution = _Round(state, battle, {**battle.targets, **command.targets}, dice)
    fought = resolution.run(command.hex)
    return (*answered, *fought, *resolution.victory_check(command.hex))


def _not_ready(state: State, battle: Battle, hex_key: str) -> str:
    match battle.step:
        case "defence":
            return (
                f"{side_name(state, battle.defender)} has not answered the attack on {hex_key} yet"
            )
        case "paused":
            return (
                f"the battle at {hex_key} is paused: another Attack action resumes it "
                "(sections 4, 6.2)"
            )
        case "attacker_retreat" | "defender_retreat":
            return "this battle round is over: the Retreat Check comes next (section 4.4)"
        case "choice":
            return (
                "exactly one battle round per Attack action: Press the Attack for another "
                "(sections 4, 4.0)"
            )
        case "occupation":
            return f"the battle at {hex_key} is decided: the attacker occupies the hex (5.1)"
        case "ready":
            return "the battle round is ready"


class _Round:
    """The working copy of one battle round: hit points and lines as they change."""

    def __init__(self, state: State, battle: Battle, targets: dict[str, str], dice: Dice) -> None:
        self.state, self.battle, self.targets, self.dice = state, battle, targets, dice
        self.hp = {u: state.units[u].hp for u in battle.all_units()}
        self.lines = {s: list(battle.line(s)) for s in (battle.attacker, battle.defender)}
        self.reserves = {s: list(battle.reserves(s)) for s in (battle.attacker, battle.defender)}
        self.strikes: list[Strike] = []
        self.rolls: list[RollRecord] = []
        self.fallen: list[str] = []

    def run(self, hex_key: str) -> tuple[Event, ...]:
        attacker, defender = self.battle.attacker, self.battle.defender
        promoted = {s: p for s in (attacker, defender) if (p := self._reinforce(s))}
        defending_archers = self._archers(defender)
        for unit in self._archers(attacker):
            self._strike(unit, "pre_strike")
        simultaneous = self.state.options.archer_prestrike_simultaneous
        for unit in defending_archers:
            if simultaneous or unit in self.lines[defender]:
                self._strike(unit, "pre_strike")
        for side, step in ((attacker, "strike"), (defender, "counterstrike")):
            for unit in self._strikers(side):
                if unit in self.lines[side]:
                    self._strike(unit, step)  # type: ignore[arg-type]
        lords = [u for u in self.fallen if self.state.units[u].kind == "lord"]
        fought = BattleRoundFought(
            hex=hex_key,
            number=self.battle.rounds_fought + 1,
            promoted=promoted,
            strikes=tuple(self.strikes),
            destroyed=tuple(u for u in self.fallen if u not in lords),
            captured=tuple(lords),
            rolls=tuple(self.rolls),
        )
        return (fought, *self._captures(lords))

    def victory_check(self, hex_key: str) -> tuple[Event, ...]:
        """Section 4 step 6 when a side has no committed units left (AEC-22, AEC-A13),
        judged on the lines and hit points as this round left them."""
        attacker, defender = self.battle.attacker, self.battle.defender
        if not (self.lines[attacker] or self.reserves[attacker]):
            after = replace(
                self.battle,
                attacker_line=(),
                attacker_reserves=(),
                defender_line=tuple(self.lines[defender]),
                defender_reserves=tuple(self.reserves[defender]),
            )
            healed = restored(self.state, after, self.hp)
            return (BattleEnded(hex=hex_key, outcome="defender_held", healed=healed),)
        if not (self.lines[defender] or self.reserves[defender]):
            return (won(self.battle, hex_key),)
        return ()

    def _reinforce(self, side: str) -> tuple[str, ...]:
        """4.1: promote the Reserves the side chose (or ``reinforce_unchosen``'s)."""
        promoted = reinforce.promotion(self.state, self.battle, side)
        self.lines[side].extend(promoted)
        self.reserves[side] = [u for u in self.reserves[side] if u not in promoted]
        return promoted

    def _archers(self, side: str) -> list[str]:
        return [u for u in self.lines[side] if self.state.units[u].kind == "archers"]

    def _strikers(self, side: str) -> list[str]:
        also = self.state.options.archers_also_strike_in_main_step
        return [u for u in self.lines[side] if also or self.state.units[u].kind != "archers"]

    def _strike(self, striker: str, step: StrikeStep) -> None:
        battle, state = self.battle, self.state
        enemy = battle.opponent(state.units[striker].side)
        line = self.lines[enemy]
        chosen = self.targets.get(striker)
        target = chosen if chosen in line else (line[0] if line else None)
        if target is None:
            self.dice.no_roll(
                f"{short(state, striker)} has no legal target left on the enemy Battle Line, "
                "so it skips its roll",
                rule="AEC-A3",
            )
            return
        striking, struck = state.units[striker], state.units[target]
        bonus = state.options.assault_defense_bonus
        modifiers = (
            (Modifier("Assault: defending Battle Line", bonus),)
            if battle.assault and enemy == battle.defender and bonus
            else ()
        )
        attack = self.dice.roll(
            "1" + attack_die(state, striking),
            purpose=f"{_PURPOSE[step]} on {short(state, target)}",
            roller=striker,
        )
        defence = self.dice.roll(
            "1" + defense_die(state, struck),
            purpose=f"defence against {short(state, striker)}",
            roller=target,
            modifiers=modifiers,
        )
        damage = 1 if attack.total > defence.total else 0
        self.hp[target] -= damage
        self.rolls += [
            replace(attack, opposed_by=defence.roll_id, outcome="hit" if damage else "no damage"),
            replace(defence, opposed_by=attack.roll_id, outcome="pierced" if damage else "held"),
        ]
        self.strikes.append(
            Strike(
                step=step,
                striker=striker,
                target=target,
                attack=attack.total,
                defense=defence.total,
                damage=damage,
                target_hp=self.hp[target],
                attack_roll=attack.roll_id,
                defense_roll=defence.roll_id,
            )
        )
        if self.hp[target] <= 0:
            line.remove(target)
            self.fallen.append(target)

    def _captures(self, lords: list[str]) -> tuple[Event, ...]:
        """2.1.4: the opposing side captures the Lord and gains +2 Renown, +1 VP at once."""
        captured: list[Event] = []
        gains: dict[str, tuple[int, int]] = {}
        for lord in lords:
            owner = self.state.units[lord].side
            captor = self.battle.opponent(owner)
            side = self.state.sides[captor]
            renown, vp = gains.get(captor, (side.renown, side.vp))
            gains[captor] = (renown + CAPTURE_RENOWN, vp + CAPTURE_VP)
            captured.append(
                LordCaptured(
                    lord=lord, by=captor, renown_after=gains[captor][0], vp_after=gains[captor][1]
                )
            )
        return tuple(captured)
