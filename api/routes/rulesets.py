"""The rule systems this service runs, with their options, commands and events."""

from __future__ import annotations

import functools
import operator
from typing import Any

import msgspec
from litestar import get
from litestar.params import FromPath

from api.http.problems import problem
from api.schemas import CampaignTerms, CommandExample, EventExample, OptionInfo, RulesetInfo
from service.registry import RULESETS, UnknownRuleset, codec_for, get_ruleset
from service.ruleset import Ruleset, tag_of


def campaign_terms(ruleset: Ruleset[Any, Any, Any, Any]) -> CampaignTerms | None:
    """What a campaign of ``ruleset`` keeps (``Ruleset.carry``), as a front end needs it:
    the command a sheet is, the carry-over options, and the shapes of what carries."""
    carry = ruleset.carry
    if carry is None:
        return None
    return CampaignTerms(
        sheet_command=tag_of(carry.sheet_type),
        options=[
            OptionInfo(key=o.key, default=o.default, description=o.description)
            for o in carry.option_notes
        ],
        condition_schema=msgspec.json.schema(carry.condition_type),
        table_schema=msgspec.json.schema(carry.table_type),
        statblock_hit_points=None if carry.with_hit_points is not None else carry.no_hit_points,
    )


def describe(ruleset: Ruleset[Any, Any, Any, Any]) -> RulesetInfo:
    codec = codec_for(ruleset.name)
    command_types = set(ruleset.command_types)
    return RulesetInfo(
        name=ruleset.name,
        title=ruleset.title,
        summary=ruleset.summary,
        options=[
            OptionInfo(key=o.key, default=o.default, description=o.description)
            for o in ruleset.option_notes
        ],
        commands=[
            CommandExample(type=tag_of(type(e)), example=e)
            for e in ruleset.examples
            if type(e) in command_types
        ],
        events=[
            EventExample(
                type=tag_of(type(e)),
                version=codec.upcasters.current_version(tag_of(type(e))),
                example=e,
            )
            for e in ruleset.examples
            if type(e) in ruleset.event_types
        ],
        command_schema=msgspec.json.schema(functools.reduce(operator.or_, ruleset.command_types)),
        player_commands=[tag_of(t) for t in ruleset.player_commands],
        campaign=campaign_terms(ruleset),
    )


@get("/rulesets", operation_id="listRulesets", summary="Rule systems")
async def list_rulesets() -> list[RulesetInfo]:
    return [describe(r) for r in RULESETS.values()]


@get("/rulesets/{name:str}", operation_id="getRuleset", summary="One rule system")
async def get_ruleset_info(name: FromPath[str]) -> RulesetInfo:
    """Options with defaults and the reasons for them, every command and event with an
    example, and what a campaign of it keeps between fights (`campaign`)."""
    try:
        return describe(get_ruleset(name))
    except UnknownRuleset as exc:
        raise problem(404, "ruleset-not-found", str(exc)) from None
