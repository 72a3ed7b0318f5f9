"""Conditional-request and idempotency headers, parsed once and strictly."""

from __future__ import annotations

from api.http.problems import problem

MAX_IDEMPOTENCY_KEY = 200
MAX_FREE_TEXT = 200
"""The longest X-Correlation-ID or Prefer header a route accepts (longer: a 400)."""


def expected_version(if_match: str | None) -> int | None:
    """If-Match carries the stream version the client read (the ETag), quoted or not."""
    if if_match is None or if_match.strip() == "*":
        return None
    value = if_match.strip().removeprefix("W/").strip('"')
    version = stream_version(value)
    if version is None:
        raise problem(
            400,
            "bad-if-match",
            f'If-Match must be a version ETag such as "7", not {_shown(if_match)}.',
        )
    return version


MAX_VERSION = 2**31 - 1
"""Stream versions are PostgreSQL integers."""


def stream_version(value: str) -> int | None:
    """A header's stream version: ASCII digits only (``"²".isdigit()`` is true, and
    ``int`` refuses it) and at most ``MAX_VERSION``; None for anything else."""
    if not (value.isascii() and value.isdigit()) or len(value) > 10:
        return None
    version = int(value)
    return version if version <= MAX_VERSION else None


def none_match_version(if_none_match: str | None) -> int | None:
    """The version an If-None-Match names (``"13"``, an ETag this service sent); None for
    anything else, which never matches."""
    if if_none_match is None:
        return None
    value = if_none_match.strip()
    if len(value) < 3 or value[0] != '"' or value[-1] != '"':
        return None
    return stream_version(value[1:-1])


def _shown(value: str) -> str:
    """A bad header's value in an error detail, cut short (it may be thousands of digits)."""
    return repr(value if len(value) <= 40 else value[:40] + "...")


def idempotency_key(header: str | None) -> str | None:
    if header is None:
        return None
    key = header.strip()
    if not key or len(key) > MAX_IDEMPOTENCY_KEY or not key.isprintable():
        raise problem(
            400,
            "bad-idempotency-key",
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} printable characters.",
        )
    return key


def etag(version: int) -> str:
    return f'"{version}"'


CHAIN_HEAD = "Aeon-Chain-Head"
"""``<version>:<hash>`` of the stream head an answer was read at or wrote: pin it and ask
``/verify?version=<version>&hash=<hash>`` later (docs/tamper-evidence.md)."""
CHAIN_SIGNATURE = "Aeon-Chain-Signature"
"""The head's stored signature (HMAC-SHA256 under the service's key), when it has one."""


def chain_head(version: int, last_hash: str, signature: str | None = None) -> dict[str, str]:
    headers = {CHAIN_HEAD: f"{version}:{last_hash}"}
    if signature is not None:
        headers[CHAIN_SIGNATURE] = signature
    return headers
