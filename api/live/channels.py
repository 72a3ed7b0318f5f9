"""What goes on a live-update channel: its name and its two kinds of message.

A wake-up (``{"version": V}``) or a revocation notice (``{"revoked": token_id}``), both
published by api/live/notifier.py through ``RedisLink`` (api/live/redis_link.py), which tells
them apart with ``revoked_token``.
"""

from __future__ import annotations

from uuid import UUID

import msgspec


def channel_of(encounter_id: UUID) -> str:
    return f"encounter:{encounter_id}"


def revocation(token_id: str) -> bytes:
    """The notice on an encounter's channel that a token was revoked."""
    return msgspec.json.encode({"revoked": token_id})


def revoked_token(notice: bytes) -> str | None:
    """The token id a notice says was revoked; None for a wake-up."""
    if b'"revoked"' not in notice:
        return None
    try:
        token = msgspec.json.decode(notice).get("revoked")
    except (msgspec.DecodeError, AttributeError):
        return None
    return token if isinstance(token, str) else None


def woken_version(notice: bytes) -> int | None:
    """The version a wake-up announces; None when it cannot be read (read anyway)."""
    try:
        version = msgspec.json.decode(notice).get("version")
    except (msgspec.DecodeError, AttributeError):
        return None
    return version if isinstance(version, int) else None
