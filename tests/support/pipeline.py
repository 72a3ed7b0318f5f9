"""Driving the command pipeline directly in integration tests, as the GM: open an
encounter, run a command, add a combatant, set up several tables at once."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant
from service.write.pipeline import CommandPipeline

GM = Actor(role="gm")


async def new_encounter(pipeline: CommandPipeline, name: str = "Test") -> UUID:
    opened = await pipeline.create_encounter(
        ruleset="generic", name=name, options={}, client_seed=None, actor=GM
    )
    created = msgspec.json.decode(opened.response)
    return UUID(created["encounter_id"])


async def run(
    pipeline: CommandPipeline, encounter_id: UUID, command: Any, **kwargs: Any
) -> dict[str, Any]:
    result: dict[str, Any] = msgspec.json.decode(
        await pipeline.execute(
            encounter_id,
            CommandEnvelope(command=command, manual_dice=kwargs.pop("manual", None)),
            actor=GM,
            **kwargs,
        )
    )
    return result


async def add(pipeline: CommandPipeline, encounter_id: UUID, ident: str, hp: int = 10) -> None:
    await run(
        pipeline, encounter_id, AddCombatant(id=ident, name=ident.title(), hp=hp, stats={"ac": 12})
    )


async def tables(pipeline: CommandPipeline, count: int) -> list[UUID]:
    """Encounters with a fighter and an ogre, their state cached by ``pipeline``."""
    ids = [await new_encounter(pipeline, f"table {n}") for n in range(count)]
    for encounter_id in ids:
        await add(pipeline, encounter_id, "fighter", hp=30)
        await add(pipeline, encounter_id, "ogre", hp=100)
    return ids
