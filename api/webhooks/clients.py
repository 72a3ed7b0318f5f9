"""HTTP clients of a delivery lane: one keep-alive client per target host name.

Requests go to the checked address with the name in the Host header and as the TLS
server name (api/webhooks/targets.py), and a client pools connections by address: with a
client per name, a connection opened for one name (its TLS handshake, its certificate) is
never reused for another name served from the same address.
"""

from __future__ import annotations

from collections import OrderedDict

import httpx

_KEPT = 64
"""Host names a lane keeps a client for; the least recently used one is closed first."""


class Clients:
    def __init__(self) -> None:
        self._clients: OrderedDict[tuple[str, str], httpx.AsyncClient] = OrderedDict()

    async def for_url(self, url: httpx.URL) -> httpx.AsyncClient:
        key = (url.scheme, url.host)
        client = self._clients.get(key)
        if client is not None:
            self._clients.move_to_end(key)
            return client
        # No environment proxies: a proxy would reach what the allow-list refuses.
        client = httpx.AsyncClient(
            trust_env=False,
            follow_redirects=False,
            limits=httpx.Limits(max_keepalive_connections=2, keepalive_expiry=30),
        )
        self._clients[key] = client
        if len(self._clients) > _KEPT:
            _, oldest = self._clients.popitem(last=False)
            await oldest.aclose()
        return client

    async def aclose(self) -> None:
        while self._clients:
            _, client = self._clients.popitem()
            await client.aclose()
