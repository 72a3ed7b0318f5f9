"""Runtime settings, read from the environment when the app is created (never at import)."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping

import msgspec

from events.provenance import ChainKeys
from service.group_commit import MODES
from service.group_commit import Mode as GroupMode
from service.requests import PENDING_PER_TOKEN, REQUEST_BYTES, RequestLimits
from service.split_write import WriteStatement, write_statement


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: str | None = None
    """PostgreSQL DSN; None means the embedded pgserver in ``data_dir`` (started by the CLI)."""
    read_database_urls: tuple[str, ...] = ()
    """AEON_READ_DATABASE_URLS, comma-separated: streaming replicas that serve reads whose
    freshness the client states (docs/scale-out.md).  Empty: every read on the primary."""
    read_replica_wait_seconds: float = 0.1
    """How long a read waits for a replica to replay the version it needs before the
    primary answers it instead."""
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
    verify says a database administrator can rewrite the history undetected, except
    under the embedded default, which keeps a key of its own (api/embedded.py)."""
    rate_limit_per_minute: int = 600
    """Requests per minute per token (or per client address without one); 0 turns it off."""
    trusted_proxies: tuple[str, ...] = ()
    """AEON_TRUSTED_PROXIES: the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (IP addresses or CIDR networks, comma-separated;
    ``*`` believes every peer).  Empty (the default): those headers are ignored, and the
    client address (the rate-limit bucket of a request without a token) is the peer's."""
    live_poll_seconds: float = 1.0
    """How often an encounter's live feed reads PostgreSQL when no wake-up arrives (the
    link down, or a wake-up lost): the worst-case delay of a live update."""
    live_page: int = 100
    """Events read per step of a live feed, or of a stream catching up."""
    live_backlog: int = 1000
    """Messages a live stream may hold unsent; past that it drops them and reads what it
    missed from PostgreSQL (a slow client falls behind alone)."""
    live_keepalive_seconds: float = 15.0
    """An idle live stream sends a comment this often and re-checks its token."""
    read_cache_seconds: float = 0.5
    """How long a process answers a conditional read (a current If-None-Match) from the
    head and token check of its last read rather than PostgreSQL, unless a wake-up or a
    revocation notice says otherwise first (api/live_heads.py); 0 turns it off."""
    cors_origins: tuple[str, ...] = ("*",)
    """AEON_CORS_ORIGINS: the browser origins allowed to call the API, comma-separated;
    ``*`` (the default) allows any, which is safe because credentials travel in the
    Authorization header and never in cookies. Empty: no cross-origin access."""
    webhook_allow: str = "public"
    """AEON_WEBHOOK_ALLOW: where webhooks may point (docs/webhooks.md): comma-separated
    ``public`` (every globally routable address), host names (``*.example.com`` for
    subdomains), IP addresses and CIDR networks.  Loopback and private addresses are
    refused unless listed."""
    webhook_max_failures: int = 12
    """Consecutive failed attempts after which a webhook pauses (about half an hour of
    retries with the default backoff)."""
    webhook_timeout_seconds: float = 10.0
    webhook_retry_base_seconds: float = 1.0
    """The first retry's delay; each next one doubles, up to the maximum, with jitter."""
    webhook_retry_max_seconds: float = 900.0
    webhook_poll_seconds: float = 1.0
    """How often an idle delivery lane looks for webhooks with something to send."""
    webhook_lanes: int = 2
    """Webhooks one process delivers to at the same time (each lane holds a database
    connection of its own while it has webhooks to serve); 0 turns delivery off in this
    process."""
    group_commit: GroupMode = "on"
    """AEON_GROUP_COMMIT: ``on`` lets commands of several encounters that are ready
    together share one transaction; ``per-encounter`` keeps every transaction to one
    encounter, for Citus (docs/scale-out.md#group-commit-on-citus)."""
    write_statement: WriteStatement = "single"
    """AEON_WRITE_STATEMENT: ``single`` writes a command in one statement (one round trip);
    ``split`` in a few statements that Citus routes to the encounter's worker and commits
    there in one phase (docs/scale-out.md#one-phase-commit-on-citus)."""
    metrics: bool = True
    """AEON_METRICS=off: no ``/metrics`` and nothing recorded (docs/metrics.md)."""
    log_requests: bool = True
    """AEON_LOG_REQUESTS=off: no line per request (warnings and errors are still logged)."""
    trusted_chain_keys: tuple[str, ...] = ()
    """AEON_TRUSTED_CHAIN_KEYS: comma-separated chain keys of other services whose signed
    exports import here as attested (docs/exports.md)."""
    max_pending_requests: int = PENDING_PER_TOKEN
    """AEON_MAX_PENDING_REQUESTS: requests one token may have waiting for the GM."""
    max_request_bytes: int = REQUEST_BYTES
    """AEON_MAX_REQUEST_BYTES: a request's command, dice and note as JSON, at most."""

    @property
    def request_limits(self) -> RequestLimits:
        return RequestLimits(per_token=self.max_pending_requests, max_bytes=self.max_request_bytes)

    @property
    def chain_keys(self) -> ChainKeys:
        return ChainKeys(
            own=self.chain_key_bytes, trusted=tuple(k.encode() for k in self.trusted_chain_keys)
        )

    @property
    def chain_key_bytes(self) -> bytes | None:
        return None if self.chain_key is None else self.chain_key.encode()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        d = cls()
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            read_database_urls=_comma_list(env.get("AEON_READ_DATABASE_URLS", "")),
            read_replica_wait_seconds=float(
                env.get("AEON_READ_REPLICA_WAIT_SECONDS", d.read_replica_wait_seconds)
            ),
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
            trusted_proxies=_proxies(env.get("AEON_TRUSTED_PROXIES", "")),
            live_poll_seconds=float(env.get("AEON_LIVE_POLL_SECONDS", d.live_poll_seconds)),
            live_page=int(env.get("AEON_LIVE_PAGE", d.live_page)),
            live_backlog=int(env.get("AEON_LIVE_BACKLOG", d.live_backlog)),
            live_keepalive_seconds=float(
                env.get("AEON_LIVE_KEEPALIVE_SECONDS", d.live_keepalive_seconds)
            ),
            read_cache_seconds=float(env.get("AEON_READ_CACHE_SECONDS", d.read_cache_seconds)),
            cors_origins=_comma_list(env.get("AEON_CORS_ORIGINS", ",".join(d.cors_origins))),
            webhook_allow=env.get("AEON_WEBHOOK_ALLOW", d.webhook_allow),
            webhook_max_failures=int(env.get("AEON_WEBHOOK_MAX_FAILURES", d.webhook_max_failures)),
            webhook_timeout_seconds=float(
                env.get("AEON_WEBHOOK_TIMEOUT_SECONDS", d.webhook_timeout_seconds)
            ),
            webhook_retry_base_seconds=float(
                env.get("AEON_WEBHOOK_RETRY_BASE_SECONDS", d.webhook_retry_base_seconds)
            ),
            webhook_retry_max_seconds=float(
                env.get("AEON_WEBHOOK_RETRY_MAX_SECONDS", d.webhook_retry_max_seconds)
            ),
            webhook_poll_seconds=float(
                env.get("AEON_WEBHOOK_POLL_SECONDS", d.webhook_poll_seconds)
            ),
            webhook_lanes=int(env.get("AEON_WEBHOOK_LANES", d.webhook_lanes)),
            group_commit=_group_mode(env.get("AEON_GROUP_COMMIT"), d.group_commit),
            write_statement=write_statement(env.get("AEON_WRITE_STATEMENT")),
            metrics=_switch(env.get("AEON_METRICS"), d.metrics),
            log_requests=_switch(env.get("AEON_LOG_REQUESTS"), d.log_requests),
            trusted_chain_keys=_comma_list(env.get("AEON_TRUSTED_CHAIN_KEYS", "")),
            max_pending_requests=int(env.get("AEON_MAX_PENDING_REQUESTS", d.max_pending_requests)),
            max_request_bytes=int(env.get("AEON_MAX_REQUEST_BYTES", d.max_request_bytes)),
        )


def _comma_list(value: str) -> tuple[str, ...]:
    """A comma-separated setting (origins, replica URLs), blanks ignored."""
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _proxies(value: str) -> tuple[str, ...]:
    """AEON_TRUSTED_PROXIES, each entry checked: a typo must not trust the wrong peer."""
    entries = _comma_list(value)
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(
                f"AEON_TRUSTED_PROXIES: {entry!r} is neither an IP address, a network nor *"
            ) from None
    return entries


def _switch(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    if text in ("1", "on", "true", "yes"):
        return True
    if text in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"expected on or off, not {value!r}")


def _group_mode(value: str | None, default: GroupMode) -> GroupMode:
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    for mode in MODES:
        if text == mode:
            return mode
    raise ValueError(f"AEON_GROUP_COMMIT: expected one of {', '.join(MODES)}, not {value!r}")
