"""The command mix of the throughput benchmark: a generic-ruleset table in combat.

Every encounter starts with four sturdy combatants and rolled initiative.  Then each
command a client sends to it is the next step of a twelve-step cycle: a reinforcement
joins and rolls initiative (server roll), three times attack (server roll, damage on a
hit), damage (server roll) and next turn, and the reinforcement leaves, so the roster
stays the same size however long the run.  Hit points are large enough that nobody
falls, so every command of the cycle is legal and is a 200.
"""

from __future__ import annotations

from typing import Any

FIGHTERS = ("alda", "brom", "cyra", "dorn")
SETUP: tuple[dict[str, Any], ...] = (
    *(
        {
            "type": "generic.add_combatant",
            "id": f,
            "name": f.title(),
            "hp": 1_000_000,
            "stats": {"ac": 12, "dex": i},
        }
        for i, f in enumerate(FIGHTERS)
    ),
    {"type": "generic.roll_initiative"},
)
CYCLE = 12


def step(n: int) -> dict[str, Any]:
    """The command at position ``n`` of an encounter's endless cycle."""
    k, lap = n % CYCLE, n // CYCLE
    reinforcement = f"r{lap}"
    if k == 0:
        return {
            "type": "generic.add_combatant",
            "id": reinforcement,
            "name": f"Reinforcement {lap}",
            "hp": 1_000_000,
            "stats": {"ac": 11},
        }
    if k == 1:
        return {"type": "generic.roll_initiative", "combatants": [reinforcement]}
    if k == CYCLE - 1:
        return {"type": "generic.remove_combatant", "id": reinforcement}
    attacker, target = FIGHTERS[lap % 4], FIGHTERS[(lap + 1 + k) % 4]
    if attacker == target:
        target = FIGHTERS[(lap + 2) % 4]
    match (k - 2) % 3:
        case 0:
            return {
                "type": "generic.attack",
                "attacker": attacker,
                "target": target,
                "notation": "1d20+5",
                "damage": "1d8+3",
            }
        case 1:
            return {"type": "generic.damage", "target": target, "notation": "2d6", "source": "fire"}
        case _:
            return {"type": "generic.next_turn"}
