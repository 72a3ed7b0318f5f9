"""Live streams read their pages from a streaming replica without losing an event: a
feed's read after a wake-up goes to a replica that has the version the wake-up announced,
a stream's catch-up to one that has the version its client resumes from; with replay
paused, both come from the primary after the bounded wait, and go back to the replica
once it has caught up.  A player's stream fed from the replica never gets a hidden roll.

The app is served by uvicorn in the test's event loop (the streams are read as they come)
against a private primary and its replica (tests/replicas/cluster.py).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.settings import Settings
from events.replicas import ReadReplicas
from tests.e2e.helpers import GmTokens, combatant, command, create, inner_events
from tests.replicas.cluster import Pair, replay_paused
from tests.scaleout.live_client import Subscriber
from tests.support.live import SECRET_CHECK, bearer, serving

WAIT = 0.5
"""Long enough that a replica replaying normally is waited for even on a loaded machine
(a feed reads right after the commit); reads of a paused replica cost this much."""


class Service:
    def __init__(self, url: str, http: httpx.AsyncClient, replicas: ReadReplicas) -> None:
        self.url, self.http, self.replicas = url, http, replicas

    @property
    def live(self) -> Counter[str]:
        """Live page reads so far, by where they ran."""
        return self.replicas.live_served.copy()

    @property
    def requests(self) -> Counter[str]:
        """Reads of requests so far (a stream's own: the head it checks on connecting)."""
        return self.replicas.served.copy()

    def follow(self, encounter: str, **headers: str) -> Subscriber:
        token = self.http.auth.tokens[encounter]  # type: ignore[union-attr]
        subscriber = Subscriber(self.url, encounter, {**bearer(token), **headers})
        subscriber.start()
        return subscriber

    async def hit(self, encounter: str, amount: int = 1) -> int:
        cmd = {"type": "generic.damage", "target": "b", "amount": amount}
        return int((await command(self.http, encounter, cmd))["version"])  # type: ignore[arg-type]


@asynccontextmanager
async def served(pair: Pair, **settings: Any) -> AsyncIterator[Service]:
    # No safety-net poll during a test: every read after the first is a wake-up's.
    app = create_app(
        Settings(
            database_url=pair.primary.url,
            read_database_urls=(pair.replica.url,),
            live_poll_seconds=60,
            rate_limit_per_minute=0,
            **settings,
        )
    )
    async with (
        serving(app) as url,
        httpx.AsyncClient(base_url=url, auth=GmTokens(), timeout=10) as http,
    ):
        replicas = app.state.services.replicas
        assert isinstance(replicas, ReadReplicas)
        yield Service(url, http, replicas)


@pytest.fixture(scope="module")
async def service(pair: Pair) -> AsyncIterator[Service]:
    async with served(pair, read_replica_wait_seconds=WAIT) as service:
        yield service


async def fight(service: Service) -> tuple[str, int]:
    encounter = await create(service.http, "live replicas")  # type: ignore[arg-type]
    for ident in ("a", "b"):
        await command(service.http, encounter, combatant(ident, 10_000, ac=10))  # type: ignore[arg-type]
    return encounter, 4


def whole(subscriber: Subscriber, up_to: int, start: int = 0) -> None:
    """Every version after ``start`` up to ``up_to`` once, in order."""
    assert subscriber.versions == list(range(start + 1, up_to + 1))


async def test_a_paused_replica_delays_no_live_event_and_reads_move_back(
    service: Service, pair: Pair
) -> None:
    encounter, head = await fight(service)
    await pair.wait_replayed()
    first = service.follow(encounter)
    await first.wait_for(head, within=5)
    try:
        async with replay_paused(pair):
            before = service.live
            written = [await service.hit(encounter) for _ in range(3)]
            await first.wait_for(written[-1], within=5)
            # Each wake-up's read waited for the paused replica, then the primary answered.
            paused = service.live - before
            assert paused["replica"] == 0 and paused["primary"] >= 1, paused

            # A stream resuming from a version the paused replica has still catches up on
            # the primary: its catch-up must also reach the feed's version, which the
            # replica lacks.
            resumed = service.follow(encounter, **{"Last-Event-ID": str(head)})
            await resumed.wait_for(written[-1], within=5)
            whole(resumed, written[-1], start=head)
            assert (service.live - before)["replica"] == 0
            await resumed.close()

        await pair.wait_replayed()
        before = service.live
        more = [await service.hit(encounter) for _ in range(3)]
        await first.wait_for(more[-1], within=5)
        back = service.live - before
        assert back["replica"] >= 1, back

        await pair.wait_replayed()
        before, checked = service.live, service.requests
        late = service.follow(encounter, **{"Last-Event-ID": str(written[0])})
        await late.wait_for(more[-1], within=5)
        whole(late, more[-1], start=written[0])
        assert (service.live - before)["replica"] >= 1
        # The head the stream checks on connecting was read there too.
        assert service.requests - checked == Counter(replica=1)
        await late.close()
        whole(first, more[-1])
    finally:
        await first.close()


async def test_a_stream_that_states_no_version_catches_up_on_the_primary(
    service: Service, pair: Pair
) -> None:
    encounter, head = await fight(service)
    await pair.wait_replayed()
    before = service.live
    subscriber = service.follow(encounter)
    try:
        await subscriber.wait_for(head, within=5)
        # The catch-up states nothing, nor does the new feed's first read.
        assert service.live - before == Counter({"primary-unstated": 2})
    finally:
        await subscriber.close()


async def test_a_player_stream_fed_by_the_replica_never_gets_the_hidden_roll(
    service: Service, pair: Pair
) -> None:
    encounter, head = await fight(service)
    minted = await service.http.post(f"/encounters/{encounter}/tokens", json={"combatants": ["a"]})
    assert minted.status_code == 201, minted.text
    await pair.wait_replayed()
    player = Subscriber(service.url, encounter, bearer(minted.json()["token"]))
    player.start()
    gm = service.follow(encounter)
    try:
        await player.wait_for(head, within=5)
        await gm.wait_for(head, within=5)

        async def hidden_roll() -> tuple[int, dict[str, Any]]:
            r = await service.http.post(
                f"/encounters/{encounter}/commands",
                json={"command": {**SECRET_CHECK, "combatant": "b"}, "hidden": True},
            )
            assert r.status_code == 200, r.text
            return r.json()["version"], inner_events(r.json()["events"])[0]["data"]["rolls"][0]

        def seen(subscriber: Subscriber, version: int) -> dict[str, Any]:
            message = next(m for m in subscriber.received if m.id == version)
            event: dict[str, Any] = message.data
            return event

        # From the replica, and, with its replay paused, from the primary after the wait:
        # each time the redaction runs on the rows the events came from.
        before = service.live
        on_replica, roll = await hidden_roll()
        await player.wait_for(on_replica, within=5)
        await gm.wait_for(on_replica, within=5)
        assert (service.live - before)["replica"] >= 1
        async with replay_paused(pair):
            before = service.live
            on_primary, other = await hidden_roll()
            await player.wait_for(on_primary, within=5)
            await gm.wait_for(on_primary, within=5)
            assert (service.live - before)["replica"] == 0
        for version, rolled in ((on_replica, roll), (on_primary, other)):
            # The player's stream carries the sealed command's public form only.
            hidden = seen(player, version)
            assert hidden["type"] == "encounter.sealed"
            assert not {"events", "salt"} & hidden["data"].keys(), hidden
            (gm_roll,) = inner_events([seen(gm, version)])[0]["data"]["rolls"]
            assert gm_roll["total"] == rolled["total"]
        whole(player, on_primary)
        whole(gm, on_primary)
    finally:
        await player.close()
        await gm.close()


async def test_share_of_live_page_reads_the_replica_serves_under_load(pair: Pair) -> None:
    """Three tables, each followed by four streams (two join late, resuming with
    Last-Event-ID) while its GM sends 20 commands; every stream gets every event once.
    The share of live page reads the replica served, with the default wait for replay, is
    printed (docs/scale-out.md)."""
    async with served(pair) as service:
        await _share_under_load(service, pair)


async def _share_under_load(service: Service, pair: Pair) -> None:
    tables = [await fight(service) for _ in range(3)]
    await pair.wait_replayed()
    rng = random.Random(25)
    before = service.live
    replicas = service.replicas
    waited, waited_seconds = replicas.waited, replicas.waited_seconds
    followers: list[tuple[Subscriber, int]] = []

    async def table(encounter: str, head: int) -> int:
        followers.extend((service.follow(encounter), 0) for _ in range(2))
        version = head
        for n in range(20):
            version = await service.hit(encounter)
            if n == 10:
                followers.extend(
                    (service.follow(encounter, **{"Last-Event-ID": str(version - 3)}), version - 3)
                    for _ in range(2)
                )
            await asyncio.sleep(rng.uniform(0, 0.03))
        return version

    heads = await asyncio.gather(*(table(e, v) for e, v in tables))
    try:
        for subscriber, start in followers:
            last = heads[[e for e, _ in tables].index(subscriber.encounter_id)]
            await subscriber.wait_for(last, within=10)
            whole(subscriber, last, start)
    finally:
        for subscriber, _ in followers:
            await subscriber.close()
    counts = service.live - before
    total = sum(counts.values())
    waits = replicas.waited - waited
    mean = (replicas.waited_seconds - waited_seconds) / waits * 1000 if waits else 0.0
    print(
        f"\nlive page reads {total}: replica {counts['replica']}, primary after the wait "
        f"{counts['primary']}, primary (no version stated) {counts['primary-unstated']} "
        f"({counts['replica'] / total:.0%} on the replica); {waits} waited for replay, "
        f"{mean:.1f} ms on average"
    )
    assert counts["replica"] > 0
    # One read per command at most, and one per late stream's catch-up: a wake-up coming
    # back through the link while its read waits for the replica asks for no second one.
    assert counts["replica"] + counts["primary"] <= 3 * 20 + 6


async def test_live_streams_carry_on_from_the_primary_while_the_replica_is_down(
    service: Service, pair: Pair
) -> None:
    """Last in this module: it stops the replica.  An open stream neither ends nor misses
    an event: the feed's next read finds the replica gone and reads on the primary."""
    encounter, head = await fight(service)
    await pair.wait_replayed()
    subscriber = service.follow(encounter)
    try:
        await subscriber.wait_for(head, within=5)
        await asyncio.to_thread(pair.replica.stop, "immediate")
        before = service.live
        written = [await service.hit(encounter) for _ in range(3)]
        await subscriber.wait_for(written[-1], within=5)
        whole(subscriber, written[-1])
        assert subscriber.connections == 1
        down = service.live - before
        assert down["replica"] == 0 and down["primary"] >= 1, down
    finally:
        await subscriber.close()
