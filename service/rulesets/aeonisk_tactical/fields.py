"""Field types and rule tables shared by the Aeonisk commands, events and rules.

Each ``Annotated`` type constrains decoding (a malformed body is a 400 before ``decide``
runs) and documents the field in OpenAPI.  The tables are the numbers of the rules text.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from service.dice.model import Modifier

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["kaelia"])]
"""A character, token or zone id: chosen by the client, unique in the encounter."""
Text = Annotated[str, Meta(min_length=1, max_length=200)]
TraitName = Annotated[
    str, Meta(min_length=1, max_length=40, pattern=r"^[a-z][a-z_]*$", examples=["agility"])
]
"""A YAGS attribute or skill key, lower case ("agility", "athletics", "melee")."""
Rank = Annotated[int, Meta(ge=0, le=20)]
Modifiers = Annotated[
    tuple[Modifier, ...],
    Meta(
        max_length=10,
        description=(
            "GM-entered labelled modifiers for YAGS-core matters the tactical text leaves "
            "to the table (split defence, Parry, Stance, Vent obscurement): AEK-A34."
        ),
    ),
]

Band = Literal["engaged", "near", "far", "extreme"]
BANDS: tuple[Band, ...] = ("engaged", "near", "far", "extreme")
RANGE_MODIFIER: dict[Band, int] = {"engaged": 0, "near": -2, "far": -4, "extreme": -6}
"""Section 3 (AEK-23): the attack modifier into each band, one value per band (AEK-A16)."""

Direction = Literal["closer", "away"]

TokenKind = Literal[
    "cover", "high_ground", "energy_hub", "vent", "ley_node", "void_slick", "sprint_lane"
]
TOKEN_NAMES: dict[TokenKind, str] = {
    "cover": "Cover",
    "high_ground": "High-Ground",
    "energy_hub": "Energy Hub",
    "vent": "Vent",
    "ley_node": "Ley-Node",
    "void_slick": "Void Slick",
    "sprint_lane": "Sprint Lane",
}

Terrain = Literal["light_clutter", "unstable_crates", "vacuum_breach"]
TERRAIN_DC: dict[Terrain, int] = {"light_clutter": 10, "unstable_crates": 15, "vacuum_breach": 20}
"""Section 5a (AEK-51)."""
TERRAIN_NAMES: dict[Terrain, str] = {
    "light_clutter": "Light Clutter",
    "unstable_crates": "Unstable Crates",
    "vacuum_breach": "Vacuum Breach",
}

DefenceMode = Literal["active", "full", "static"]
Stance = Literal["normal", "aggressive", "defensive"]
TaskKind = Literal["ritual", "dreamwork", "other"]
Slot = Literal["major", "minor"]
SuppressChoice = Literal["dive", "hunker_down"]

MODIFIER_CAP = 6
"""The "normal ±6 maximum" of section 4 (AEK-04, AEK-A9)."""
FATAL_WOUNDS = 5
"""Section cheat-sheet (AEK-68): the Health check starts at 5 Wounds."""
VOID_SURGE_LIMIT = 7
"""Section 8 (AEK-63): unlimited while Void <= 7, locked at Void >= 8."""


def title(key: str) -> str:
    """A trait key as the log shows it: ``agility`` -> ``Agility``."""
    return key.replace("_", " ").title()
