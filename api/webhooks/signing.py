"""Webhook signatures in the style of the Standard Webhooks specification.

``webhook-signature`` is ``v1,`` and the base64 HMAC-SHA256 of ``{id}.{timestamp}.{body}``
under the webhook's key.  A secret ``whsec_<base64>`` (what the service generates) means
the key is the decoded bytes, exactly as the specification's own libraries read it; any
other secret is used as its UTF-8 bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

PREFIX = "whsec_"
_KEY_BYTES = 32


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(_KEY_BYTES)).decode("ascii")


def signing_key(secret: str) -> bytes:
    """The HMAC key a secret stands for; ValueError for a ``whsec_`` secret whose rest is
    not base64 of at least 16 bytes."""
    if not secret.startswith(PREFIX):
        return secret.encode()
    try:
        key = base64.b64decode(secret[len(PREFIX) :], validate=True)
    except binascii.Error:
        raise ValueError("a secret starting with 'whsec_' must continue in base64") from None
    if len(key) < 16:
        raise ValueError("a 'whsec_' secret must hold at least 16 bytes of key")
    return key


def signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(signing_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signed_headers(secret: str, message_id: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature(secret, message_id, timestamp, body),
    }
