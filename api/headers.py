"""Conditional-request and idempotency headers, parsed once and strictly."""

from __future__ import annotations

from api.problems import problem

MAX_IDEMPOTENCY_KEY = 200


def expected_version(if_match: str | None) -> int | None:
    """If-Match carries the stream version the client read (the ETag), quoted or not."""
    if if_match is None or if_match.strip() == "*":
        return None
    value = if_match.strip().removeprefix("W/").strip('"')
    if not value.isdigit():
        raise problem(
            400, "bad-if-match", f'If-Match must be a version ETag such as "7", not {if_match!r}.'
        )
    return int(value)


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
