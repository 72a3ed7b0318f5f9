"""Bad input gets a precise RFC 9457 problem and appends nothing."""

from __future__ import annotations

import uuid

import pytest

from tests.e2e.helpers import Client, combatant, command, create, gm_token

PROBLEM = "application/problem+json"


async def _version(client: Client, eid: str) -> int:
    return int((await client.get(f"/encounters/{eid}")).json()["version"])


@pytest.fixture
async def encounter(client: Client) -> str:
    eid = await create(client)
    await command(client, eid, combatant("alice", 10, ac=12))
    await command(client, eid, combatant("goblin", 7, ac=11))
    return eid


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        (b'{"command": {"type": "generic.next_turn"', 400, "truncated"),
        (b'{"command": {"type": "generic.next_turn", "extra": 1}}', 400, "extra"),
        (
            b'{"command": {"type": "generic.damage", "target": "alice", "amount": "five"}}',
            400,
            "int",
        ),
        (b'{"command": {"type": "generic.fly"}}', 400, "generic.fly"),
        (b'{"command": {"type": "generic.next_turn"}, "unknown": true}', 400, "unknown"),
        (b"[1, 2, 3]", 400, "object"),
        (b"\xff\xfe not utf-8", 400, ""),
    ],
)
async def test_malformed_bodies_are_400_and_append_nothing(
    client: Client, encounter: str, body: bytes, status: int, fragment: str
) -> None:
    before = await _version(client, encounter)
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    problem = response.json()
    assert problem["status"] == status and problem["title"]
    assert fragment.lower() in response.text.lower()
    assert await _version(client, encounter) == before


