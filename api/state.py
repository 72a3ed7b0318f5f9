"""What the app holds between requests, opened and closed by the lifespan."""

from __future__ import annotations

from dataclasses import dataclass, field

import asyncpg
from redis.asyncio import Redis

from api.limits import VerifiedTokens
from api.live import Live
from api.settings import Settings
from service.pipeline import CommandPipeline
from service.tokens import KnownTokens


@dataclass
class Services:
    settings: Settings
    pool: asyncpg.Pool
    pipeline: CommandPipeline
    redis: Redis | None = None
    live: Live | None = None
    known_tokens: KnownTokens = field(default_factory=KnownTokens)
    verified_tokens: VerifiedTokens = field(default_factory=VerifiedTokens)
    """Tokens verified here, for the rate limiter (api/limits.py)."""
