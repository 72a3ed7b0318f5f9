"""What the app holds between requests, opened and closed by the lifespan."""

from __future__ import annotations

from dataclasses import dataclass, field

import asyncpg
from redis.asyncio import Redis

from api.http.limits import VerifiedTokens
from api.live.wiring import Live
from api.settings import Settings
from events.replicas import ReadReplicas
from service.tokens import KnownTokens
from service.write.pipeline import CommandPipeline


@dataclass
class Services:
    settings: Settings
    pool: asyncpg.Pool
    pipeline: CommandPipeline
    redis: Redis | None = None
    replicas: ReadReplicas | None = None
    """Read replicas (AEON_READ_DATABASE_URLS), or None: every read on the primary."""
    live: Live | None = None
    known_tokens: KnownTokens = field(default_factory=KnownTokens)
    verified_tokens: VerifiedTokens = field(default_factory=VerifiedTokens)
    """Tokens verified here, for the rate limiter (api/http/limits.py)."""
