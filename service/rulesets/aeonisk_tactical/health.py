"""Which fields of Aeonisk events tell a character's health (Ruleset.health_fields)."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "aeonisk.damage_rolled": (HealthField("wounds_after", ("target",)),),
}

NOT_HEALTH: Mapping[str, str] = {
    "aeonisk.damage_rolled.wounds": "the Wounds of one hit, its public damage roll less Soak",
}
