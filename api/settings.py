"""Runtime settings: each field with the environment variable it is read from and what it
means, declared once.

``Settings(...)`` holds exactly what it is given (defaults for the rest), so tests and the
CLI build the settings they mean; ``Settings.from_env`` reads the environment when the
app is created (never at import).  How a variable's text becomes a value follows from the
field's type: numbers as written, a comma-separated list for a tuple, ``on``/``off`` for
a switch, one of the listed words for a choice, and blank for "unset" where the field
may be None.
"""

from __future__ import annotations

import ipaddress
import os
import typing
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

import msgspec

WriteStatement = Literal["single", "split"]
"""How a command's write is sent (service/write/strategy.py names the same choices: the
type checker holds them equal where the pipeline is built)."""


class Env:
    """The environment variable a setting is read from, and how its text is parsed when
    the field's type alone does not say enough (None: by the type)."""

    __slots__ = ("name", "parse")

    def __init__(self, name: str, parse: Callable[[str], Any] | None = None) -> None:
        self.name = name
        self.parse = parse


def _comma_list(value: str) -> tuple[str, ...]:
    """A comma-separated setting (origins, replica URLs), blanks ignored."""
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _proxies(value: str) -> tuple[str, ...]:
    """Trusted proxies, each entry checked: a typo must not trust the wrong peer."""
    entries = _comma_list(value)
    for entry in entries:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(f"{entry!r} is neither an IP address, a network nor *") from None
    return entries


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    database_url: Annotated[str | None, Env("DATABASE_URL")] = None
    """PostgreSQL DSN; None means the embedded pgserver in ``data_dir`` (started by the CLI)."""
    read_database_urls: Annotated[tuple[str, ...], Env("AEON_READ_DATABASE_URLS")] = ()
    """Comma-separated: streaming replicas that serve reads whose
    freshness the client states (docs/scale-out.md).  Empty: every read on the primary."""
    read_replica_wait_seconds: Annotated[float, Env("AEON_READ_REPLICA_WAIT_SECONDS")] = 0.1
    """How long a read waits for a replica to replay the version it needs before the
    primary answers it instead."""
    redis_url: Annotated[str | None, Env("REDIS_URL")] = None
    """Redis for cross-process fan-out; None means in-process fan-out."""
    host: Annotated[str, Env("HOST")] = "127.0.0.1"
    """The address ``aeon-ledger serve`` listens on."""
    port: Annotated[int, Env("PORT")] = 8000
    """The port ``aeon-ledger serve`` listens on."""
    data_dir: Annotated[str, Env("AEON_DATA_DIR")] = ".aeon-ledger"
    """Where the embedded PostgreSQL keeps its files when no database URL is given."""
    snapshot_every: Annotated[int, Env("AEON_SNAPSHOT_EVERY")] = 100
    """Events between snapshots of an encounter's state, which bound what a load folds."""
    pool_min: Annotated[int, Env("AEON_POOL_MIN")] = 2
    """Database connections each process keeps open even when idle."""
    pool_max: Annotated[int, Env("AEON_POOL_MAX")] = 10
    """Database connections each process may open at most."""
    max_body_bytes: Annotated[int, Env("AEON_MAX_BODY_BYTES")] = 64 * 1024
    """The largest request body accepted; a larger one is answered with 413."""
    max_import_bytes: Annotated[int, Env("AEON_MAX_IMPORT_BYTES")] = 256 * 1024 * 1024
    """The largest campaign archive ``POST /campaigns/import`` takes (413 past it); it is
    spooled to a temporary file, not held in memory, while it arrives."""
    service_key: Annotated[str | None, Env("AEON_SERVICE_KEY")] = None
    """When set, creating and listing encounters need ``Authorization: Bearer <key>``;
    the key also acts as GM on every encounter (to recover a lost GM token)."""
    chain_key: Annotated[str | None, Env("AEON_CHAIN_KEY")] = None
    """Signs every stream head (docs/tamper-evidence.md).  Kept in the
    service's environment, never in the database; unset means heads go unsigned and
    verify says a database administrator can rewrite the history undetected, except
    under the embedded default, which keeps a key of its own (api/cli/embedded.py)."""
    rate_limit_per_minute: Annotated[int, Env("AEON_RATE_LIMIT_PER_MINUTE")] = 600
    """Requests per minute per token (or per client address without one); 0 turns it off."""
    trusted_proxies: Annotated[tuple[str, ...], Env("AEON_TRUSTED_PROXIES", _proxies)] = ()
    """The reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (IP addresses or CIDR networks, comma-separated;
    ``*`` believes every peer).  Empty (the default): those headers are ignored, and the
    client address (the rate-limit bucket of a request without a token) is the peer's."""
    live_poll_seconds: Annotated[float, Env("AEON_LIVE_POLL_SECONDS")] = 1.0
    """How often an encounter's live feed reads PostgreSQL when no wake-up arrives (the
    link down, or a wake-up lost): the worst-case delay of a live update."""
    live_page: Annotated[int, Env("AEON_LIVE_PAGE")] = 100
    """Events read per step of a live feed, or of a stream catching up."""
    live_backlog: Annotated[int, Env("AEON_LIVE_BACKLOG")] = 1000
    """Messages a live stream may hold unsent; past that it drops them and reads what it
    missed from PostgreSQL (a slow client falls behind alone)."""
    live_keepalive_seconds: Annotated[float, Env("AEON_LIVE_KEEPALIVE_SECONDS")] = 15.0
    """An idle live stream sends a comment this often and re-checks its token."""
    read_cache_seconds: Annotated[float, Env("AEON_READ_CACHE_SECONDS")] = 0.5
    """How long a process answers a conditional read (a current If-None-Match) from the
    head and token check of its last read rather than PostgreSQL, unless a wake-up or a
    revocation notice says otherwise first (api/live/heads.py); 0 turns it off."""
    cors_origins: Annotated[tuple[str, ...], Env("AEON_CORS_ORIGINS")] = ("*",)
    """The browser origins allowed to call the API, comma-separated;
    ``*`` (the default) allows any, which is safe because credentials travel in the
    Authorization header and never in cookies. Empty: no cross-origin access."""
    webhook_allow: Annotated[str, Env("AEON_WEBHOOK_ALLOW")] = "public"
    """Where webhooks may point (docs/webhooks.md): comma-separated
    ``public`` (every globally routable address), host names (``*.example.com`` for
    subdomains), IP addresses and CIDR networks.  Loopback and private addresses are
    refused unless listed."""
    webhook_max_failures: Annotated[int, Env("AEON_WEBHOOK_MAX_FAILURES")] = 12
    """Consecutive failed attempts after which a webhook pauses (about half an hour of
    retries with the default backoff)."""
    webhook_timeout_seconds: Annotated[float, Env("AEON_WEBHOOK_TIMEOUT_SECONDS")] = 10.0
    """How long one delivery attempt may take before it counts as failed."""
    webhook_retry_base_seconds: Annotated[float, Env("AEON_WEBHOOK_RETRY_BASE_SECONDS")] = 1.0
    """The first retry's delay; each next one doubles, up to the maximum, with jitter."""
    webhook_retry_max_seconds: Annotated[float, Env("AEON_WEBHOOK_RETRY_MAX_SECONDS")] = 900.0
    """The longest delay between two retries."""
    webhook_poll_seconds: Annotated[float, Env("AEON_WEBHOOK_POLL_SECONDS")] = 1.0
    """How often an idle delivery lane looks for webhooks with something to send."""
    webhook_lanes: Annotated[int, Env("AEON_WEBHOOK_LANES")] = 2
    """Webhooks one process delivers to at the same time (each lane holds a database
    connection of its own while it has webhooks to serve); 0 turns delivery off in this
    process."""
    write_statement: Annotated[WriteStatement, Env("AEON_WRITE_STATEMENT")] = "single"
    """``single`` writes a command in one statement (one round trip), and commands of
    several encounters that are ready together share one transaction; ``split`` in a few
    statements that Citus routes to the encounter's worker and commits there in one phase,
    never two encounters in one transaction (docs/scale-out.md#one-phase-commit-on-citus)."""
    metrics: Annotated[bool, Env("AEON_METRICS")] = True
    """Off: no ``/metrics`` and nothing recorded (docs/metrics.md)."""
    log_requests: Annotated[bool, Env("AEON_LOG_REQUESTS")] = True
    """Off: no line per request (warnings and errors are still logged)."""
    trusted_chain_keys: Annotated[tuple[str, ...], Env("AEON_TRUSTED_CHAIN_KEYS")] = ()
    """Comma-separated chain keys of other services whose signed exports import here as
    attested (docs/exports.md)."""
    max_pending_requests: Annotated[int, Env("AEON_MAX_PENDING_REQUESTS")] = 5
    """Requests one player token may have waiting for the GM (docs/access.md)."""
    max_request_bytes: Annotated[int, Env("AEON_MAX_REQUEST_BYTES")] = 4096
    """A request's command, dice and note as JSON, at most."""

    @property
    def chain_key_bytes(self) -> bytes | None:
        return None if self.chain_key is None else self.chain_key.encode()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment (``os.environ`` unless given) names; the default
        for each variable that is not set.  A value that does not parse stops the start
        with a ValueError that names the variable."""
        env = os.environ if env is None else env
        given: dict[str, Any] = {}
        for name, (variable, parse) in _VARIABLES.items():
            text = env.get(variable)
            if text is None:
                continue
            try:
                value = parse(text)
            except ValueError as exc:
                raise ValueError(f"{variable}: {exc}") from None
            if value is not _DEFAULT:
                given[name] = value
        return cls(**given)


_DEFAULT: Any = object()
"""What a parser returns for a blank value that means "use the default"."""


def _switch(value: str) -> bool:
    text = value.strip().lower()
    if not text:
        return typing.cast(bool, _DEFAULT)
    if text in ("1", "on", "true", "yes"):
        return True
    if text in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"expected on or off, not {value!r}")


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    def parse(value: str) -> str:
        text = value.strip().lower()
        if not text:
            return typing.cast(str, _DEFAULT)
        if text in choices:
            return text
        raise ValueError(f"expected one of {', '.join(choices)}, not {value!r}")

    return parse


def _parser(kind: Any) -> Callable[[str], Any]:
    """How a variable's text becomes a value of the field's type ``kind``."""
    if typing.get_origin(kind) is Literal:
        return _choice(typing.get_args(kind))
    if kind == str | None:
        return lambda text: text or None
    if kind == tuple[str, ...]:
        return _comma_list
    if kind is bool:
        return _switch
    if kind in (int, float, str):
        return typing.cast(Callable[[str], Any], kind)
    raise TypeError(f"no parser for a setting of type {kind!r}")


def _variables() -> dict[str, tuple[str, Callable[[str], Any]]]:
    """Each field's variable and parser, from its declaration."""
    hints = typing.get_type_hints(Settings, include_extras=True)
    found: dict[str, tuple[str, Callable[[str], Any]]] = {}
    for name in Settings.__struct_fields__:
        kind, *extras = typing.get_args(hints[name])
        env = next(extra for extra in extras if isinstance(extra, Env))
        found[name] = (env.name, env.parse or _parser(kind))
    return found


_VARIABLES = _variables()
