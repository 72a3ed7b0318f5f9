"""Where a webhook may point: the ``AEON_WEBHOOK_ALLOW`` list, checked after DNS
resolution at registration and again before every request.

A request goes to the very address that was checked (the URL's host is replaced by it;
the Host header and the TLS server name keep the name), so a name that resolves to a
public address when checked and to an internal one a moment later (DNS rebinding) still
cannot reach inside.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

import httpx
import msgspec

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

PUBLIC = "public"
"""The allow-list entry that admits every globally routable address."""


class TargetRefused(Exception):
    """The URL may not be a webhook target here; the message says why, for the GM."""


class AllowList(msgspec.Struct, frozen=True):
    """Parsed ``AEON_WEBHOOK_ALLOW``: comma-separated entries, each ``public``, a host
    name (``*.example.com`` for its subdomains), an IP address or a network in CIDR."""

    public: bool = False
    names: frozenset[str] = frozenset()
    suffixes: tuple[str, ...] = ()
    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, text: str) -> AllowList:
        public, names, suffixes, networks = False, set(), [], []
        for raw in text.split(","):
            entry = raw.strip().lower()
            if not entry:
                continue
            if entry == PUBLIC:
                public = True
            elif entry.startswith("*."):
                suffixes.append(entry[1:])
            else:
                try:
                    networks.append(ipaddress.ip_network(entry, strict=False))
                except ValueError:
                    if not _is_host_name(entry):
                        raise ValueError(
                            f"AEON_WEBHOOK_ALLOW: {raw.strip()!r} is neither 'public', a host"
                            " name, an IP address nor a network"
                        ) from None
                    names.add(entry.rstrip("."))
        return cls(public, frozenset(names), tuple(suffixes), tuple(networks))

    def allows_name(self, host: str) -> bool:
        host = host.lower().rstrip(".")
        return host in self.names or any(host.endswith(s) for s in self.suffixes)

    def allows_address(self, address: IPAddress) -> bool:
        address = _unmapped(address)
        if any(address in net for net in self.networks):
            return True
        return self.public and address.is_global and not address.is_multicast


class Target(msgspec.Struct, frozen=True):
    """A checked URL and the address to connect to."""

    url: httpx.URL
    address: IPAddress

    def pinned(self) -> tuple[httpx.URL, dict[str, str], dict[str, str]]:
        """The URL with the checked address as host, the Host header, and the request
        extensions that keep TLS verifying the name."""
        pinned = self.url.copy_with(host=str(self.address))
        host = self.url.netloc.decode("ascii")
        extensions = {"sni_hostname": self.url.host} if self.url.scheme == "https" else {}
        return pinned, {"Host": host}, extensions


def parse_url(text: str) -> httpx.URL:
    """The URL, if it is an absolute http(s) URL without credentials."""
    try:
        url = httpx.URL(text)
    except (httpx.InvalidURL, ValueError) as exc:
        raise TargetRefused(f"{text!r} is not a valid URL: {exc}") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise TargetRefused("the webhook URL must be an absolute http:// or https:// URL")
    if url.userinfo:
        raise TargetRefused("the webhook URL may not carry a user name or password")
    return url


async def check_target(url_text: str, allow: AllowList) -> Target:
    """Resolve the URL's host and check every address it resolves to; the first one is
    where requests go."""
    url = parse_url(url_text)
    host = url.host
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        addresses = await _resolve(host, url.port or (443 if url.scheme == "https" else 80))
    if literal is None and allow.allows_name(host):
        return Target(url, addresses[0])
    for address in addresses:
        if not allow.allows_address(address):
            kind = "a public address" if _unmapped(address).is_global else "an internal address"
            raise TargetRefused(
                f"{host} resolves to {address}, {kind} not allowed by this service's"
                " AEON_WEBHOOK_ALLOW setting"
            )
    return Target(url, addresses[0])


async def _resolve(host: str, port: int) -> list[IPAddress]:
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise TargetRefused(f"the host {host!r} does not resolve: {exc}") from None
    found: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    if not found:
        raise TargetRefused(f"the host {host!r} has no address")
    return found


def _unmapped(address: IPAddress) -> IPAddress:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _is_host_name(entry: str) -> bool:
    labels = entry.rstrip(".").split(".")
    return all(label and len(label) <= 63 and label.replace("-", "").isalnum() for label in labels)
