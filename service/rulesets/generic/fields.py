"""Field types shared by commands and options: ids, text, notation, durations.

Each is an ``Annotated`` type whose ``Meta`` both constrains decoding (a malformed body is
a 400 before ``decide`` runs) and documents the field in OpenAPI.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.dice.model import Modifier

Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^\S+$", examples=["goblin-1"])]
"""A combatant id: chosen by the client, unique in the encounter, no spaces."""
StatName = Annotated[str, Meta(min_length=1, max_length=40, pattern=r"^[^\s:]+$")]
"""A stat key as stored on combatants ("dex", "ac"); no spaces or colons (see set_value)."""
Number = Annotated[int, Meta(ge=-1_000_000, le=1_000_000)]
"""Any number on a sheet or a roll: bounded so no value grows past what a table uses."""
Text = Annotated[str, Meta(min_length=1, max_length=200)]
Notation = Annotated[str, Meta(min_length=1, max_length=200, examples=["1d20+5"])]
Modifiers = Annotated[
    tuple[Modifier, ...],
    Meta(max_length=20, description="Labelled bonuses or penalties added to the roll."),
]
Duration = Annotated[
    Annotated[int, Meta(ge=1)] | None,
    Meta(
        description=(
            "Rounds the condition lasts; null lasts until removed. Added during round r, it "
            "expires as round r+d begins (before combat r counts as 1), so 1 means to the "
            "end of the current round."
        ),
    ),
]
