"""Field types shared by the commands: ids, hex keys, dice, text.

Each is an ``Annotated`` type whose ``Meta`` both constrains decoding (a malformed body is
a 400 before ``decide`` runs) and documents the field in OpenAPI.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["red-cav-1"])]
"""A side or unit id, chosen by the client, unique in the encounter, no spaces."""
SideId = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=64,
        pattern=r"^\S+$",
        examples=["red"],
        description="The side (player) this command acts for; a player token must be bound to it.",
    ),
]
HexKey = Annotated[
    str,
    Meta(
        pattern=r"^(0|-?[1-9][0-9]{0,3}),(0|-?[1-9][0-9]{0,3})$",
        examples=["0,0"],
        description="Axial hex coordinates 'q,r' (neighbours differ by one of (+1,0), "
        "(+1,-1), (0,-1), (-1,0), (-1,+1), (0,+1)).",
    ),
]
Text = Annotated[str, Meta(min_length=1, max_length=200)]
LongText = Annotated[str, Meta(min_length=1, max_length=1000)]
Die = Annotated[
    str,
    Meta(
        pattern=r"^d([2-9]|[1-9][0-9]{1,2})$", examples=["d8"], description="One die: d4 .. d100."
    ),
]
UnitIds = Annotated[tuple[Id, ...], Meta(max_length=200)]
Targets = Annotated[
    dict[Id, Id],
    Meta(
        description=(
            "Striker unit id -> chosen enemy Battle Line unit (sections 4.2, 4.3). A striker "
            "without a target, or whose target has fallen, takes the first surviving enemy "
            "Battle Line unit in line order."
        ),
        examples=[{"red-cav-1": "blue-inf-2"}],
    ),
]
HexKind = Literal["standard", "city", "fortress"]
UnitKind = Literal["infantry", "cavalry", "archers"]
