"""A campaign's stream beside encounters' in the store: readers that decode by ruleset
(the read-model rebuild, the ruleset lookup every encounter read starts from) keep to
encounters, and the campaign's stream is hash-chained like any other."""

from __future__ import annotations

import json
from uuid import UUID

import asyncpg

from events.reading import stream_ruleset
from events.verify import verify_chain
from projections.rebuild import rebuild_all
from service.campaign_store.stream import load
from service.campaigns.commands import AddMember, CreateCampaign
from service.commands import Actor
from service.rulesets.generic.commands import AddCombatant
from service.write.campaigns import CampaignWriter
from service.write.pipeline import CommandPipeline
from service.write.unit_of_work import Terms
from tests.support.pipeline import new_encounter, run

GM = Terms(actor=Actor(role="gm"))


async def test_a_rebuild_skips_campaign_streams(
    pool: asyncpg.Pool, pipeline: CommandPipeline
) -> None:
    writer = CampaignWriter(pool, None)
    answer, token = await writer.create(CreateCampaign(name="Ashes", ruleset="generic"), GM)
    assert token is not None
    campaign = UUID(json.loads(answer)["campaign_id"])
    sheet = {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 9}
    await writer.handle(campaign, AddMember(sheet=sheet), GM)
    encounter = await new_encounter(pipeline)
    await run(pipeline, encounter, AddCombatant(id="grak", name="Grak", hp=7))

    streams, _ = await rebuild_all(pool, ids=(min(campaign, encounter), max(campaign, encounter)))
    assert streams >= 1
    assert (
        await pool.fetchval(
            "SELECT count(*) FROM encounter_state WHERE encounter_id = $1", campaign
        )
        == 0
    )
    assert await stream_ruleset(pool, campaign) is None
    assert await stream_ruleset(pool, encounter) == "generic"
    assert (await verify_chain(pool, campaign)).ok
    folded = await load(pool, campaign)
    assert folded.version == 2
