"""Which fields of TACTICS events tell a creature's health (Ruleset.health_fields): its
wounds against the table's wound limit, and the status they decide."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "tactics.wounded": (
        HealthField("total_after", ("combatant",)),
        HealthField("status_after", ("combatant",)),
    ),
    "tactics.wounds_healed": (HealthField("total_after", ("combatant",)),),
    # A ruling sets a number of the sheet, wounds among them.
    "tactics.value_set": (
        HealthField("value", ("combatant",)),
        HealthField("previous", ("combatant",)),
    ),
}

NOT_HEALTH: Mapping[str, str] = {
    "tactics.soak_rolled.wounds": "the wounds one hit is worth, from the public soak roll",
    "tactics.wounded.wounds": "the wounds one hit or ruling adds, as the soak roll shows",
    "tactics.wounds_healed.wounds": "the wounds a ruling takes back, not the total left",
    "tactics.hit_resolved.wounds": "the wounds of one hit, as its soak roll shows",
}
