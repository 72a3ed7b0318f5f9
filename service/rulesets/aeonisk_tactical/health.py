"""Which fields of Aeonisk events tell a character's health (Ruleset.health_fields)."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

SHEET_HEALTH = frozenset({"wounds", "soak", "attribute:health"})
"""What a ruling sets that is health or decides it (AEK-67, AEK-68); the rest of the sheet
(Stun, Void, Initiative, skills) is not."""

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "aeonisk.damage_rolled": (
        HealthField("wounds_after", ("target",)),
        HealthField("soak", ("target",)),
    ),
    # The sheet the players' state hides of an NPC (service/rulesets/aeonisk_tactical/view.py):
    # Soak and Health decide how much wounds it and whether it survives (AEK-67, AEK-68).
    "aeonisk.value_set": (
        HealthField("value", ("character",), SHEET_HEALTH),
        HealthField("previous", ("character",), SHEET_HEALTH),
    ),
    "aeonisk.character_added": (
        HealthField("attributes", ("character",)),
        HealthField("soak", ("character",)),
    ),
}

NOT_HEALTH: Mapping[str, str] = {
    "aeonisk.damage_rolled.wounds": "the Wounds of one hit, its public damage roll less Soak",
}
