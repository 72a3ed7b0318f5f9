"""What a side commits to a battle: units from adjacent hexes (3.2, AEC-04), the Battle
Line up to its cap (1.2, 3.3), siege reinforcements (6.4, AEC-28), and strike targets on
the enemy Battle Line (AEC-A9)."""

from __future__ import annotations

from collections.abc import Sequence

from service.ruleset import RuleViolation
from service.rulesets.aeonis_combat import hexes
from service.rulesets.aeonis_combat.rules import (
    battle_of_unit,
    label,
    no_duplicates,
    side_name,
    unit_of,
)
from service.rulesets.aeonis_combat.state import SIEGE_REINFORCEMENTS, Battle, Hex, State


def check_targets(
    state: State,
    battle: Battle,
    side: str,
    targets: dict[str, str],
    *,
    enemy_line: Sequence[str],
    own: Sequence[str] = (),
) -> None:
    """Strikers are the side's committed units (and ``own``, about to be committed);
    targets are units of ``enemy_line``: the enemy Battle Line as this round's Reinforce
    leaves it (AEC-A9, 4.3)."""
    mine = (*battle.committed(side), *own)
    enemy = battle.opponent(side)
    for striker, target in targets.items():
        if striker not in mine:
            raise RuleViolation(
                f"{label(state, striker)} is not committed to this battle on "
                f"{side_name(state, side)}'s side"
            )
        if target not in enemy_line:
            where = (
                "in the Reserves and not promoted in this round's Reinforce (4.1)"
                if target in battle.reserves(enemy)
                else "not committed"
            )
            raise RuleViolation(
                f"{label(state, target)} is {where}; only enemy Battle Line units can be "
                "targeted (sections 4.2, 4.3)"
            )


def check_commit(state: State, side: str, hex_key: str, commit: Sequence[str]) -> None:
    """Units a side commits from adjacent hexes (3.2, AEC-04)."""
    no_duplicates(commit, "the committed units")
    owner = side_name(state, side)
    for unit_id in commit:
        unit = unit_of(state, unit_id)
        if unit.side != side:
            raise RuleViolation(f"{label(state, unit_id)} is not {owner}'s to commit")
        if unit.kind == "lord" and state.sides[side].lord_captured_by is not None:
            raise RuleViolation(
                f"{label(state, unit_id)} is captured and cannot commit to battles (section 2.1.4)"
            )
        if unit.hex is None or not hexes.adjacent(unit.hex, hex_key):
            where = "off the map" if unit.hex is None else f"in {unit.hex}"
            raise RuleViolation(
                f"{label(state, unit_id)} is {where}, not adjacent to {hex_key}; units commit "
                "from adjacent hexes (section 3.2)"
            )
        elsewhere = battle_of_unit(state, unit_id)
        if elsewhere is not None:
            raise RuleViolation(
                f"{label(state, unit_id)} is already committed to the battle at {elsewhere}"
            )


def line(
    state: State,
    side: str,
    committed: Sequence[str],
    chosen: Sequence[str] | None,
    cap: int,
    target: Hex,
) -> tuple[str, ...]:
    """The Battle Line: the chosen committed units, or the first ones, up to the cap."""
    if chosen is None:
        return tuple(committed[:cap])
    no_duplicates(chosen, "the Battle Line")
    for unit_id in chosen:
        if unit_id not in committed:
            raise RuleViolation(
                f"{label(state, unit_id)} is not committed, so it cannot be on the Battle Line"
            )
    if len(chosen) > cap:
        where = "a standard hex" if target.kind == "standard" else f"a {target.kind.title()}"
        raise RuleViolation(
            f"{side_name(state, side)}'s Battle Line holds at most {cap} units on {where} "
            f"(section 1.2); {len(chosen)} given"
        )
    return tuple(chosen)


def reinforcements(
    state: State, side: str, hex_key: str, commit: Sequence[str], battle: Battle
) -> tuple[str, ...]:
    """Units added to the Reserves at the start of a siege round (6.4, AEC-28)."""
    if commit and not battle.siege:
        raise RuleViolation(
            "only a siege takes reinforcements between battle rounds (section 6.4); this battle "
            "keeps the units committed when it was declared"
        )
    if len(commit) > SIEGE_REINFORCEMENTS:
        raise RuleViolation(
            f"each side may add up to {SIEGE_REINFORCEMENTS} units per siege round (section 6.4); "
            f"{len(commit)} given"
        )
    check_commit(state, side, hex_key, commit)
    return tuple(commit)
