"""Initiative (section 1): Agility x 4 + d20, a natural 1 gives INIT 0, ties by the
highest skill rank and then Agility; the forfeit re-roll, halved from INIT 0.

A natural 1 shows in the roll as a modifier taking the total to 0, so the log keeps the
raw d20 and the rule that set the result (AEK-05, AEK-08).
"""

from __future__ import annotations

import itertools

from msgspec.structs import replace

from service.dice.model import Dice, Modifier, RollRecord
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.rolls import halved
from service.rulesets.aeonisk_tactical.rules import best_skill, resolution_order
from service.rulesets.aeonisk_tactical.state import Character, State


def initiative_roll(
    dice: Dice, c: Character, *, purpose: str = "initiative"
) -> tuple[int, bool, RollRecord]:
    """(total, natural 1?, record) of one Agility x 4 + d20 roll (AEK-06, AEK-08, AEK-12)."""
    agility = c.attribute("agility")
    record = dice.roll(
        "1d20",
        purpose=purpose,
        roller=c.id,
        modifiers=(Modifier(f"Agility {agility} x 4", agility * 4),),
    )
    natural_one = record.dice[0].face == 1
    if natural_one:
        cut = Modifier("natural 1: INIT 0", -record.total)
        return 0, True, replace(record, modifiers=(*record.modifiers, cut), total=0)
    return record.total, False, record


def roll_initiative(
    state: State, dice: Dice, rollers: list[Character], *, still_rolling: tuple[str, ...] = ()
) -> ev.InitiativeRolled:
    """Everyone in ``rollers`` rolls, in the order they were added.  ``order`` leaves out
    those ``still_rolling`` (one at a time: last round's totals are not this round's)."""
    results: list[ev.InitiativeEntry] = []
    rolls: list[RollRecord] = []
    for c in rollers:
        total, natural_one, record = initiative_roll(dice, c)
        results.append(ev.InitiativeEntry(character=c.id, total=total, natural_one=natural_one))
        rolls.append(record)
    totals = {r.character: r.total for r in results}
    after = replace(
        state,
        characters={
            k: replace(c, initiative=totals.get(k, c.initiative))
            for k, c in state.characters.items()
        },
    )
    waiting = set(still_rolling) - set(totals)
    order = [c for c in resolution_order(after) if c.id not in waiting]
    return ev.InitiativeRolled(
        results=tuple(results),
        order=tuple(c.id for c in order),
        note=_tie_note(order),
        rolls=tuple(rolls),
    )


def _tie_note(order: list[Character]) -> str | None:
    """Ties the skill and Agility tie-breaks could not split (AEK-A8): the order of
    addition decides and the GM may rule otherwise."""
    tied: list[str] = []
    for first, second in itertools.pairwise(order):
        key = (first.initiative, best_skill(first), first.attribute("agility"))
        if key == (second.initiative, best_skill(second), second.attribute("agility")):
            tied.append(f"{first.name} and {second.name}")
    if not tied:
        return None
    return (
        f"{'; '.join(tied)} tie on Initiative, best skill and Agility: ordered as added, "
        "unless the GM rules otherwise (set_value initiative)"
    )


def forfeit_reroll(state: State, dice: Dice, c: Character) -> ev.InitiativeRerolled:
    """Forfeit the turn to re-roll, halved if the current Initiative is 0 (AEK-12), with
    the same rounding as every INIT 0 halving (``halve_rounding``, AEK-A6)."""
    _, natural_one, record = initiative_roll(dice, c, purpose="initiative re-roll (turn forfeited)")
    if c.initiative == 0 and not natural_one:
        record = halved(state, record, "halved: Initiative was 0")
    return ev.InitiativeRerolled(character=c.id, total=record.total, rolls=(record,))
