"""Webhooks through the API, delivered by the app's own lanes to a real HTTP
receiver on loopback: order, signatures, retries, pause and resume, redaction, the
Discord format, service-wide webhooks and bad input.

The signature check below is written from docs/webhooks.md, not from the service's code.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest
from litestar.testing import AsyncTestClient
from standardwebhooks import Webhook

from api.app import create_app
from api.settings import Settings
from events.db import Connection
from events.shards import shard_of
from events.webhooks import Position, insert_webhook
from events.write import CommandWrite
from projections.inline import read_model_rows
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant
from service.write.pipeline import CommandPipeline
from service.write.strategy import Outcome
from tests.e2e.helpers import Client, GmTokens, combatant, command, inner_events
from tests.support.databases import create_database, drop_database
from tests.support.receiver import Received, Receiver, receiving
from tests.support.strategies import LockingPath

SERVICE_KEY = "webhook-service-key"
ATTACK = {"type": "generic.attack", "attacker": "grak", "target": "aria", "notation": "1d20+3"}


def verify(secret: str, received: Received, tolerance: int = 300) -> bool:
    """docs/webhooks.md, "Checking a signature", step by step."""
    msg_id = received.headers["webhook-id"]
    timestamp = received.headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance:
        return False
    if secret.startswith("whsec_"):
        key = base64.b64decode(secret[len("whsec_") :])
    else:
        key = secret.encode("utf-8")
    content = f"{msg_id}.{timestamp}.".encode() + received.body
    expected = base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode()
    for candidate in received.headers["webhook-signature"].split(" "):
        version, _, value = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return True
    return False


@pytest.fixture(scope="module")
async def hooks(module_database: str) -> AsyncIterator[Client]:
    settings = Settings(
        database_url=module_database,
        pool_max=4,
        service_key=SERVICE_KEY,
        webhook_allow="127.0.0.1",
        webhook_poll_seconds=0.05,
        webhook_retry_base_seconds=0.05,
        webhook_retry_max_seconds=0.2,
        webhook_max_failures=3,
        webhook_timeout_seconds=0.5,
    )
    async with AsyncTestClient(app=create_app(settings)) as client:
        client.auth = GmTokens()
        yield client


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with receiving(Receiver(hang_seconds=2.0)) as r:
        yield r


async def register(client: Client, eid: str, **body: Any) -> dict[str, Any]:
    r = await client.post(f"/encounters/{eid}/webhooks", json=body)
    assert r.status_code == 201, r.text
    result: dict[str, Any] = r.json()
    return result


async def state(client: Client, eid: str, webhook_id: str) -> dict[str, Any]:
    r = await client.get(f"/encounters/{eid}/webhooks/{webhook_id}")
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def create(client: Client, name: str) -> str:
    """An encounter (this app has a service key, which creating one needs)."""
    r = await client.post(
        "/encounters",
        json={"ruleset": "generic", "name": name},
        headers={"Authorization": f"Bearer {SERVICE_KEY}"},
    )
    assert r.status_code == 201, r.text
    return str(r.json()["encounter_id"])


async def settled(client: Client, eid: str, webhook_id: str, version: int) -> dict[str, Any]:
    """The webhook's state once its checkpoint reached ``version`` (a receiver hears of
    an event just before the service records the delivery)."""
    for _ in range(200):
        found = await state(client, eid, webhook_id)
        if found["checkpoint"]["version"] >= version:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"the checkpoint stayed at {found['checkpoint']}")


async def table(client: Client, name: str) -> str:
    eid = await create(client, name)
    for who in ("aria", "grak"):
        await command(client, eid, combatant(who, 30, ac=10))
    return eid


async def head(client: Client, eid: str) -> int:
    return int((await client.get(f"/encounters/{eid}")).json()["version"])


def versions(received: list[Received]) -> list[int]:
    return [r.json()["version"] for r in received]


async def test_every_event_arrives_in_order_signed_and_matches_the_api(
    hooks: Client, receiver: Receiver
) -> None:
    eid = await table(hooks, "In order")
    created = await register(hooks, eid, url=receiver.url)
    secret, webhook = created["secret"], created["webhook"]
    assert secret.startswith("whsec_")
    for _ in range(3):
        await command(hooks, eid, ATTACK)
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n)
    await asyncio.sleep(0.2)  # nothing more, nothing twice
    got = receiver.accepted
    assert versions(got) == list(range(1, n + 1))
    assert all(verify(secret, r) for r in got)
    for r in got:  # the specification's own library agrees
        Webhook(secret).verify(r.body, r.headers)
    assert len({r.headers["webhook-id"] for r in got}) == n
    # What players read: the NPCs' hit points are theirs only under npc_health "exact".
    watcher = await hooks.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    players = {"Authorization": f"Bearer {watcher.json()['token']}"}
    events = (await hooks.get(f"/encounters/{eid}/events", headers=players)).json()["events"]
    for r, event in zip(got, events, strict=True):
        body = r.json()
        assert body["webhook_id"] == webhook["webhook_id"] and body["audience"] == "players"
        assert body["delivery_id"] == r.headers["webhook-id"]
        assert body["encounter_name"] == "In order" and body["text"]
        shown = body["event"]
        assert {k: shown[k] for k in ("type", "data", "hash", "stream_version")} == {
            k: event[k] for k in ("type", "data", "hash", "stream_version")
        }
    after = await settled(hooks, eid, webhook["webhook_id"], n)
    assert after["checkpoint"]["version"] == n and after["delivered"] == n
    assert after["failures"] == 0 and after["paused"] is False and after["last_error"] is None
    listing = await hooks.get(f"/encounters/{eid}/webhooks")
    assert secret not in listing.text and "secret" not in listing.json()["webhooks"][0]

    # A forged or altered request fails the documented check.
    tampered = Received(got[0].headers, got[0].body.replace(b"In order", b"In 0rder"), 204)
    assert not verify(secret, tampered)
    assert not verify(
        "whsec_" + base64.b64encode(b"another key of 32 bytes.........").decode(), got[0]
    )


async def test_a_chosen_plain_secret_signs_and_is_never_shown(
    hooks: Client, receiver: Receiver
) -> None:
    eid = await table(hooks, "Plain secret")
    secret = "correct horse battery staple"
    created = await register(hooks, eid, url=receiver.url, secret=secret)
    assert "secret" not in created
    await receiver.wait_for(lambda: len(receiver.accepted) >= 3)
    assert all(verify(secret, r) for r in receiver.accepted)
    for r in receiver.accepted:
        Webhook(secret.encode()).verify(r.body, r.headers)
    assert not verify("correct horse battery stapler", receiver.accepted[0])


async def test_a_failing_then_hanging_receiver_gets_the_same_delivery_until_it_takes_it(
    hooks: Client, receiver: Receiver
) -> None:
    eid = await table(hooks, "Flaky")
    receiver.script.extend(["fail", "hang"])
    webhook = (await register(hooks, eid, url=receiver.url))["webhook"]
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n)
    first_three = receiver.received[:3]
    assert [r.status for r in first_three] == [500, 500, 204]  # the hang timed out
    assert len({r.headers["webhook-id"] for r in first_three}) == 1
    assert len({r.body for r in first_three}) == 1
    assert versions(receiver.accepted) == list(range(1, n + 1))
    after = await settled(hooks, eid, webhook["webhook_id"], n)
    assert after["failures"] == 0 and after["delivered"] == n and after["paused"] is False
    listed = await hooks.get(
        f"/encounters/{eid}/webhooks/{webhook['webhook_id']}/deliveries", params={"limit": 500}
    )
    deliveries = listed.json()["deliveries"]
    assert [(d["version"], d["attempts"], d["status"]) for d in reversed(deliveries)] == [
        (v, 3 if v == 1 else 1, 204) for v in range(1, n + 1)
    ]
    assert deliveries[-1]["delivery_id"] == first_three[0].headers["webhook-id"]


async def test_a_webhook_pauses_after_its_failures_and_resumes_from_its_checkpoint(
    hooks: Client, receiver: Receiver
) -> None:
    eid = await table(hooks, "Pause")
    webhook_id = (await register(hooks, eid, url=receiver.url))["webhook"]["webhook_id"]
    await receiver.wait_for(lambda: len(receiver.accepted) >= 3)
    receiver.script.extend(["fail"] * 3)
    await command(hooks, eid, ATTACK)
    await receiver.wait_for(lambda: len(receiver.received) >= 6)
    await asyncio.sleep(0.5)
    paused = await state(hooks, eid, webhook_id)
    assert paused["paused"] is True and paused["failures"] == 3
    assert paused["last_error"] == "HTTP 500: receiver says no"
    assert paused["checkpoint"]["version"] == 3
    assert len(receiver.received) == 6  # nothing is tried while paused

    resumed = await hooks.post(f"/encounters/{eid}/webhooks/{webhook_id}/resume")
    assert resumed.status_code == 200 and resumed.json()["paused"] is False
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n)
    assert versions(receiver.accepted) == list(range(1, n + 1))
    failed_ids = {r.headers["webhook-id"] for r in receiver.received[3:6]}
    assert failed_ids == {receiver.accepted[3].headers["webhook-id"]}
    assert (await settled(hooks, eid, webhook_id, n))["failures"] == 0


async def test_player_webhooks_see_what_players_see_and_gm_webhooks_see_all(
    hooks: Client,
) -> None:
    eid = await table(hooks, "Secrets")
    player = await hooks.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    sam = {"Authorization": f"Bearer {player.json()['token']}"}
    async with (
        receiving(Receiver(), "/players") as players,
        receiving(Receiver(), "/gm") as gm,
        receiving(Receiver(), "/attacks") as attacks,
    ):
        await register(hooks, eid, url=players.url)
        await register(hooks, eid, url=gm.url, gm_only=True)
        await register(hooks, eid, url=attacks.url, event_types=["generic.attack_rolled"])
        await command(hooks, eid, ATTACK)
        hidden = await hooks.post(
            f"/encounters/{eid}/commands", json={"command": ATTACK, "hidden": True}
        )
        roll = inner_events(hidden.json()["events"])[0]["data"]["rolls"][0]
        secret_version = hidden.json()["events"][0]["stream_version"]
        await hooks.post(
            f"/encounters/{eid}/notes", json={"text": "Grak has 2 HP", "gm_only": True}
        )
        await hooks.post(f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [roll["roll_id"]]})
        n = await head(hooks, eid)
        await players.wait_for(lambda: len(players.accepted) >= n)
        await gm.wait_for(lambda: len(gm.accepted) >= n)
        await attacks.wait_for(lambda: len(attacks.accepted) >= 1)

    by_version = {r.json()["version"]: r.json() for r in players.accepted}
    gm_by_version = {r.json()["version"]: r.json() for r in gm.accepted}
    # Each player delivery is exactly what a player read of /events showed at that version.
    for version, body in by_version.items():
        page = await hooks.get(
            f"/encounters/{eid}/events",
            params={"after_version": version - 1, "limit": 1, "at": version},
            headers=sam,
        )
        assert body["event"] == page.json()["events"][0], version
        assert body["audience"] == "players"
    seen = by_version[secret_version]["event"]["data"]
    assert "events" not in seen and "salt" not in seen  # the envelope's public form
    assert str(roll["total"]) not in by_version[secret_version]["text"]
    gm_seen = inner_events([gm_by_version[secret_version]["event"]])
    assert gm_seen[0]["data"]["rolls"][0]["total"] == roll["total"]
    assert gm_by_version[secret_version]["audience"] == "gm"
    texts = [b["text"] for b in by_version.values()]
    assert not any("Grak has 2 HP" in t for t in texts)
    assert any("Grak has 2 HP" in b["text"] for b in gm_by_version.values())
    assert by_version[n]["event"]["type"] == "dice.rolls_revealed"
    # The type filter matches the type as players see it.
    # A sealed attack is an encounter.sealed event: the filter does not see its type.
    assert [r.json()["event"]["type"] for r in attacks.accepted] == ["generic.attack_rolled"]
    assert [r.json()["version"] for r in attacks.accepted] == [
        v for v, b in by_version.items() if b["event"]["type"] == "generic.attack_rolled"
    ]


async def test_discord_webhooks_post_the_log_line_without_mentions(
    hooks: Client, receiver: Receiver
) -> None:
    eid = await table(hooks, "@everyone fights")
    await register(hooks, eid, url=receiver.url, format="discord")
    await command(hooks, eid, ATTACK)
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n)
    watcher = await hooks.post(f"/encounters/{eid}/tokens", json={"role": "spectator"})
    players = {"Authorization": f"Bearer {watcher.json()['token']}"}
    log = (await hooks.get(f"/encounters/{eid}/log", headers=players)).json()["entries"]
    bodies = [r.json() for r in receiver.accepted]
    for body, entry in zip(bodies, log, strict=True):
        assert set(body) == {"content", "username", "allowed_mentions"}
        assert body["allowed_mentions"] == {"parse": []}
        assert body["content"].startswith(f"**@everyone fights** #{entry['version']} [")
        assert body["content"].endswith(entry["text"])


async def test_service_wide_webhooks_need_the_key_and_start_from_now(
    hooks: Client, receiver: Receiver
) -> None:
    before = await table(hooks, "Before")
    key = {"Authorization": f"Bearer {SERVICE_KEY}"}
    refused = await hooks.post("/webhooks", json={"url": receiver.url})
    assert refused.status_code == 401 and refused.json()["status"] == 401
    created = await hooks.post("/webhooks", json={"url": receiver.url}, headers=key)
    assert created.status_code == 201, created.text
    webhook_id = created.json()["webhook"]["webhook_id"]
    try:
        one, two = await table(hooks, "One"), await table(hooks, "Two")
        await command(hooks, one, ATTACK)
        await command(hooks, two, ATTACK)
        await command(hooks, before, ATTACK)
        last = {e: await head(hooks, e) for e in (one, two, before)}
        per_encounter: dict[str, list[int]] = {}

        def arrived() -> bool:
            per_encounter.clear()
            for r in receiver.accepted:
                body = r.json()
                per_encounter.setdefault(body["encounter_id"], []).append(body["version"])
            return all(per_encounter.get(e, [0])[-1] == v for e, v in last.items())

        await receiver.wait_for(arrived)
        assert per_encounter[one] == list(range(1, last[one] + 1))
        assert per_encounter[two] == list(range(1, last[two] + 1))
        # "now" is the oldest open transaction's start: an event that committed just
        # before the registration may come too, never one after it is missed.
        tail = per_encounter[before]
        assert tail == list(range(tail[0], last[before] + 1))
        listed = await hooks.get("/webhooks", headers=key)
        assert [w["webhook_id"] for w in listed.json()["webhooks"]] == [webhook_id]
    finally:
        gone = await hooks.delete(f"/webhooks/{webhook_id}", headers=key)
        assert gone.status_code == 204


async def test_service_wide_webhooks_pass_a_campaigns_events_by(
    hooks: Client, receiver: Receiver
) -> None:
    key = {"Authorization": f"Bearer {SERVICE_KEY}"}
    created = await hooks.post("/webhooks", json={"url": receiver.url}, headers=key)
    assert created.status_code == 201, created.text
    webhook_id = created.json()["webhook"]["webhook_id"]
    try:
        started = await hooks.post(
            "/campaigns", json={"ruleset": "generic", "name": "Saga"}, headers=key
        )
        campaign = started.json()["campaign_id"]
        sheet = {"type": "generic.add_combatant", "id": "aria", "name": "Aria", "hp": 9}
        added = await hooks.post(
            f"/campaigns/{campaign}/commands",
            json={"command": {"type": "campaign.add_member", "sheet": sheet}},
            headers=key,
        )
        assert added.status_code == 200, added.text
        after = await table(hooks, "After the campaign")
        await command(hooks, after, ATTACK)
        last = await head(hooks, after)

        def arrived() -> bool:
            versions = [
                r.json()["version"] for r in receiver.accepted if r.json()["encounter_id"] == after
            ]
            return bool(versions) and versions[-1] == last

        await receiver.wait_for(arrived)
        assert all(r.json()["encounter_id"] != campaign for r in receiver.accepted)
        listed = (await hooks.get(f"/webhooks/{webhook_id}", headers=key)).json()
        assert listed["paused_at"] is None and listed["failures"] == 0
    finally:
        gone = await hooks.delete(f"/webhooks/{webhook_id}", headers=key)
        assert gone.status_code == 204


@pytest.mark.parametrize(
    ("body", "status", "slug"),
    [
        ({"url": "http://10.0.0.7/hook"}, 422, "webhook-target-refused"),
        ({"url": "http://[::ffff:10.0.0.7]/hook"}, 422, "webhook-target-refused"),
        ({"url": "http://[::1]:9/hook"}, 422, "webhook-target-refused"),
        ({"url": "http://169.254.169.254/latest"}, 422, "webhook-target-refused"),
        ({"url": "ftp://127.0.0.1/hook"}, 422, "webhook-target-refused"),
        ({"url": "http://user:pw@127.0.0.1/hook"}, 422, "webhook-target-refused"),
        ({"url": "http://127.0.0.1/h", "event_types": ["generic.nope"]}, 422, "unknown-event-type"),
        (
            {"url": "http://127.0.0.1/h", "secret": "whsec_not*base64!!"},
            422,
            "invalid-webhook-secret",
        ),
        ({"url": "http://127.0.0.1/h", "format": "xml"}, 400, "bad-request"),
        ({"url": "http://127.0.0.1/h", "secret": "short"}, 400, "bad-request"),
        ({"url": "http://127.0.0.1/h", "colour": "red"}, 400, "bad-request"),
    ],
)
async def test_bad_webhooks_are_refused_as_problems_and_nothing_is_stored(
    hooks: Client, body: dict[str, Any], status: int, slug: str
) -> None:
    eid = await create(hooks, "Bad input")
    r = await hooks.post(f"/encounters/{eid}/webhooks", json=body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["type"].endswith("/" + slug)
    assert (await hooks.get(f"/encounters/{eid}/webhooks")).json() == {"webhooks": []}


async def test_only_the_gm_manages_webhooks(hooks: Client, receiver: Receiver) -> None:
    eid = await table(hooks, "GM only")
    minted = await hooks.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    player = {"Authorization": f"Bearer {minted.json()['token']}"}
    for method, path in [
        ("POST", "/webhooks"),
        ("GET", "/webhooks"),
        ("DELETE", "/webhooks/00000000-0000-0000-0000-000000000000"),
    ]:
        r = await hooks.request(
            method, f"/encounters/{eid}{path}", headers=player, json={"url": receiver.url}
        )
        assert r.status_code == 403, (method, path, r.text)
    webhook_id = (await register(hooks, eid, url=receiver.url))["webhook"]["webhook_id"]
    other = await create(hooks, "Another table")
    assert (await hooks.get(f"/encounters/{other}/webhooks/{webhook_id}")).status_code == 404
    assert (await hooks.delete(f"/encounters/{other}/webhooks/{webhook_id}")).status_code == 404
    elsewhere = await hooks.get(f"/encounters/{other}/webhooks/{webhook_id}/deliveries")
    assert elsewhere.status_code == 404
    mine = await hooks.get(f"/encounters/{eid}/webhooks/{webhook_id}/deliveries", headers=player)
    assert mine.status_code == 403
    assert (await hooks.delete(f"/encounters/{eid}/webhooks/{webhook_id}")).status_code == 204
    assert (await hooks.delete(f"/encounters/{eid}/webhooks/{webhook_id}")).status_code == 404


async def test_the_target_is_checked_again_before_every_attempt(
    hooks: Client, receiver: Receiver, module_database: str
) -> None:
    """A webhook whose host is no longer allowed (the list changed, or the name now
    resolves elsewhere) fails with the reason and pauses; nothing is sent there."""
    eid = await table(hooks, "Moved target")
    conn = await asyncpg.connect(module_database)
    try:
        row = await insert_webhook(
            conn,
            webhook_id=uuid4(),
            encounter_id=UUID(eid),
            url=receiver.url.replace("127.0.0.1", "127.0.0.2"),
            event_types=[],
            format="json",
            secret="a secret of sixteen+",
            gm_only=False,
            start=Position(),
        )
    finally:
        await conn.close()
    for _ in range(100):
        found = await state(hooks, eid, str(row.webhook_id))
        if found["paused"]:
            break
        await asyncio.sleep(0.05)
    assert found["paused"] is True and found["delivered"] == 0
    assert "127.0.0.2, an internal address not allowed" in found["last_error"]
    assert receiver.received == []


EMBEDDING_INTERNAL_IPV4 = {
    # An outside test registered each of these under the default 'public' list.
    "64:ff9b::169.254.169.254": "169.254.169.254",
    "64:ff9b::10.0.0.1": "10.0.0.1",
    "64:ff9b:1::a00:1": "10.0.0.1",
    "2002:a9fe:a9fe::": "169.254.169.254",
    "::10.0.0.1": "10.0.0.1",
    "::127.0.0.1": "127.0.0.1",
    "::ffff:0:10.0.0.1": "10.0.0.1",
}


@pytest.fixture(scope="module")
async def public_db(postgres_url: str) -> AsyncIterator[str]:
    """A database of its own for the app with the default allow-list: its delivery lanes
    must not judge the loopback webhooks of the other app."""
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)


@pytest.fixture(scope="module")
async def public_hooks(public_db: str) -> AsyncIterator[Client]:
    """An app with the default allow-list, ``public``."""
    settings = Settings(
        database_url=public_db,
        pool_max=4,
        service_key=SERVICE_KEY,
        webhook_poll_seconds=0.05,
        webhook_retry_base_seconds=0.05,
        webhook_retry_max_seconds=0.2,
        webhook_max_failures=2,
        webhook_timeout_seconds=0.5,
    )
    assert settings.webhook_allow == "public"
    async with AsyncTestClient(app=create_app(settings)) as client:
        client.auth = GmTokens()
        yield client


async def test_ipv6_addresses_carrying_internal_ipv4_addresses_are_refused_at_registration(
    public_hooks: Client,
) -> None:
    eid = await create(public_hooks, "IPv6 doors")
    for address, inner in EMBEDDING_INTERNAL_IPV4.items():
        r = await public_hooks.post(
            f"/encounters/{eid}/webhooks", json={"url": f"http://[{address}]:8080/hook"}
        )
        assert r.status_code == 422, (address, r.text)
        assert r.json()["type"].endswith("/webhook-target-refused")
        assert inner in r.json()["detail"] and "an internal address" in r.json()["detail"]
    assert (await public_hooks.get(f"/encounters/{eid}/webhooks")).json() == {"webhooks": []}


async def test_ipv6_addresses_carrying_internal_ipv4_addresses_are_refused_before_each_attempt(
    public_hooks: Client, public_db: str
) -> None:
    """Stored webhooks (an older process or another allow-list registered them) pause
    with the reason, having sent nothing."""
    eid = await table(public_hooks, "Stored IPv6 doors")
    conn = await asyncpg.connect(public_db)
    try:
        rows = {
            address: await insert_webhook(
                conn,
                webhook_id=uuid4(),
                encounter_id=UUID(eid),
                url=f"http://[{address}]:9/hook",
                event_types=[],
                format="json",
                secret="a secret of sixteen+",
                gm_only=False,
                start=Position(),
            )
            for address in EMBEDDING_INTERNAL_IPV4
        }
    finally:
        await conn.close()
    for address, row in rows.items():
        for _ in range(200):
            found = await state(public_hooks, eid, str(row.webhook_id))
            if found["paused"]:
                break
            await asyncio.sleep(0.05)
        assert found["paused"] is True and found["delivered"] == 0, address
        inner = EMBEDDING_INTERNAL_IPV4[address]
        assert f"{inner}" in found["last_error"] and "an internal address" in found["last_error"]


class HeldLocked(LockingPath):
    """The real locking path, holding its transaction open after the append (its events
    have their global positions and transaction id) until released."""

    def __init__(self) -> None:
        super().__init__()
        self.holding, self.release = asyncio.Event(), asyncio.Event()

    async def write_locked(self, conn: Connection, write: CommandWrite) -> Outcome:
        written = await super().write_locked(conn, write)
        self.holding.set()
        await self.release.wait()
        return written


class HeldPipeline(CommandPipeline):
    def __init__(self, pool: asyncpg.Pool) -> None:
        held = HeldLocked()
        super().__init__(pool, read_model_rows, strategy=held)
        self.holding, self.release = held.holding, held.release


def newer(receiver: Receiver) -> list[tuple[str, int]]:
    """(encounter, version) of the accepted events after each table's setup."""
    found = [(r.json()["encounter_id"], r.json()["version"]) for r in receiver.accepted]
    return [(e, v) for e, v in found if v > 4]


