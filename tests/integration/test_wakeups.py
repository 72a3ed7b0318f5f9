"""Wake-ups through PostgreSQL NOTIFY: what is sent arrives as sent, however
many wake-ups one notice carries and whatever a token id holds."""

from __future__ import annotations

import asyncio
from uuid import UUID, uuid4

import asyncpg
import msgspec

from api.live.postgres_link import Notice, notices
from events.wakeups import CHANNEL, MAX_PAYLOAD, notify


async def test_a_notice_arrives_as_sent_even_with_quotes(
    pool: asyncpg.Pool, database_url: str
) -> None:
    received: asyncio.Queue[str] = asyncio.Queue()
    listener = await asyncpg.connect(database_url)
    try:
        await listener.add_listener(CHANNEL, lambda *args: received.put_nowait(args[3]))
        encounter = uuid4()
        payloads = list(notices({encounter: 7}, [(encounter, "o'brien\"; --")]))
        for payload in payloads:
            await notify(pool, payload)
        got = [await asyncio.wait_for(received.get(), 5) for _ in payloads]
    finally:
        await listener.close()
    assert got == payloads
    notice = msgspec.json.decode(got[0], type=Notice)
    assert notice.w == {str(encounter): 7}
    assert [tuple(r) for r in notice.r] == [(str(encounter), "o'brien\"; --")]


def test_many_wake_ups_are_split_under_the_payload_limit() -> None:
    versions = {UUID(int=n): n for n in range(1, 251)}
    payloads = list(notices(versions, []))
    assert len(payloads) == 3
    assert all(len(p.encode()) <= MAX_PAYLOAD for p in payloads)
    seen: dict[str, int] = {}
    for payload in payloads:
        seen.update(msgspec.json.decode(payload, type=Notice).w)
    assert seen == {str(e): v for e, v in versions.items()}
