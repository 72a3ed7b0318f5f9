"""Strict input: JSON types as documented, one value per key, JSON only, and
modifiers bounded like notation constants.  Each refusal is a problem document naming
what was wrong, and appends nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import Client, combatant, command, create

PROBLEM = "application/problem+json"


async def _version(client: Client, eid: str) -> int:
    return int((await client.get(f"/encounters/{eid}")).json()["version"])


@pytest.fixture
async def encounter(client: Client) -> str:
    eid = await create(client)
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 7, ac=11))
    return eid


CHECK = '{"command": {"type": "generic.check", "combatant": "alice", "notation": "1d6"}, %s}'
ADD = '{"command": {"type": "generic.add_combatant", "id": "orc", "name": "Orc", "hp": %s}}'


@pytest.mark.parametrize(
    ("body", "key", "words"),
    [
        (ADD % '"7"', "command.hp", "Expected `int`, got `str`"),
        (ADD % "7.0", "command.hp", "Expected `int`, got `float`"),
        (
            CHECK % '"manual_dice": [["4"]]',
            "manual_dice[0][0]",
            "Expected `int`, got `str`",
        ),
        (
            CHECK % '"hidden": "yes"',
            "hidden",
            "Expected `bool`, got `str`",
        ),
    ],
)
async def test_a_value_of_another_json_type_is_a_400_naming_the_field(
    client: Client, encounter: str, body: str, key: str, words: str
) -> None:
    before = await _version(client, encounter)
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=body.encode(),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["errors"] == [{"message": words, "source": "body", "key": key}]
    assert f"`{key}`" in problem["detail"]
    assert await _version(client, encounter) == before


async def test_a_key_given_twice_is_a_400(client: Client, encounter: str) -> None:
    before = await _version(client, encounter)
    body = b'{"command": {"type": "generic.damage", "target": "alice", "amount": 1, "amount": 9}}'
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400, response.text
    assert "'amount' appears twice" in response.json()["detail"]
    assert await _version(client, encounter) == before
    # The same key in two different objects is fine.
    fine = b'{"command": {"type": "generic.damage", "target": "alice", "amount": 1}}'
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=fine,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
async def test_a_body_that_is_not_sent_as_json_is_a_415(
    client: Client, encounter: str, content_type: str | None
) -> None:
    before = await _version(client, encounter)
    headers = {"content-type": content_type} if content_type else {}
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=b'{"command": {"type": "generic.next_turn"}}',
        headers=headers,
    )
    assert response.status_code == 415, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["type"].endswith("/unsupported-media-type")
    assert "application/json" in problem["detail"]
    assert await _version(client, encounter) == before


async def test_json_with_a_charset_and_bodiless_posts_are_accepted(
    client: Client, encounter: str
) -> None:
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=b'{"command": {"type": "generic.next_turn"}}',
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert response.status_code in (200, 422), response.text
    # An optional body left out needs no Content-Type (undo takes back the last command).
    response = await client.post(f"/encounters/{encounter}/undo")
    assert response.status_code == 200, response.text


async def test_encounter_creation_is_strict_too(client: Client) -> None:
    response = await client.post(
        "/encounters",
        content=b'{"ruleset": "generic", "name": "x", "allow_player_dice": 1}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["key"] == "allow_player_dice"


@pytest.mark.parametrize("value", [2**64, -(2**63), 1_000_001])
async def test_modifiers_are_bounded_like_notation_constants(
    client: Client, encounter: str, value: int
) -> None:
    before = await _version(client, encounter)
    attack: dict[str, Any] = {
        "type": "generic.attack",
        "attacker": "alice",
        "target": "goblin",
        "notation": "1d20",
        "modifiers": [{"label": "blessing", "value": value}],
    }
    response = await client.post(f"/encounters/{encounter}/commands", json={"command": attack})
    assert response.status_code in (400, 422), response.text
    detail = response.json()["detail"]
    assert "1000000" in detail or "out of range" in detail.lower(), detail
    assert await _version(client, encounter) == before
    attack["modifiers"] = [{"label": "blessing", "value": 1_000_000}]
    await command(client, encounter, attack)


@pytest.mark.parametrize(
    ("ruleset", "options", "key", "words"),
    [
        ("generic", {"initiative_notation": "banana"}, "initiative_notation", "not dice notation"),
        ("generic", {"initiative_notation": "1d20+9999999"}, "initiative_notation", "constant"),
        ("generic", {"allow_negative_hp": "yes"}, "allow_negative_hp", "Expected `bool`"),
        ("generic", {"initiative_dice": "1d20"}, "initiative_dice", "unknown field"),
        ("scentfinder", {"house_dice": "banana"}, "house_dice", "matching regex"),
        ("tactics", {"press_penalty_step": "2"}, "press_penalty_step", "got `str`"),
        ("untold-aeons", {"sprint_multiple": 5.0}, "sprint_multiple", "Expected `int`"),
        ("aeonisk", {"hit_rule": "banana"}, "hit_rule", "Invalid enum value 'banana'"),
        ("aeonis", {"attack_ap_cost": 99}, "attack_ap_cost", "Expected `int` <= 20"),
    ],
)
async def test_options_are_checked_at_creation_and_named(
    client: Client, ruleset: str, options: dict[str, Any], key: str, words: str
) -> None:
    response = await client.post(
        "/encounters", json={"ruleset": ruleset, "name": "x", "options": options}
    )
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["type"].endswith("/invalid-options")
    assert f"option {key!r} of ruleset {ruleset!r}" in problem["detail"]
    assert words in problem["detail"]
    assert problem["errors"][0]["key"] == f"options.{key}"