async def _in_shard(client: Client, shard: int) -> str:
    """A new table whose encounter is in ``shard``."""
    while True:
        eid = await create(client, "Neighbour")
        if shard_of(UUID(eid)) == shard:
            for who in ("aria", "grak"):
                await command(client, eid, combatant(who, 30, ac=10))
            return eid


async def test_a_service_wide_webhook_never_skips_an_event_that_commits_late(
    hooks: Client, receiver: Receiver, module_database: str
) -> None:
    """A command of ``late`` holds its transaction open.  ``early``, in the same shard,
    commits after it and its events come after: by shard it queues for the shard's
    count; by transaction it commits at once, and the reading waits below the open
    transaction."""
    late = await table(hooks, "Late")
    early = await _in_shard(hooks, shard_of(UUID(late)))
    key = {"Authorization": f"Bearer {SERVICE_KEY}"}
    created = await hooks.post("/webhooks", json={"url": receiver.url}, headers=key)
    webhook_id = created.json()["webhook"]["webhook_id"]
    pool = await asyncpg.create_pool(module_database, min_size=1, max_size=2)
    held = HeldPipeline(pool)
    try:
        command_of_late = asyncio.create_task(
            held.execute(
                UUID(late),
                CommandEnvelope(command=AddCombatant(id="zed", name="Zed", hp=5)),
                actor=Actor(role="gm"),
            )
        )
        await asyncio.wait_for(held.holding.wait(), 10)
        # Through a pipeline of its own (another process): the test client would wait
        # for the queued command inside this event loop.
        command_of_early = asyncio.create_task(
            CommandPipeline(pool, read_model_rows).execute(
                UUID(early),
                CommandEnvelope(command=AddCombatant(id="eve", name="Eve", hp=5)),
                actor=Actor(role="gm"),
            )
        )
        by_shard = await pool.fetchval("SELECT by_shard FROM event_order")
        await asyncio.sleep(0.5)
        assert command_of_early.done() is not by_shard, "queued by transaction, or not by shard"
        # Nothing of either is read past the open transaction.
        assert [(e, v) for e, v in newer(receiver) if e in (late, early)] == []
        held.release.set()
        await command_of_late
        await command_of_early
        await command(hooks, late, ATTACK)
        expected = {e: await head(hooks, e) for e in (late, early)}
        count = sum(v - 4 for v in expected.values())  # four events each before the webhook
        await receiver.wait_for(lambda: len(newer(receiver)) >= count)
        await asyncio.sleep(0.3)
    finally:
        held.release.set()
        await pool.close()
        await hooks.delete(f"/webhooks/{webhook_id}", headers=key)
    got = newer(receiver)
    assert sorted(got) == sorted(
        (eid, v) for eid, last in expected.items() for v in range(5, last + 1)
    )
    assert got.index((late, 5)) < got.index((early, 5))  # its transaction took the shard first
    for eid in (late, early):
        mine = [v for e, v in got if e == eid]
        assert mine == sorted(mine)


