"""Webhook delivery by real service processes: SIGKILL in the middle of
deliveries loses and reorders nothing, and two processes delivering the same webhooks
send each event in order, a duplicate only ever under the id it first had."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from tests.reliability.http import Table, command_mix, send_command, setup_table
from tests.support.databases import create_database, drop_database
from tests.support.processes import running_service
from tests.support.receiver import Received, Receiver, receiving

TABLES = 3


@pytest.fixture
def webhook_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """What the service processes inherit: loopback allowed, quick polls and retries."""
    for name, value in {
        "AEON_WEBHOOK_ALLOW": "127.0.0.1",
        "AEON_WEBHOOK_POLL_SECONDS": "0.05",
        "AEON_WEBHOOK_RETRY_BASE_SECONDS": "0.05",
        "AEON_WEBHOOK_RETRY_MAX_SECONDS": "0.5",
        "AEON_WEBHOOK_TIMEOUT_SECONDS": "2",
    }.items():
        monkeypatch.setenv(name, value)
    yield


@pytest.fixture
async def own_database(postgres_url: str) -> AsyncIterator[str]:
    url = await create_database(postgres_url)
    yield url
    await drop_database(postgres_url, url)


async def add_webhook(url: str, table: Table, target: str, **extra: Any) -> str:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        r = await http.post(
            f"/encounters/{table.encounter_id}/webhooks",
            json={"url": target, **extra},
            headers=table.headers,
        )
        assert r.status_code == 201, r.text
        return str(r.json()["webhook"]["webhook_id"])


async def play(url: str, tables: list[Table], commands: int) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:

        async def one(table: Table) -> None:
            for n in range(commands):
                r = await send_command(http, table, command_mix(n))
                assert r.status_code == 200, r.text

        await asyncio.gather(*(one(t) for t in tables))


async def heads(url: str, tables: list[Table]) -> dict[str, int]:
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        found = {}
        for t in tables:
            r = await http.get(f"/encounters/{t.encounter_id}", headers=t.headers)
            found[t.encounter_id] = int(r.json()["version"])
        return found


def by_webhook(received: list[Received]) -> dict[str, list[Received]]:
    grouped: dict[str, list[Received]] = {}
    for r in received:
        grouped.setdefault(r.json()["webhook_id"], []).append(r)
    return grouped


def all_delivered(receiver: Receiver, expected: dict[str, int], webhooks: int) -> bool:
    """Each of the ``webhooks`` webhooks has had every version of its stream accepted."""
    got: dict[str, set[int]] = {}
    encounter: dict[str, str] = {}
    for r in receiver.accepted:
        body = r.json()
        got.setdefault(body["webhook_id"], set()).add(body["version"])
        encounter[body["webhook_id"]] = body["encounter_id"]
    return len(got) == webhooks and all(
        versions >= set(range(1, expected[encounter[w]] + 1)) for w, versions in got.items()
    )


def assert_in_order_without_loss(receiver: Receiver, expected: dict[str, int]) -> int:
    """Per webhook: accepted versions never go back except to repeat the one just
    accepted (at least once), every version is there, and each version always travels
    under one id and one body. Returns the number of duplicates."""
    duplicates = 0
    for webhook_id, received in by_webhook(receiver.accepted).items():
        encounter = received[0].json()["encounter_id"]
        seen: dict[int, tuple[str, bytes]] = {}
        highest = 0
        for r in received:
            version = r.json()["version"]
            identity = (r.headers["webhook-id"], r.body)
            if version in seen:
                duplicates += 1
                assert seen[version] == identity, f"{webhook_id}: v{version} changed its id"
                assert version == highest, f"{webhook_id}: v{version} came back after v{highest}"
            else:
                assert version == highest + 1, f"{webhook_id}: v{version} after v{highest}"
                seen[version] = identity
                highest = version
        assert highest == expected[encounter], (webhook_id, highest, expected[encounter])
        ids = [ident for ident, _ in seen.values()]
        assert len(set(ids)) == len(ids)
    return duplicates


async def test_kill_9_during_deliveries_loses_and_reorders_nothing(
    own_database: str, webhook_env: None
) -> None:
    async with receiving(Receiver(delay=0.02)) as receiver:
        with running_service(own_database) as service:
            tables = [await setup_table(service.url, f"kill {i}") for i in range(TABLES)]
            for t in tables:
                await add_webhook(service.url, t, receiver.url)
            await play(service.url, tables, 15)
            await receiver.wait_for(lambda: len(receiver.accepted) >= 20)
            await asyncio.to_thread(service.kill9)
        before_restart = len(receiver.received)
        with running_service(own_database) as service:
            await play(service.url, tables, 3)
            expected = await heads(service.url, tables)
            assert before_restart < sum(expected.values()), "the kill must come mid-delivery"
            await receiver.wait_for(lambda: all_delivered(receiver, expected, TABLES), 90)
            await asyncio.sleep(0.3)
    assert_in_order_without_loss(receiver, expected)


async def test_two_processes_deliver_each_event_once_in_order(
    own_database: str, webhook_env: None
) -> None:
    async with receiving(Receiver(delay=0.005)) as receiver:
        with (
            running_service(own_database) as first,
            running_service(own_database) as second,
        ):
            tables = [await setup_table(first.url, f"two {i}") for i in range(TABLES)]
            for t in tables:
                await add_webhook(first.url, t, receiver.url)
                await add_webhook(second.url, t, receiver.url, gm_only=True)
            await asyncio.gather(play(first.url, tables, 8), play(second.url, tables, 8))
            expected = await heads(first.url, tables)
            await receiver.wait_for(lambda: all_delivered(receiver, expected, 2 * TABLES), 90)
            await asyncio.sleep(0.3)
    assert len(by_webhook(receiver.accepted)) == 2 * TABLES
    assert assert_in_order_without_loss(receiver, expected) == 0
    assert len(receiver.received) == len(receiver.accepted) == 2 * sum(expected.values())
