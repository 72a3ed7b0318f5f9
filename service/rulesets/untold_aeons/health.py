"""Which fields of Untold Aeons events tell a character's health (Ruleset.health_fields):
damage and stress against the wound and stress limits."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

_TRACKS = frozenset({"damage", "stress"})
"""What a ruling sets that is health; xp and the karma pools are not."""

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    "untold-aeons.character_added": (
        HealthField("stress_limit", ("character",)),
        HealthField("wound_limit", ("character",)),
        # The limits are derived from these (UAE-02): either gives them away.
        HealthField("toughness", ("character",)),
        HealthField("willpower", ("character",)),
        # Where the character starts on its tracks.
        HealthField("stress", ("character",)),
        HealthField("damage", ("character",)),
    ),
    "untold-aeons.attack_resolved": (
        HealthField("damage_after", ("struck",)),
        # What Toughness took off a hit is the Toughness.
        HealthField("hits[].reduction", ("struck",)),
        HealthField("hits[].taken", ("struck",)),
    ),
    "untold-aeons.bled": (HealthField("damage_after", ("character",)),),
    "untold-aeons.roll_rerolled": (
        HealthField("after[].damage", ("character",)),
        HealthField("after[].stress", ("character",)),
    ),
    "untold-aeons.sanity_checked": (HealthField("stress_after", ("character",)),),
    "untold-aeons.recovered": (HealthField("after", ("character",)),),
    "untold-aeons.value_set": (
        HealthField("value", ("character",), _TRACKS),
        HealthField("previous", ("character",), _TRACKS),
    ),
}
