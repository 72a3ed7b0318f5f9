"""``/metrics``: scraped before and after a scripted encounter, the counters
moved by exactly what the encounter did: events appended by ruleset and type, commands
accepted and refused by reason class, live subscribers, messages and wake-ups, rate
limits, verify, state cache, group commit and snapshot loads."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.http.request_log import command_outcome
from api.settings import Settings
from tests.e2e.helpers import combatant
from tests.scaleout.sse import follow
from tests.support.live import serving
from tests.support.metrics import moved, scrape


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_scripted_encounter_moves_every_counter_by_what_it_did(database_url: str) -> None:
    settings = Settings(database_url=database_url, snapshot_every=5, live_poll_seconds=30)
    async with serving(create_app(settings)) as url, httpx.AsyncClient(base_url=url) as http:
        before = await scrape(http)
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Metrics"})
        assert created.status_code == 201
        eid, gm = created.json()["encounter_id"], bearer(created.json()["gm_token"])
        commands = f"/encounters/{eid}/commands"

        async def send(cmd: dict[str, Any], expect: int, **headers: str) -> None:
            response = await http.post(commands, json={"command": cmd}, headers={**gm, **headers})
            assert response.status_code == expect, response.text

        for who in ("aria", "borin", "grak"):
            await send(combatant(who, 20, ac=10), 200)
        await send({"type": "generic.damage", "target": "nobody", "amount": 1}, 422)  # rule
        await send(combatant("zed", 5), 409, **{"If-Match": '"1"'})  # conflict
        await send(combatant("zed", 5), 401, Authorization="Bearer made.up")  # auth
        bad = await http.post(commands, json={"command": {"type": "no.such"}}, headers=gm)
        assert bad.status_code == 400  # invalid
        minted = await http.post(
            f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=gm
        )
        assert minted.status_code == 201  # not a command
        assert (await http.get(f"/encounters/{eid}/verify", headers=gm)).json()["ok"]

        # A live stream: counted while open; the events it sends; the wake-up it got.
        async with (
            asyncio.timeout(15),
            http.stream("GET", f"/encounters/{eid}/live?after_version=4", headers=gm) as live,
        ):
            stream = follow(live)
            assert (await anext(stream)).id == 5
            during = await scrape(http)
            await send({"type": "generic.damage", "target": "grak", "amount": 3}, 200)
            assert (await anext(stream)).id == 6
        for _ in range(200):  # until the server notices the closed stream (10 s at most)
            after = await scrape(http)
            if after.value("aeon_live_subscribers") == before.value("aeon_live_subscribers"):
                break
            await asyncio.sleep(0.05)
        events = (await http.get(f"/encounters/{eid}/events", headers=gm)).json()["events"]

    appended = Counter(e["type"] for e in events)
    assert moved(before, after, "aeon_events_appended_total", "event_type") == appended
    assert moved(before, after, "aeon_events_appended_total", "ruleset") == {"generic": 6}
    assert moved(before, after, "aeon_commands_total", "outcome") == {
        "accepted": 5,  # the creation, three combatants, the damage
        "rule": 1,
        "conflict": 1,
        "auth": 1,
        "invalid": 1,
    }
    assert during.value("aeon_live_subscribers") == before.value("aeon_live_subscribers") + 1
    assert after.value("aeon_live_subscribers") == before.value("aeon_live_subscribers")
    sent = after.value("aeon_live_messages_total") - before.value("aeon_live_messages_total")
    assert sent == 2
    woken = after.value("aeon_live_wakeups_total") - before.value("aeon_live_wakeups_total")
    assert woken >= 1
    published = moved(before, after, "aeon_live_published_total", "result")
    assert published.get("ok", 0) >= 1 and "failed" not in published
    assert moved(before, after, "aeon_verifications_total", "result") == {"ok": 1}
    # Every accepted write but the creation went through the group commit (the common
    # path on cached state): four writes, in groups of one here.
    assert (
        after.value("aeon_group_commit_size_count") - before.value("aeon_group_commit_size_count")
        == 4
    )
    cache = moved(before, after, "aeon_state_cache_lookups_total", "result")
    assert cache.get("hit", 0) >= 4
    # HTTP metrics by route template, never by encounter id.
    assert not any(eid in str(labels) for _, labels, _ in after.samples)
    route = "/encounters/{encounter_id}/commands"
    posted = after.value("aeon_http_requests_total", path=route, method="POST") - before.value(
        "aeon_http_requests_total", path=route, method="POST"
    )
    assert posted == 8
    live_route = "/encounters/{encounter_id}/live"
    assert after.value("aeon_http_requests_total", path=live_route) >= 1
    assert after.value("aeon_http_request_duration_seconds_count", path=live_route) == 0
    assert after.value("aeon_pool_connections", state="max") >= settings.pool_max


async def test_rate_limited_commands_are_counted_by_their_reason(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, rate_limit_per_minute=3))
    async with AsyncTestClient(app=app) as http:
        before = await scrape(http)  # the address's budget: scrape, create, scrape
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Rate"})
        eid, gm = created.json()["encounter_id"], bearer(created.json()["gm_token"])
        statuses = [
            (
                await http.post(
                    f"/encounters/{eid}/commands",
                    json={"command": combatant(f"c{n}", 3)},
                    headers=gm,
                )
            ).status_code
            for n in range(4)
        ]
        assert statuses == [200, 200, 200, 429]  # the GM token's own budget
        after = await scrape(http)
    assert moved(before, after, "aeon_commands_total", "outcome") == {"accepted": 4, "rate": 1}
    limited = after.value("aeon_rate_limited_total") - before.value("aeon_rate_limited_total")
    assert limited == 1


async def test_metrics_can_be_turned_off(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, metrics=False))
    async with AsyncTestClient(app=app) as http:
        assert (await http.get("/metrics")).status_code == 404
        assert (await http.get("/health/live")).status_code == 200


def test_outcomes_name_the_reason_class_of_each_refusal() -> None:
    assert command_outcome(200) == command_outcome(201) == "accepted"
    assert command_outcome(422) == "rule"
    assert command_outcome(409) == "conflict"
    assert command_outcome(401) == command_outcome(403) == "auth"
    assert command_outcome(429) == "rate"
    assert command_outcome(400) == command_outcome(413) == "invalid"
    assert command_outcome(404) == "not_found"
    assert command_outcome(503) == "unavailable"
    assert command_outcome(500) == "failed"
