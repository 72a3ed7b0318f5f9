"""Runtime settings, read from the environment when the app is created (never at import)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import msgspec


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    """PostgreSQL DSN; None means the embedded pgserver in ``data_dir`` (started by the CLI)."""
    redis_url: str | None = None
    """Redis for cross-process fan-out; None means in-process fan-out."""
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: str = ".aeon-ledger"
    snapshot_every: int = 100
    pool_min: int = 2
    pool_max: int = 10
    max_body_bytes: int = 64 * 1024
    page_limit_max: int = 1000
    service_key: str | None = None
    """When set, creating and listing encounters need ``Authorization: Bearer <key>``;
    the key also acts as GM on every encounter (to recover a lost GM token)."""
    chain_key: str | None = None
    """AEON_CHAIN_KEY: signs every stream head (docs/tamper-evidence.md).  Kept in the
    service's environment, never in the database; unset means heads go unsigned and
    verify reports ``signed: false``."""
    rate_limit_per_minute: int = 600
    """Requests per minute per token (or per client address without one); 0 turns it off."""
    live_poll_seconds: float = 1.0
    """How often a live subscriber reads PostgreSQL when no wake-up arrives (Redis down,
    or a wake-up lost): the worst-case delay of a live update."""
    live_page: int = 100
    """Events read and sent per step of a live stream: bounds what one subscriber holds."""
    live_keepalive_seconds: float = 15.0
    """An idle live stream sends a comment this often and re-checks its token."""
    metrics: bool = True
    """AEON_METRICS=off: no ``/metrics`` and nothing recorded (docs/metrics.md)."""
    log_requests: bool = True
    """AEON_LOG_REQUESTS=off: no line per request (warnings and errors are still logged)."""

    @property
    def chain_key_bytes(self) -> bytes | None:
        return None if self.chain_key is None else self.chain_key.encode()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        d = cls()
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            redis_url=env.get("REDIS_URL") or None,
            host=env.get("HOST", d.host),
            port=int(env.get("PORT", d.port)),
            data_dir=env.get("AEON_DATA_DIR", d.data_dir),
            snapshot_every=int(env.get("AEON_SNAPSHOT_EVERY", d.snapshot_every)),
            pool_min=int(env.get("AEON_POOL_MIN", d.pool_min)),
            pool_max=int(env.get("AEON_POOL_MAX", d.pool_max)),
            max_body_bytes=int(env.get("AEON_MAX_BODY_BYTES", d.max_body_bytes)),
            service_key=env.get("AEON_SERVICE_KEY") or None,
            chain_key=env.get("AEON_CHAIN_KEY") or None,
            rate_limit_per_minute=int(
                env.get("AEON_RATE_LIMIT_PER_MINUTE", d.rate_limit_per_minute)
            ),
            live_poll_seconds=float(env.get("AEON_LIVE_POLL_SECONDS", d.live_poll_seconds)),
            live_page=int(env.get("AEON_LIVE_PAGE", d.live_page)),
            live_keepalive_seconds=float(
                env.get("AEON_LIVE_KEEPALIVE_SECONDS", d.live_keepalive_seconds)
            ),
            metrics=_switch(env.get("AEON_METRICS"), d.metrics),
            log_requests=_switch(env.get("AEON_LOG_REQUESTS"), d.log_requests),
        )


def _switch(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    if text in ("1", "on", "true", "yes"):
        return True
    if text in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"expected on or off, not {value!r}")
