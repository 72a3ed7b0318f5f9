"""Two worlds for the noninterference test: two services, each with a database and a
webhook receiver of its own, served by uvicorn (so a live stream can stay open while the
run is played), whose ids, clock and seeds are drawn the same way.

Only the salts of sealed envelopes and of commitments, and the key under which each
answer's correlation id is hashed, are the service's own: they are what makes the two
worlds' hashes and ids differ, and they never reach a player (an envelope's salt before
the reveal).
"""

from __future__ import annotations

import hashlib
import itertools
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, ExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import httpx

from api.app import create_app
from api.settings import Settings
from tests.conftest import create_database, drop_database
from tests.e2e.helpers import GmTokens
from tests.support.live import serving
from tests.support.receiver import Receiver, receiving

_HEX64 = re.compile(rb"[0-9a-f]{64}")
CLOCK_HEADERS = ("date", "ratelimit-reset")
"""The headers left out of the comparison: the wall clock's (the date, the seconds left
in the rate limit's window).  Every other header a player reads is compared, ETag,
Aeon-Chain-Head and Aeon-Chain-Signature among them."""
FRESH_ID_HEADER = "x-correlation-id"
"""A hiding value: each answer's id is a keyed hash of the process's count of requests
(api/http/request_log.py), under a 128-bit key no one reads; it is compared only as
present, 32 hex digits.  tests/e2e/secrecy/test_oracles.py shows it tells no count."""
_FRESH_ID = re.compile(r"[0-9a-f]{32}")


class SameDraws:
    """Ids, time and seeds, drawn the same way in every world of one example (the
    production path never draws them this way: the test patches these sources in)."""

    def __init__(self, example: int) -> None:
        self.example = example
        self.count = itertools.count()
        self.clock = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(days=example)

    def _next(self) -> bytes:
        return hashlib.sha256(f"{self.example}:{next(self.count)}".encode()).digest()

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(bytes=self._next()[:16], version=4)

    def token_hex(self, n: int) -> str:
        return self._next()[:n].hex()

    def token_urlsafe(self, n: int) -> str:
        return self._next().hex()[: n + 8]

    def new_seed(self) -> bytes:
        return self._next()

    def now(self, tz: Any = None) -> datetime:
        self.clock += timedelta(seconds=1)
        return self.clock

    def patches(self) -> ExitStack:
        draws = self
        stack = ExitStack()

        class Clock:
            @staticmethod
            def now(tz: Any = None) -> datetime:
                return draws.now(tz)

        fake_secrets = mock.Mock(token_hex=self.token_hex, token_urlsafe=self.token_urlsafe)
        stack.enter_context(mock.patch("service.write.prepare.uuid4", self.uuid4))
        stack.enter_context(mock.patch("service.write.unit_of_work.uuid4", self.uuid4))
        stack.enter_context(mock.patch("service.tokens.secrets", fake_secrets))
        stack.enter_context(mock.patch("service.write.dice.new_seed", self.new_seed))
        stack.enter_context(mock.patch("service.write.pipeline.datetime", Clock))
        stack.enter_context(mock.patch("api.webhooks.manage.uuid", mock.Mock(uuid4=self.uuid4)))
        return stack


def campaign_draws(draws: SameDraws) -> ExitStack:
    """The worlds' draws, and a campaign writer's own ids, clock and token secrets drawn
    the same way (the salts of a campaign's commitments stay the service's own, as an
    envelope's: they are what the players' hashes may differ by)."""

    class Clock:
        @staticmethod
        def now(tz: Any = None) -> datetime:
            return draws.now(tz)

    stack = draws.patches()
    fake_secrets = mock.Mock(token_hex=draws.token_hex, token_urlsafe=draws.token_urlsafe)
    stack.enter_context(mock.patch("service.write.campaigns.uuid4", draws.uuid4))
    stack.enter_context(mock.patch("service.write.campaigns.datetime", Clock))
    stack.enter_context(mock.patch("service.campaign_store.tokens.secrets", fake_secrets))
    return stack


@dataclass(frozen=True)
class World:
    http: httpx.AsyncClient
    """Acting as the GM of every encounter it creates (GmTokens)."""
    receiver: Receiver
    """Where the players' webhook of each encounter delivers."""


@asynccontextmanager
async def two_worlds(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    """Two services, each with a database of its own: the same ids mean the same
    encounter in both."""
    async with AsyncExitStack() as stack:
        worlds = []
        for _ in range(2):
            url = await create_database(postgres_url)
            stack.push_async_callback(drop_database, postgres_url, url)
            settings = Settings(
                database_url=url,
                snapshot_every=4,
                webhook_allow="127.0.0.1",
                webhook_poll_seconds=0.05,
                webhook_retry_base_seconds=0.05,
                live_keepalive_seconds=3600,  # no keep-alive comments in a run
                chain_key="the-same-chain-key",  # heads are signed: the signature compared
            )
            receiver = await stack.enter_async_context(receiving(Receiver()))
            with SameDraws(-1).patches():  # the pipeline's clock default is bound at creation
                app = create_app(settings)
                base = await stack.enter_async_context(serving(app))
            http = httpx.AsyncClient(base_url=base, auth=GmTokens(), timeout=30)
            await stack.enter_async_context(http)
            worlds.append(World(http, receiver))
        yield worlds[0], worlds[1]


class Transcript:
    """Everything a player and a spectator read and received in one world, in order."""

    def __init__(self) -> None:
        self.entries: list[tuple[str, int, dict[str, str], bytes]] = []

    def add(self, label: str, response: httpx.Response) -> None:
        headers = {h: v for h, v in response.headers.items() if h not in CLOCK_HEADERS}
        assert _FRESH_ID.fullmatch(headers[FRESH_ID_HEADER]), headers
        headers[FRESH_ID_HEADER] = "<fresh id>"
        self.entries.append((label, response.status_code, headers, response.content))

    def add_bytes(self, label: str, body: bytes) -> None:
        self.entries.append((label, 200, {}, body))

    def normalised(self) -> list[tuple[str, int, dict[str, str], bytes]]:
        """Each 64-hex value (hashes, prev_hashes, commitments: the documented hiding
        values) replaced by its order of first appearance, so two worlds agree only if
        their hashes line up one to one."""
        seen: dict[bytes, bytes] = {}

        def name(match: re.Match[bytes]) -> bytes:
            return seen.setdefault(match[0], b"<h%d>" % len(seen))

        out = []
        for label, status, headers, body in self.entries:
            headers = {k: _HEX64.sub(name, v.encode()).decode() for k, v in headers.items()}
            out.append((label, status, headers, _HEX64.sub(name, body)))
        return out
