"""Cross-origin access for browser front ends (AEON_CORS_ORIGINS).

Tokens travel in the Authorization header, never in cookies, so allowing any origin
hands a page nothing the user's browser would otherwise send for it: credentials mode
stays off.  A browser only lets a page read the answer headers listed as exposed; these
are the ones a client needs (concurrency, creation, rate limits, the chain head).
"""

from __future__ import annotations

from litestar.config.cors import CORSConfig

from api.http.headers import CHAIN_HEAD, CHAIN_SIGNATURE

REQUEST_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "X-Correlation-ID",
    "Last-Event-ID",
    "Prefer",
]
"""Every request header the service reads; a preflight asking for another is refused."""

EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "WWW-Authenticate",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
    "Preference-Applied",
    CHAIN_HEAD,
    CHAIN_SIGNATURE,
]

PREFLIGHT_CACHE_SECONDS = 3600


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    """None when no origin is allowed: then no answer carries Access-Control headers and
    browsers keep other origins' pages from reading them."""
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "HEAD", "POST", "DELETE", "OPTIONS"],
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        allow_credentials=False,
        max_age=PREFLIGHT_CACHE_SECONDS,
    )