async def test_oversized_body_is_413(client: Client, encounter: str) -> None:
    response = await client.post(
        f"/encounters/{encounter}/commands",
        content=b'{"command": {"type": "generic.next_turn"}, "x": "' + b"a" * 200_000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.headers["content-type"].startswith(PROBLEM)


async def test_unknown_ids_are_404_for_the_service_and_401_for_anyone_else(
    client: Client, service_client: Client
) -> None:
    missing = uuid.uuid4()
    for path in ("", "/events", "/log", "/rolls", "/verify", "/rounds/1"):
        response = await service_client.get(f"/encounters/{missing}{path}")
        assert response.status_code == 404, path
        assert str(missing) in response.json()["detail"]
        # Without a token of that encounter nobody learns whether it exists.
        assert (await client.get(f"/encounters/{missing}{path}")).status_code == 401
    response = await service_client.post(
        f"/encounters/{missing}/commands", json={"command": {"type": "generic.next_turn"}}
    )
    assert response.status_code == 404
    assert (await client.get("/rulesets/chess")).status_code == 404
    assert (await client.get("/encounters/not-a-uuid")).status_code in (400, 404)


async def test_rule_violation_is_422_in_words_and_appends_nothing(
    client: Client, encounter: str
) -> None:
    before = await _version(client, encounter)
    problem = await command(
        client, encounter, {"type": "generic.heal", "target": "alice", "amount": 3}, expect=422
    )
    assert problem["type"].endswith("/rule-violation")
    assert "Alice" in problem["detail"]
    bad_dice = await command(
        client,
        encounter,
        {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "goblin",
            "notation": "1000000d6",
        },
        expect=422,
    )
    assert "MAX_DICE" in bad_dice["detail"] or "1000" in bad_dice["detail"]
    too_few = await command(
        client,
        encounter,
        {
            "type": "generic.attack",
            "attacker": "alice",
            "target": "goblin",
            "notation": "1d20",
            "damage": "1d6",
        },
        manual=[[20]],
        expect=422,
    )
    assert "manual" in too_few["detail"]
    assert await _version(client, encounter) == before


async def test_if_match_stale_is_409_with_current_version(client: Client, encounter: str) -> None:
    current = await _version(client, encounter)
    ok = await command(
        client,
        encounter,
        {"type": "generic.damage", "target": "goblin", "amount": 1},
        headers={"If-Match": f'"{current}"'},
    )
    assert ok["version"] == current + 1
    problem = await command(
        client,
        encounter,
        {"type": "generic.damage", "target": "goblin", "amount": 1},
        headers={"If-Match": f'"{current}"'},
        expect=409,
    )
    assert problem["current_version"] == current + 1
    bad = await command(
        client,
        encounter,
        {"type": "generic.next_turn"},
        headers={"If-Match": "yesterday"},
        expect=400,
    )
    assert "If-Match" in bad["detail"]


async def test_idempotency_key_appends_once(client: Client, encounter: str) -> None:
    before = await _version(client, encounter)
    cmd = {"type": "generic.attack", "attacker": "alice", "target": "goblin", "notation": "1d20+3"}
    first = await command(client, encounter, cmd, headers={"Idempotency-Key": "swing-1"})
    again = await command(client, encounter, cmd, headers={"Idempotency-Key": "swing-1"})
    assert first == again
    assert await _version(client, encounter) == before + len(first["events"])
    other = await command(
        client,
        encounter,
        {**cmd, "notation": "1d20+4"},
        headers={"Idempotency-Key": "swing-1"},
        expect=422,
    )
    assert "swing-1" in other["detail"]


async def test_create_refuses_unknown_ruleset_and_bad_options(client: Client) -> None:
    response = await client.post("/encounters", json={"ruleset": "chess", "name": "x"})
    assert response.status_code == 422 and "generic" in response.json()["detail"]
    response = await client.post(
        "/encounters",
        json={"ruleset": "generic", "name": "x", "options": {"initiative_notation": 5}},
    )
    assert response.status_code == 422
    response = await client.post("/encounters", json={"ruleset": "generic", "name": ""})
    assert response.status_code == 400


async def test_lists_page_with_cursor(service_client: Client) -> None:
    for i in range(3):
        await create(service_client, f"page-{i}")
    first = (await service_client.get("/encounters", params={"limit": 2})).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    second = (
        await service_client.get("/encounters", params={"limit": 2, "cursor": first["next_cursor"]})
    ).json()
    assert {i["encounter_id"] for i in first["items"]}.isdisjoint(
        i["encounter_id"] for i in second["items"]
    )
    assert (await service_client.get("/encounters", params={"limit": 5000})).status_code == 400
    bad_cursor = await service_client.get("/encounters", params={"cursor": "garbage!"})
    assert bad_cursor.status_code == 400


async def test_without_a_service_key_a_token_lists_only_its_own_encounter(
    client: Client,
) -> None:
    mine, theirs = await create(client, "mine"), await create(client, "theirs")
    token = gm_token(client, mine)
    listed = await client.get("/encounters", headers={"Authorization": f"Bearer {token}"})
    assert [i["encounter_id"] for i in listed.json()["items"]] == [mine]
    assert theirs not in listed.text
    anonymous = await client.get("/encounters")
    assert anonymous.status_code == 401
    assert "token" in anonymous.json()["detail"]


async def test_openapi_lists_every_command_and_event_type(client: Client) -> None:
    from service.core_events import CORE_EVENT_TYPES
    from service.registry import all_command_types, all_event_types

    schema = (await client.get("/schema/openapi.json")).text
    for struct in (*all_command_types(), *all_event_types(), *CORE_EVENT_TYPES):
        assert f'"{struct.__struct_config__.tag}"' in schema, struct


async def test_health(client: Client) -> None:
    assert (await client.get("/health/live")).json()["status"] == "ok"
    ready = await client.get("/health/ready")
    assert ready.status_code == 200 and ready.json()["checks"]["postgres"] == "ok"


async def test_malformed_version_headers_are_400s_that_name_the_header(client: Client) -> None:
    eid = await create(client, "headers")
    for bad in ("²".encode(), b"\xb2", "9" * 5000, "7" * 11):
        response = await client.post(
            f"/encounters/{eid}/commands",
            json={"command": combatant("x", 5)},
            headers={"If-Match": bad},
        )
        assert response.status_code == 400, (bad, response.text)
        assert "If-Match" in response.json()["detail"]
        assert len(response.text) < 1000  # a 5,000-digit header is not echoed back


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer tok_nope.not-a-secret"}, {"Authorization": "Basic eDp5"}],
    ids=["no token", "wrong token", "malformed"],
)
async def test_401_comes_before_any_other_refusal(
    client: Client, encounter: str, headers: dict[str, str]
) -> None:
    """docs/api.md: the token is checked before anything else, so a caller without one
    learns nothing from how the service reads the rest of the request."""
    commands = f"/encounters/{encounter}/commands"
    good = b'{"command": {"type": "generic.next_turn"}}'
    bad_requests = [
        ("POST", commands, b'{"command": {"type": "generic.next_turn"', JSON),  # 400
        ("POST", commands, b'{"command": {"type": "generic.fly"}}', JSON),  # 400
        ("POST", commands, b'{"a": 1, "a": 2}', JSON),  # 400, repeated key
        ("POST", commands, b'{"x": "' + b"a" * 200_000 + b'"}', JSON),  # 413
        ("POST", commands, good, {"content-type": "text/plain"}),  # 415
        ("POST", commands, good, {**JSON, "If-Match": "seven"}),  # 400
        ("POST", f"/encounters/{encounter}/undo", b"", {"If-Match": "W/x"}),  # 400
        ("GET", f"/encounters/{encounter}?at=abc", b"", {}),  # 400
        ("GET", f"/encounters/{encounter}?at=0", b"", {}),  # 400
        ("GET", f"/encounters/{encounter}/events?at=abc&limit=0", b"", {}),  # 400
        ("GET", f"/encounters/{encounter}/log?at=abc", b"", {}),  # 400
        ("GET", f"/encounters/{encounter}/stats?at=abc", b"", {}),  # 400
    ]
    before = await _version(client, encounter)
    for method, path, body, extra in bad_requests:
        r = await client.request(
            method, path, content=body, headers={**extra, **headers}, auth=None
        )
        assert r.status_code == 401, (method, path, extra, r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith(PROBLEM)
        assert r.headers["www-authenticate"].startswith("Bearer")
    assert await _version(client, encounter) == before


async def test_a_command_of_another_ruleset_is_a_422_naming_the_encounters_ruleset(
    client: Client, encounter: str
) -> None:
    """A command of another ruleset (an Aeonisk check sent to a generic encounter) is not
    bad input but a command this encounter's rules do not have, whether or not its fields
    would fit the other ruleset."""
    before = await _version(client, encounter)
    check = {
        "type": "aeonisk.check",
        "character": "alice",
        "label": "Morale",
        "attribute": "agility",
        "skill": "athletics",
        "dc": 20,
    }
    for path, body in [
        ("/commands", {"command": {"type": "aeonisk.check"}}),
        ("/commands", {"command": {"type": "aeonisk.check", "notation": "1d20"}}),
        ("/commands", {"command": check}),
        ("/commands", {"command": check, "manual_dice": [[3]]}),
        ("/requests", {"command": check, "note": "may I?"}),
    ]:
        r = await client.post(f"/encounters/{encounter}{path}", json=body)
        assert r.status_code == 422, (path, r.text)
        assert r.headers["content-type"].startswith(PROBLEM)
        assert "aeonisk.check" in r.json()["detail"] and "'generic'" in r.json()["detail"]
    assert await _version(client, encounter) == before
