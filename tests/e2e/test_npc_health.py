"""NPC health on every path a player or spectator reads (docs/secrecy.md, "NPC health").

Written the way the attack was made: a player at a table with ``npc_health`` hidden (or
descriptor) reads the log in every format, the events, the statistics, a live stream and
what a players' webhook receives, and looks for the NPC's hit points.  None may be
there; the GM still reads them all, ``exact`` still shows them, and the player
character's own numbers follow the same rule on every path.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from service.registry import get_ruleset
from tests.e2e.helpers import Client, GmTokens, command
from tests.e2e.npc_health_tables import TABLES, Table, generic_combatant
from tests.support.receiver import Receiver, receiving

SERVICE_KEY = "npc-health-service-key"
_NOT_HEALTH = re.compile(r"\d{4}-\d\d-\d\dT[\d:.]+Z?|\"global_position\":\d+")
"""Numbers in a body that are no combatant's: timestamps and global positions."""


@pytest.fixture(scope="module")
async def table_client(module_database: str) -> AsyncIterator[Client]:
    settings = Settings(
        database_url=module_database,
        pool_max=4,
        service_key=SERVICE_KEY,
        webhook_allow="127.0.0.1",
        webhook_poll_seconds=0.05,
        webhook_retry_base_seconds=0.05,
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        client.auth = GmTokens()
        yield client


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with receiving(Receiver()) as r:
        yield r


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _has_number(body: str, number: int) -> bool:
    """Whether ``number`` appears as a whole number (not inside an id, a timestamp or the
    position of an event among every encounter's)."""
    body = _NOT_HEALTH.sub("", body)
    return re.search(rf"(?<![\w.-]){number}(?![\w])", body) is not None


async def _play(client: Client, table: Table, npc_health: str, receiver: Receiver) -> str:
    eid = await _opened(client, table, npc_health)
    hook = await client.post(f"/encounters/{eid}/webhooks", json={"url": receiver.url})
    assert hook.status_code == 201, hook.text
    for step in table.steps:
        await command(client, eid, step.command, manual=step.manual)
    return eid


async def _opened(client: Client, table: Table, npc_health: str) -> str:
    created = await client.post(
        "/encounters",
        json={
            "ruleset": table.ruleset,
            "name": f"{table.ruleset} under {npc_health}",
            "npc_health": npc_health,
            **({"options": table.options} if table.options else {}),
        },
        headers=_bearer(SERVICE_KEY),
    )
    assert created.status_code == 201, created.text
    return str(created.json()["encounter_id"])


async def _reads(client: Client, eid: str, headers: dict[str, str]) -> dict[str, str]:
    """Everything a reader with ``headers`` reads of the encounter, by path."""
    bodies = {}
    head = (await client.get(f"/encounters/{eid}", headers=headers)).json()["version"]
    for path in (
        "",
        "/log",
        "/log.txt",
        "/log.md",
        f"/log?at={head}",
        "/events",
        f"/events?at={head}",
        "/stats",
        f"/live?after_version=0&until_version={head}",
    ):
        response = await client.get(f"/encounters/{eid}{path}", headers=headers)
        assert response.status_code == 200, (path, response.text)
        bodies[path or "state"] = response.text
    return bodies


async def _webhook_bodies(client: Client, eid: str, receiver: Receiver) -> dict[str, str]:
    head = (await client.get(f"/encounters/{eid}")).json()["version"]
    await receiver.wait_for(
        lambda: sum(1 for r in receiver.accepted if r.json()["encounter_id"] == eid) >= head
    )
    mine = [r for r in receiver.accepted if r.json()["encounter_id"] == eid]
    assert all(r.json()["audience"] == "players" for r in mine)
    return {f"webhook #{r.json()['version']}": r.body.decode() for r in mine}


async def _player_and_spectator(client: Client, eid: str, pc: str) -> list[dict[str, str]]:
    player = await client.post(f"/encounters/{eid}/tokens", json={"combatants": [pc]})
    spectator = await client.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    assert player.status_code == spectator.status_code == 201
    return [_bearer(player.json()["token"]), _bearer(spectator.json()["token"])]


def _npc_events(table: Table, body: str) -> list[dict[str, Any]]:
    """The NPC's events in an ``/events`` page: those naming it in an owner field."""
    ruleset = get_ruleset(table.ruleset)
    found = []
    for event in json.loads(body)["events"]:
        for spec in ruleset.health_fields.get(event["type"], ()):
            if table.npc in (event["data"].get(o) for o in spec.owners):
                found.append(event)
    return found


def _present(data: Any, path: str) -> bool:
    """Whether the field at ``path`` (``Ruleset.health_fields`` syntax) is anywhere in
    ``data``."""
    name, _, rest = path.partition(".")
    key = name.removesuffix("[]").removesuffix("{}")
    if not isinstance(data, dict) or key not in data:
        return False
    if not rest:
        return True
    inner = data[key]
    items = inner if name.endswith("[]") else inner.values() if name.endswith("{}") else [inner]
    return any(_present(item, rest) for item in items)


@pytest.mark.parametrize("table", TABLES, ids=[t.ruleset for t in TABLES])
@pytest.mark.parametrize("npc_health", ["hidden", "descriptor"])
async def test_a_player_finds_no_npc_health_on_any_path(
    table_client: Client, receiver: Receiver, table: Table, npc_health: str
) -> None:
    client = table_client
    eid = await _play(client, table, npc_health, receiver)
    readers = await _player_and_spectator(client, eid, table.pc)
    webhooks = await _webhook_bodies(client, eid, receiver)
    for headers in readers:
        bodies = {**await _reads(client, eid, headers), **webhooks}
        for where, body in bodies.items():
            for number in table.npc_numbers:
                assert not _has_number(body, number), f"{number} in {where}: {body}"
        # The player character's numbers: shown to everyone at the table, on every path.
        paths = ("/log", "/log.txt", "/events", "/live?after_version=0")
        for path in paths if table.state_counts_down else ("state", *paths):
            body = next(b for w, b in bodies.items() if w.startswith(path))
            assert _has_number(body, table.pc_numbers[-1]), f"{path} hides the PC: {body}"
        events = _npc_events(table, bodies["/events"])
        assert events, "the NPC's events are listed"
        for event in events:
            for spec in get_ruleset(table.ruleset).health_fields[event["type"]]:
                assert not _present(event["data"], spec.path), (spec.path, event)
        log = bodies["/log.txt"]
        said = any(word in log for word in table.npc_words)
        assert said is (npc_health == "descriptor"), log
    gm = await _reads(client, eid, {})
    shown = ("/log", "/log.txt", "/log.md", "/events")
    for where in shown if table.state_counts_down else (*shown, "state"):
        assert all(_has_number(gm[where], n) for n in table.npc_numbers), (where, gm[where])


@pytest.mark.parametrize("table", TABLES, ids=[t.ruleset for t in TABLES])
async def test_exact_shows_every_number_to_players(
    table_client: Client, receiver: Receiver, table: Table
) -> None:
    client = table_client
    eid = await _play(client, table, "exact", receiver)
    player, spectator = await _player_and_spectator(client, eid, table.pc)
    for headers in (player, spectator):
        bodies = await _reads(client, eid, headers)
        for where in ("/log", "/log.txt", "/log.md", "/events"):
            for number in (*table.npc_numbers, table.pc_numbers[-1]):
                assert _has_number(bodies[where], number), (where, number, bodies[where])


async def test_a_combatant_is_a_player_character_on_every_path_or_on_none(
    table_client: Client, receiver: Receiver
) -> None:
    """The player character's numbers follow its token: while a live player token is
    bound to it they are shown on every path; once that token is revoked, on none."""
    client = table_client
    table = TABLES[0]
    eid = await _play(client, table, "hidden", receiver)
    _, spectator = await _player_and_spectator(client, eid, table.pc)
    bound = await _reads(client, eid, spectator)
    for where, body in bound.items():
        if where != "/stats":
            assert _has_number(body, table.pc_numbers[-1]), (where, body)
    tokens = (await client.get(f"/encounters/{eid}/tokens")).json()["tokens"]
    token_id = next(t["token_id"] for t in tokens if t["role"] == "player")
    revoked = await client.delete(f"/encounters/{eid}/tokens/{token_id}")
    assert revoked.status_code in (200, 204), revoked.text
    unbound = await _reads(client, eid, spectator)
    for where, body in unbound.items():
        for number in table.pc_numbers:
            assert not _has_number(body, number), (where, number, body)


async def test_a_players_own_attack_does_not_answer_with_the_npcs_hit_points(
    table_client: Client, receiver: Receiver
) -> None:
    """The answer to a player's own command is a path too: an attack on the NPC answers
    with the damage the public roll shows, not the NPC's hit points after."""
    client = table_client
    eid = await _play(client, TABLES[0], "hidden", receiver)
    claws = {"claws": {"notation": "1d20+100", "damage": "1d4"}}
    await command(client, eid, {**generic_combatant("vex", 611), "attacks": claws})
    await command(client, eid, {**generic_combatant("brute", 913), "stats": {"ac": 10}})
    player, _ = await _player_and_spectator(client, eid, "vex")
    attack = {"type": "generic.attack", "attacker": "vex", "target": "brute", "using": "claws"}
    for prefer in ({}, {"Prefer": "return=representation"}):
        answered = await client.post(
            f"/encounters/{eid}/commands", json={"command": attack}, headers={**player, **prefer}
        )
        assert answered.status_code == 200, answered.text
        damaged = [e for e in answered.json()["events"] if e["type"] == "generic.damaged"]
        assert damaged and all("hp_after" not in e["data"] for e in damaged), answered.text
        assert not any(_has_number(answered.text, hp) for hp in range(900, 914)), answered.text


async def test_an_opened_secret_shows_no_npc_health_to_players(
    table_client: Client, receiver: Receiver
) -> None:
    """The GM's hidden damage to an NPC, revealed: players then read the envelope's inner
    events, and those follow ``npc_health`` like any event (no ``hp_after``), on the
    events, the live stream and a players' webhook; the GM still reads the number."""
    client = table_client
    eid = await _play(client, TABLES[0], "hidden", receiver)
    await command(client, eid, generic_combatant("brute", 913))
    player, spectator = await _player_and_spectator(client, eid, TABLES[0].pc)
    hidden = {"type": "generic.damage", "target": "brute", "notation": "1d4"}
    sealed = await client.post(
        f"/encounters/{eid}/commands",
        json={"command": hidden, "manual_dice": [[3]], "hidden": True},
    )
    assert sealed.status_code == 200, sealed.text
    revealed = await client.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": ["s1"]})
    assert revealed.status_code == 200, revealed.text
    webhooks = await _webhook_bodies(client, eid, receiver)
    for headers in (player, spectator):
        bodies = {**await _reads(client, eid, headers), **webhooks}
        for where, body in bodies.items():
            assert not _has_number(body, 910), f"910 in {where}: {body}"
        envelope = next(
            e for e in json.loads(bodies["/events"])["events"] if e["type"] == "encounter.sealed"
        )
        (damaged,) = [e for e in envelope["data"]["events"] if e["type"] == "generic.damaged"]
        assert "hp_after" not in damaged["data"] and damaged["data"]["amount"] == 3
    gm = await _reads(client, eid, {})
    assert _has_number(gm["/events"], 910)


_VARIES = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # ids
    r"|[0-9a-f]{64}|[0-9a-f]{32}"  # hashes, commitments, correlation ids
    r"|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:\d\d)?"  # timestamps
    r"|\"global_position\":\d+|\"token_id\":\"[^\"]*\""
)
"""What differs between any two encounters, secret or not."""
SECRET_NUMBERS = [t for t in TABLES if t.npc_elsewhere]
"""The tables whose NPC has a number of its own the GM keeps secret (all but TACTICS)."""


@pytest.mark.parametrize("table", SECRET_NUMBERS, ids=[t.ruleset for t in SECRET_NUMBERS])
@pytest.mark.parametrize("npc_health", ["hidden", "descriptor"])
async def test_two_worlds_whose_npc_numbers_differ_read_the_same_to_players(
    table_client: Client, table: Table, npc_health: str
) -> None:
    """The NPC's numbers are the GM's secret: two tables alike but for them (its hit
    points, wounds or damage) read the same, byte for byte, to a player and a spectator
    on every path, once what differs between any two encounters is set aside."""
    worlds = []
    for steps in (table.steps, table.other_world()):
        eid = await _opened(table_client, table, npc_health)
        for step in steps:
            await command(table_client, eid, step.command, manual=step.manual)
        seen = []
        for headers in await _player_and_spectator(table_client, eid, table.pc):
            bodies = await _reads(table_client, eid, headers)
            seen.append({path: _VARIES.sub("~", body) for path, body in bodies.items()})
        worlds.append(seen)
    assert table.steps != table.other_world()
    for reader, (one, other) in enumerate(zip(*worlds, strict=True)):
        for path in one:
            assert one[path] == other[path], ("player", "spectator")[reader] + " reads " + path
