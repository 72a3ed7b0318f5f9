"""Which fields of Scentfinder events tell a combatant's Hit Points
(Ruleset.health_fields)."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "scentfinder.combatant_added": (
        HealthField("hp", ("combatant",)),
        HealthField("max_hp", ("combatant",)),
    ),
    "scentfinder.action_resolved": (HealthField("hp_after", ("target",)),),
    "scentfinder.save_made": (HealthField("hp_after", ("combatant",)),),
    "scentfinder.turn_ended": (HealthField("hp_after", ("combatant",)),),
    "scentfinder.deaths_door_changed": (HealthField("hp_after", ("combatant",)),),
    "scentfinder.ruling": (
        HealthField("hp", ("combatant",)),
        # A ruling may set any piece of the sheet, its maximum Hit Points among them.
        HealthField("sheet.max_hp", ("combatant",)),
    ),
}
