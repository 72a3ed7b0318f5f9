"""Live updates in one process: GET /encounters/{id}/live as Server-Sent Events
with the in-memory channels backend.

Litestar's test client collects a whole response before returning it, so the tests that
use it bound the stream with ``until_version``; the test of following new events serves
the app with uvicorn inside the test's own event loop and reads the stream as it comes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from api.app import create_app
from api.settings import Settings
from tests.e2e.helpers import Client, combatant, command, create, gm_token, inner_events
from tests.scaleout.sse import Message, follow, parse
from tests.support.live import PROTOCOLS, SECRET_CHECK, bearer, serving


async def _live(client: Client, eid: str, query: str, **headers: str) -> list[Message]:
    response = await client.get(f"/encounters/{eid}/live?{query}", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse(response.text.splitlines())


async def _table(client: Client) -> str:
    eid = await create(client, "Live")  # versions 1-2: created, seed committed
    for who in ("aria", "borin", "grak"):  # versions 3-5
        await command(client, eid, combatant(who, 20, ac=10))
    return eid


async def test_the_backlog_after_a_version_is_what_get_events_shows(client: Client) -> None:
    eid = await _table(client)
    messages = await _live(client, eid, "after_version=2&until_version=5")
    assert [m.id for m in messages] == [3, 4, 5]
    listed = (await client.get(f"/encounters/{eid}/events?after_version=2")).json()["events"]
    assert [m.data for m in messages] == listed
    assert [m.event for m in messages] == [e["type"] for e in listed]


async def test_last_event_id_resumes_and_wins_over_the_query(client: Client) -> None:
    eid = await _table(client)
    resumed = await _live(client, eid, "after_version=1&until_version=5", **{"Last-Event-ID": "3"})
    assert [m.id for m in resumed] == [4, 5]
    everything = await _live(client, eid, "until_version=5")
    assert [m.id for m in everything] == [1, 2, 3, 4, 5]
    done = await _live(client, eid, "until_version=5", **{"Last-Event-ID": "5"})
    assert done == []


async def test_resume_points_the_encounter_has_not_reached_are_refused(client: Client) -> None:
    eid = await _table(client)
    ahead = await client.get(f"/encounters/{eid}/live?after_version=9")
    assert ahead.status_code == 404
    assert ahead.json()["current_version"] == 5
    garbled = await client.get(f"/encounters/{eid}/live", headers={"Last-Event-ID": "v3"})
    assert garbled.status_code == 400
    negative = await client.get(f"/encounters/{eid}/live?after_version=-1")
    assert negative.status_code == 400


async def test_a_player_stream_redacts_secret_gm_rolls_until_revealed(client: Client) -> None:
    eid = await _table(client)
    minted = await client.post(f"/encounters/{eid}/tokens", json={"combatants": ["aria"]})
    assert minted.status_code == 201, minted.text
    player = minted.json()["token"]
    secret = await client.post(
        f"/encounters/{eid}/commands", json={"command": SECRET_CHECK, "hidden": True}
    )
    assert secret.status_code == 200, secret.text
    version = secret.json()["version"]
    roll = inner_events(secret.json()["events"])[0]["data"]["rolls"][0]

    def the_envelope(messages: list[Message]) -> dict[str, Any]:
        sealed = [m for m in messages if m.data["type"] == "encounter.sealed"]
        assert [m.id for m in sealed] == [version]
        found: dict[str, Any] = sealed[0].data["data"]
        return found

    def the_roll(messages: list[Message]) -> dict[str, Any]:
        found: dict[str, Any] = the_envelope(messages)["events"][0]["data"]["rolls"][0]
        return found

    query = f"after_version=5&until_version={version}"
    seen = the_envelope(await _live(client, eid, query, **bearer(player)))
    assert "events" not in seen and "salt" not in seen  # the public form alone
    assert the_roll(await _live(client, eid, query))["total"] == roll["total"]  # the GM

    reveal = await client.post(
        f"/encounters/{eid}/rolls/reveal", json={"roll_ids": [roll["roll_id"]]}
    )
    assert reveal.status_code == 200, reveal.text
    shown = the_roll(await _live(client, eid, query, **bearer(player)))
    assert shown["total"] == roll["total"] and "redacted" not in shown


async def test_a_token_of_another_encounter_or_none_is_refused(client: Client) -> None:
    eid = await _table(client)
    other = await create(client, "Other")
    foreign = await client.get(f"/encounters/{eid}/live", headers=bearer(gm_token(client, other)))
    assert foreign.status_code == 401
    assert foreign.headers["www-authenticate"].startswith("Bearer")
    anonymous = httpx.Request("GET", f"http://testserver.local/encounters/{eid}/live")
    response = await client.send(anonymous, auth=None)
    assert response.status_code == 401


@PROTOCOLS
async def test_new_events_follow_the_backlog_without_gap_or_duplicate(
    database_url: str, protocol: type[asyncio.Protocol] | None
) -> None:
    """Small pages (two events) and a poll too slow to matter: every event after the
    backlog reaches the stream through a channel wake-up."""
    settings = Settings(database_url=database_url, live_page=2, live_poll_seconds=60)
    served = serving(create_app(settings), http=protocol)
    async with served as url, httpx.AsyncClient(base_url=url) as http:
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Follow"})
        eid, headers = created.json()["encounter_id"], bearer(created.json()["gm_token"])

        async def send(cmd: dict[str, Any]) -> None:
            response = await http.post(
                f"/encounters/{eid}/commands", json={"command": cmd}, headers=headers
            )
            assert response.status_code == 200, response.text

        for who in ("aria", "borin", "grak"):
            await send(combatant(who, 20, ac=10))
        received: list[int] = []
        async with (
            asyncio.timeout(15),
            http.stream("GET", f"/encounters/{eid}/live?after_version=1", headers=headers) as live,
        ):
            assert live.status_code == 200
            stream = follow(live)
            async for message in stream:
                received.append(message.id)
                if message.id == 5:
                    break
            for n in range(4):
                await send({"type": "generic.damage", "target": "grak", "amount": n + 1})
            async for message in stream:
                received.append(message.id)
                assert message.event == "generic.damaged", message
                if message.id == 9:
                    break
        assert received == list(range(2, 10))


@PROTOCOLS
async def test_an_idle_stream_keeps_alive_and_ends_when_its_token_is_revoked(
    database_url: str, protocol: type[asyncio.Protocol] | None
) -> None:
    settings = Settings(
        database_url=database_url, live_keepalive_seconds=0.2, live_poll_seconds=0.1
    )
    served = serving(create_app(settings), http=protocol)
    async with served as url, httpx.AsyncClient(base_url=url) as http:
        created = await http.post("/encounters", json={"ruleset": "generic", "name": "Revoke"})
        eid, gm = created.json()["encounter_id"], bearer(created.json()["gm_token"])
        await http.post(
            f"/encounters/{eid}/commands", json={"command": combatant("aria", 9)}, headers=gm
        )
        minted = await http.post(
            f"/encounters/{eid}/tokens", json={"combatants": ["aria"]}, headers=gm
        )
        player = minted.json()["token"]
        revoke = f"/encounters/{eid}/tokens/{player.split('.')[0]}"
        lines = await _revoked_while_following(http, eid, player, revoke, gm)
        # The stream ended by itself after the revocation, with every event before it.
        assert [m.id for m in parse(lines)] == [1, 2, 3]


async def _revoked_while_following(
    http: httpx.AsyncClient, eid: str, token: str, revoke: str, gm: dict[str, str]
) -> list[str]:
    """The lines of ``token``'s live stream of the encounter, which the GM revokes (DELETE
    ``revoke``) at its first keep-alive; the stream must end by itself, and the token
    follow nothing after."""
    lines: list[str] = []
    async with (
        asyncio.timeout(10),
        http.stream("GET", f"/encounters/{eid}/live", headers=bearer(token)) as live,
    ):
        async for line in live.aiter_lines():
            lines.append(line)
            if line == ": keepalive" and "-- revoked" not in lines:
                revoked = await http.delete(revoke, headers=gm)
                assert revoked.status_code == 204
                lines.append("-- revoked")
    assert "-- revoked" in lines
    again = await http.get(f"/encounters/{eid}/live", headers=bearer(token))
    assert again.status_code == 401
    return lines


async def test_versions_past_what_postgresql_stores_are_400s(client: Client) -> None:
    eid = await _table(client)
    for query in ("until_version=2147483648", "after_version=2147483648"):
        response = await client.get(f"/encounters/{eid}/live?{query}")
        assert response.status_code == 400, (query, response.text)
    for bad in ("9" * 30, "²".encode(), b"\xb2", b"\xe9"):
        response = await client.get(f"/encounters/{eid}/live", headers={"Last-Event-ID": bad})
        assert response.status_code == 400, (bad, response.text)
        assert "Last-Event-ID" in response.json()["detail"]


async def test_revoking_a_campaign_token_ends_its_live_streams_in_the_campaigns_encounters(
    database_url: str,
) -> None:
    settings = Settings(
        database_url=database_url, live_keepalive_seconds=0.2, live_poll_seconds=0.1
    )
    async with serving(create_app(settings)) as url, httpx.AsyncClient(base_url=url) as http:
        created = await http.post("/campaigns", json={"ruleset": "generic", "name": "Ashes"})
        campaign, gm = created.json()["campaign_id"], bearer(created.json()["gm_token"])
        add = {"command": {"type": "campaign.add_member", "sheet": combatant("aria", 20)}}
        assert (await http.post(f"/campaigns/{campaign}/commands", json=add, headers=gm)).is_success
        minted = await http.post(
            f"/campaigns/{campaign}/tokens", json={"member": "aria"}, headers=gm
        )
        player = minted.json()["token"]
        started = await http.post(
            f"/campaigns/{campaign}/encounters",
            json={"name": "Ambush", "members": ["aria"]},
            headers=gm,
        )
        eid = started.json()["encounter_id"]
        revoke = f"/campaigns/{campaign}/tokens/{minted.json()['token_id']}"
        await _revoked_while_following(http, eid, player, revoke, gm)
