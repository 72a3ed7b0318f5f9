"""``GET /rulesets/{name}`` publishes what a campaign of the ruleset keeps: the command a
sheet is, the carry-over options with their defaults and reasons, and the shapes of a
condition and of the table, so a front end builds a campaign's forms from the API alone
(the console does). The expected terms below are read from docs/campaigns.md by hand."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from service.registry import RULESETS
from tests.e2e.helpers import Client

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Terms(NamedTuple):
    sheet_command: str
    option: tuple[str, Any]
    condition: set[str]
    table: set[str]
    hit_points: bool
    """Whether a statblock may give its copies' hit points a notation."""


EXPECTED = {
    "generic": Terms(
        "generic.add_combatant", ("carry_conditions", True), {"hp", "conditions"}, set(), True
    ),
    "aeonisk": Terms(
        "aeonisk.add_character",
        ("carry_stun", True),
        {"wounds", "stun", "void", "dead"},
        set(),
        False,
    ),
    "aeonis": Terms(
        "aeonis.add_side",
        ("carry_ap", True),
        {"ap", "renown", "vp", "lord_hex", "lord_hp", "units"},
        {"hexes"},
        False,
    ),
    "tactics": Terms(
        "tactics.add_combatant",
        ("shields", "as_left"),
        {"wounds", "shields", "status"},
        set(),
        False,
    ),
    "untold-aeons": Terms(
        "untold-aeons.add_character",
        ("carry_karma", True),
        {"damage", "stress", "shaken", "status", "xp", "hardened", "traits"},
        {"karma_players", "karma_narrator"},
        False,
    ),
    "scentfinder": Terms(
        "scentfinder.add_combatant",
        ("focus", "as_left"),
        {"hp", "fp", "persistent", "deaths_door", "dd_action_loss"},
        set(),
        True,
    ),
}


def _fields(schema: dict[str, Any]) -> set[str]:
    """The property names of the Struct a msgspec schema refers to."""
    name = schema["$ref"].rpartition("/")[2]
    return set(schema["$defs"][name].get("properties", {}))


async def test_every_registered_ruleset_is_expected() -> None:
    assert set(EXPECTED) == set(RULESETS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
async def test_the_ruleset_document_publishes_its_campaign_terms(client: Client, name: str) -> None:
    expected = EXPECTED[name]
    info = (await client.get(f"/rulesets/{name}")).json()
    terms = info["campaign"]
    assert terms["sheet_command"] == expected.sheet_command
    ((key, default),) = [(o["key"], o["default"]) for o in terms["options"]]
    assert (key, default) == expected.option
    assert all(o["description"] for o in terms["options"])
    assert _fields(terms["condition_schema"]) == expected.condition
    assert _fields(terms["table_schema"]) == expected.table
    assert (terms["statblock_hit_points"] is None) == expected.hit_points
    if not expected.hit_points:
        assert "hit points" in terms["statblock_hit_points"]
    listed = {r["name"]: r for r in (await client.get("/rulesets")).json()}
    assert listed[name]["campaign"] == terms

    # The sheet command is one of the ruleset's commands: its example, sent as a member's
    # sheet, joins a campaign created with the published options' defaults.
    (example,) = [c["example"] for c in info["commands"] if c["type"] == terms["sheet_command"]]
    created = await client.post(
        "/campaigns", json={"ruleset": name, "name": "Terms", "options": {key: default}}
    )
    assert created.status_code == 201, created.text
    campaign, token = created.json()["campaign_id"], created.json()["gm_token"]
    added = await client.post(
        f"/campaigns/{campaign}/commands",
        json={"command": {"type": "campaign.add_member", "sheet": example}},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert added.status_code == 200, added.text


async def test_the_console_only_route_is_gone_and_the_openapi_document_has_the_terms(
    client: Client,
) -> None:
    assert (await client.get("/console/campaign-terms/generic")).status_code == 404
    document = (await client.get("/schema/openapi.json")).json()
    schemas = document["components"]["schemas"]
    ruleset_info = schemas["RulesetInfo"]["properties"]["campaign"]
    assert "CampaignTerms" in str(ruleset_info)
    assert set(schemas["CampaignTerms"]["properties"]) == {
        "sheet_command",
        "options",
        "condition_schema",
        "table_schema",
        "statblock_hit_points",
    }
