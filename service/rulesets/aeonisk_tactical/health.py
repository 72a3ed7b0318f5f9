"""Which fields of Aeonisk events tell a character's health (Ruleset.health_fields)."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "aeonisk.damage_rolled": (
        HealthField("wounds_after", ("target",)),
        HealthField("soak", ("target",)),
    ),
    # The sheet the players' state hides of an NPC (service/rulesets/aeonisk_tactical/view.py):
    # Soak and Health decide how much wounds it and whether it survives (AEK-67, AEK-68).
    "aeonisk.character_added": (
        HealthField("attributes", ("character",)),
        HealthField("soak", ("character",)),
    ),
}

NOT_HEALTH: Mapping[str, str] = {
    "aeonisk.damage_rolled.wounds": "the Wounds of one hit, its public damage roll less Soak",
}
