"""Wake-ups through PostgreSQL NOTIFY: what is sent arrives as sent, however
many wake-ups one notice carries and whatever a token id holds."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from uuid import UUID, uuid4

import asyncpg
import msgspec

from api.live.hub import Hub
from api.live.interest import Interest
from api.live.postgres_link import Notice, PostgresLink, announcements, notices
from api.live.redis_link import LinkStatus
from events.wakeups import CHANNEL, MAX_PAYLOAD, notify
from tests.support.live import eventually


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


class _Channel:
    """Every notice on the channel, decoded, as a raw listener sees them."""

    def __init__(self) -> None:
        self.seen: list[Notice] = []

    def on_notice(self, *args: object) -> None:
        self.seen.append(msgspec.json.decode(str(args[3]), type=Notice))

    def woke(self, encounter: UUID) -> list[int]:
        return [n.w[str(encounter)] for n in self.seen if str(encounter) in n.w]

    def hellos(self) -> set[str]:
        return {n.p for n in self.seen if n.h}


def _link(database_url: str, **timing: float) -> PostgresLink:
    hub = Hub(page=100, poll_seconds=60, keepalive_seconds=60, backlog=10)
    return PostgresLink(database_url, hub, LinkStatus("postgres"), **timing)


@contextlib.asynccontextmanager
async def _listening(database_url: str) -> AsyncIterator[_Channel]:
    channel = _Channel()
    listener = await asyncpg.connect(database_url)
    try:
        await listener.add_listener(CHANNEL, channel.on_notice)
        yield channel
    finally:
        await listener.close()


async def test_a_wake_up_goes_out_only_while_another_process_follows_the_encounter(
    pool: asyncpg.Pool, database_url: str
) -> None:
    a, b = _link(database_url), _link(database_url)
    encounter = uuid4()
    async with _listening(database_url) as channel, a.running(pool), b.running(pool):
        await eventually(lambda: {a.interest.me, b.interest.me} <= channel.hellos())
        await a.publish({encounter: 1}, [])  # nobody follows it: no NOTIFY
        async with b.watch(encounter):
            await eventually(lambda: a.interest.followed_elsewhere(encounter))
            assert not b.interest.followed_elsewhere(encounter)  # its own feed is woken locally
            await a.publish({encounter: 2}, [])
            await eventually(lambda: channel.woke(encounter) == [2])
        await eventually(lambda: not a.interest.followed_elsewhere(encounter))
        await a.publish({encounter: 3}, [])
        revoked = [(encounter, "t1")]
        await a.publish({encounter: 4}, revoked)  # a revocation goes out, its wake-up not
        await eventually(lambda: any(n.r for n in channel.seen))
    assert channel.woke(encounter) == [2]


async def test_what_the_others_know_ends_as_what_a_process_follows_in_any_order(
    pool: asyncpg.Pool, database_url: str
) -> None:
    """A whole set asked for by another process's hello, a feed that starts just after,
    a feed that ends and one that starts again at once: the announcements are sent in
    flight together, and the others must still end up knowing the feeds that run."""
    a, b = _link(database_url), _link(database_url)
    asked, again = uuid4(), uuid4()
    async with _listening(database_url) as channel, a.running(pool), b.running(pool):
        await eventually(lambda: {a.interest.me, b.interest.me} <= channel.hellos())
        hello = next(announcements("a-third-process", [], whole=True, hello=True))
        async with b.watch(again):
            pass
        b._on_notice(None, 0, CHANNEL, hello)  # as b's listener receives it
        async with b.watch(asked), b.watch(again):
            both = (asked, again)
            await eventually(lambda: all(a.interest.followed_elsewhere(e) for e in both))
            await asyncio.sleep(0.2)  # and it stays so once all in flight has arrived
            assert all(a.interest.followed_elsewhere(e) for e in both)


async def test_a_process_that_starts_later_learns_what_the_others_follow(
    pool: asyncpg.Pool, database_url: str
) -> None:
    early, late = _link(database_url), _link(database_url)
    encounter = uuid4()
    # the raw listener is up before early connects, so it cannot miss early's hello
    async with _listening(database_url) as channel, early.running(pool):
        await eventually(lambda: early.interest.me in channel.hellos())
        async with early.watch(encounter), late.running(pool):
            # late's hello on connecting asks early for all it follows
            await eventually(lambda: late.interest.followed_elsewhere(encounter))


def test_a_process_not_heard_from_for_three_refreshes_is_forgotten() -> None:
    interest = Interest("me", refresh=0.01)
    encounter = uuid4()
    interest.heard("other", [encounter], [], whole=True)
    interest.heard("me", [uuid4()], [], whole=True)
    assert interest.followed_elsewhere(encounter)
    interest.forget_silent()
    assert interest.followed_elsewhere(encounter)
    time.sleep(0.05)
    interest.forget_silent()
    assert not interest.followed_elsewhere(encounter)
    interest.heard("other", [encounter], [], whole=False)
    interest.heard("other", [], [encounter], whole=False)
    assert not interest.followed_elsewhere(encounter)
