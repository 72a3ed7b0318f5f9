"""A campaign of each ruleset on a real PostgreSQL, end to end: a party of two and a
statblock; a first encounter where the GM rules some harm and ends the fight; the
process manager carries it over (the numbers below are worked out by hand from the
rulings); the GM undoes and redoes it; the second encounter starts with what the first
left, read back through the ruleset's own carry-over of that encounter's state."""

from __future__ import annotations

import asyncio
from typing import Any, NamedTuple

import msgspec
import pytest

from service.registry import get_ruleset
from tests.e2e.helpers import Client, posted

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Case(NamedTuple):
    ruleset: str
    options: dict[str, Any]
    ground: list[dict[str, Any]]
    fight: list[dict[str, Any]]
    """The GM's rulings in the first fight (members ``a`` and ``b``)."""
    end: dict[str, Any] | None
    """The command that ends the fight; None: the GM carries it over (Aeonis)."""
    expected: dict[str, dict[str, Any]]
    """The fields of each member's condition the rulings set, by hand."""


CASES = [
    Case(
        "generic",
        {},
        [],
        [{"type": "generic.damage", "target": "a", "amount": 5}],  # 7 - 5 = 2
        {"type": "generic.end_encounter"},
        {"a": {"hp": 2}, "b": {"hp": 7}},
    ),
    Case(
        "aeonisk",
        {},
        [],
        [
            {
                "type": "aeonisk.adjudicate",
                "ruling": {"type": "set_value", "character": "a", "field": "wounds", "value": 2},
                "reason": "a fall",
            },
            {
                "type": "aeonisk.adjudicate",
                "ruling": {"type": "set_value", "character": "b", "field": "stun", "value": 1},
                "reason": "a blow",
            },
        ],
        {"type": "aeonisk.end_encounter"},
        {"a": {"wounds": 2, "stun": 0, "void": 3}, "b": {"wounds": 0, "stun": 1, "void": 3}},
    ),
    Case(
        "scentfinder",
        {},
        [{"type": "scentfinder.define_area", "id": "camp", "name": "Camp"}],
        [{"type": "scentfinder.adjudicate", "reason": "a trap", "combatant": "a", "hp": 4}],
        {"type": "scentfinder.end_combat"},
        {"a": {"hp": 4, "fp": 2}, "b": {"hp": 12, "fp": 2}},
    ),
    Case(
        "tactics",
        {"press_penalty_step": 2},
        [{"type": "tactics.add_zone", "id": "deck"}],
        [
            {
                "type": "tactics.adjudicate",
                "ruling": {
                    "type": "inflict_wounds",
                    "combatant": "a",
                    "wounds": 3,
                    "source": "blast",
                },
                "reason": "the reactor",
            }
        ],
        {"type": "tactics.end_encounter"},
        {"a": {"wounds": [{"amount": 3, "source": "blast"}]}, "b": {"wounds": []}},
    ),
    Case(
        "untold-aeons",
        {},
        [],
        [
            {
                "type": "untold-aeons.rule",
                "ruling": {"type": "set_value", "character": "a", "field": "damage", "value": 3},
                "reason": "a bite",
            },
            {
                "type": "untold-aeons.rule",
                "ruling": {"type": "set_value", "character": "b", "field": "stress", "value": 2},
                "reason": "a sight",
            },
        ],
        {"type": "untold-aeons.end_encounter"},
        {"a": {"damage": 3, "stress": 0}, "b": {"damage": 0, "stress": 2}},
    ),
    Case(
        "aeonis",
        {},
        [
            {
                "type": "aeonis.add_hexes",
                "hexes": [{"hex": "-1,0"}, {"hex": "-2,0", "kind": "city"}, {"hex": "0,0"}],
            }
        ],
        [
            {
                "type": "aeonis.adjudicate",
                "ruling": {"type": "set_unit_hp", "unit": "a-lord", "hp": 1},  # 3 - 2
                "reason": "an arrow",
            }
        ],
        None,
        {"a": {"lord_hp": 1, "lord_hex": "-1,0"}, "b": {"lord_hp": None, "lord_hex": "0,0"}},
    ),
]


PLACES = {"a": {"lord_hex": "-1,0", "home_city": "-2,0"}, "b": {"lord_hex": "0,0"}}
"""Where the Aeonis members' Lords stand: a side copied under another id stands nowhere."""