async def test_an_encounter_webhook_can_start_from_now(hooks: Client, receiver: Receiver) -> None:
    eid = await table(hooks, "From now")
    before = await head(hooks, eid)
    webhook = (await register(hooks, eid, url=receiver.url, start="now"))["webhook"]
    assert webhook["checkpoint"]["version"] == before
    await command(hooks, eid, ATTACK)
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n - before)
    await asyncio.sleep(0.2)
    assert versions(receiver.accepted) == list(range(before + 1, n + 1))


async def test_a_busy_receiver_is_waited_for_without_counting_failures(
    hooks: Client, receiver: Receiver
) -> None:
    """429 with Retry-After: the receiver asks for patience; five in a row (more than the
    three failures that pause this app's webhooks) neither pause nor count."""
    eid = await table(hooks, "Busy")
    receiver.script.extend(["busy"] * 5)
    webhook_id = (await register(hooks, eid, url=receiver.url))["webhook"]["webhook_id"]
    n = await head(hooks, eid)
    await receiver.wait_for(lambda: len(receiver.accepted) >= n)
    assert [r.status for r in receiver.received[:6]] == [429] * 5 + [204]
    assert len({r.headers["webhook-id"] for r in receiver.received[:6]}) == 1
    after = await settled(hooks, eid, webhook_id, n)
    assert after["paused"] is False and after["failures"] == 0 and after["delivered"] == n


async def test_an_encounter_has_at_most_ten_webhooks(hooks: Client, receiver: Receiver) -> None:
    eid = await create(hooks, "Crowded")
    for _ in range(10):
        await register(hooks, eid, url=receiver.url, event_types=["encounter.note_added"])
    r = await hooks.post(f"/encounters/{eid}/webhooks", json={"url": receiver.url})
    assert r.status_code == 409 and r.json()["type"].endswith("/too-many-webhooks")
    assert len((await hooks.get(f"/encounters/{eid}/webhooks")).json()["webhooks"]) == 10