def _sheet(ruleset: str, ident: str) -> dict[str, Any]:
    """The ruleset's own example sheet, under another id and name."""
    r = get_ruleset(ruleset)
    rules = r.carry
    assert rules is not None
    example = next(e for e in r.examples if isinstance(e, rules.sheet_type))
    sheet: dict[str, Any] = msgspec.to_builtins(rules.renamed(example, ident, ident.upper()))
    if ruleset == "aeonis":
        sheet.update(PLACES.get(ident, {}))
    return sheet


async def _view(client: Client, campaign: str, gm: dict[str, str]) -> Any:
    return (await client.get(f"/campaigns/{campaign}", headers=gm)).json()


async def _wait_carried(client: Client, campaign: str, gm: dict[str, str]) -> Any:
    for _ in range(200):
        view = await _view(client, campaign, gm)
        if view["encounters"][0]["carried"]:
            return view
        await asyncio.sleep(0.05)
    raise AssertionError("the process manager carried nothing over")


def _conditions(view: Any) -> dict[str, Any]:
    return {m["member"]: m["condition"] for m in view["party"]}


@pytest.mark.parametrize("case", CASES, ids=[c.ruleset for c in CASES])
async def test_two_encounters_in_a_row(client: Client, case: Case) -> None:
    body = {"ruleset": case.ruleset, "name": f"{case.ruleset} saga"}
    created = await posted(client, "/campaigns", body, {})
    campaign, gm = created["campaign_id"], {"Authorization": f"Bearer {created['gm_token']}"}
    commands = f"/campaigns/{campaign}/commands"
    for ident in ("a", "b"):
        add = {"type": "campaign.add_member", "sheet": _sheet(case.ruleset, ident)}
        await posted(client, commands, {"command": add}, gm)
    statblock = {"type": "campaign.add_statblock", "sheet": _sheet(case.ruleset, "brute")}
    await posted(client, commands, {"command": statblock}, gm)

    start = {
        "name": "First",
        "options": case.options,
        "ground": case.ground,
        "members": ["a", "b"],
        "monsters": [{"statblock": "brute", "count": 2}],
    }
    first = await posted(client, f"/campaigns/{campaign}/encounters", start, gm)
    one, gm1 = first["encounter_id"], {"Authorization": f"Bearer {first['gm_token']}"}
    state = (await client.get(f"/encounters/{one}", headers=gm1)).json()["state"]
    assert "brute-2" in msgspec.json.encode(state).decode()
    for command in case.fight:
        await posted(client, f"/encounters/{one}/commands", {"command": command}, gm1)
    if case.end is None:  # no end of its own: the GM carries it over
        await posted(client, f"/campaigns/{campaign}/encounters/{one}/carry-over", None, gm)
        again = await client.post(f"/campaigns/{campaign}/encounters/{one}/carry-over", headers=gm)
        assert again.status_code == 422 and "already carried" in again.json()["detail"]
    else:
        await posted(client, f"/encounters/{one}/commands", {"command": case.end}, gm1)
    view = await _wait_carried(client, campaign, gm)
    carried = _conditions(view)
    for member, fields in case.expected.items():
        assert {k: carried[member][k] for k in fields} == fields, (member, carried[member])

    reason = {"encounter": one, "reason": "checking"}
    await posted(client, commands, {"command": {"type": "campaign.undo_carry_over", **reason}}, gm)
    assert _conditions(await _view(client, campaign, gm)) == {"a": None, "b": None}
    await posted(client, commands, {"command": {"type": "campaign.redo_carry_over", **reason}}, gm)
    assert _conditions(await _view(client, campaign, gm)) == carried

    again = {**start, "name": "Second", "monsters": []}
    second = await posted(client, f"/campaigns/{campaign}/encounters", again, gm)
    two, gm2 = second["encounter_id"], {"Authorization": f"Bearer {second['gm_token']}"}
    game = (await client.get(f"/encounters/{two}", headers=gm2)).json()["state"]["game"]
    ruleset = get_ruleset(case.ruleset)
    rules = ruleset.carry
    assert rules is not None
    options = msgspec.convert(view["options"], rules.options_type)
    left = rules.carry_over(msgspec.convert(game, ruleset.state_type), options)
    for member in ("a", "b"):
        as_json = msgspec.json.decode(msgspec.json.encode(left.characters[member]))
        assert as_json == carried[member], member
