"""Where a webhook may point: the ``AEON_WEBHOOK_ALLOW`` list, checked after DNS
resolution at registration and again before every request.

A request goes to the very address that was checked (the URL's host is replaced by it;
the Host header and the TLS server name keep the name), so a name that resolves to a
public address when checked and to an internal one a moment later (DNS rebinding) still
cannot reach inside. An IPv6 address that carries an IPv4 address (mapped, compatible,
SIIT, NAT64, 6to4, Teredo) is judged by the IPv4 address inside it, where a translator
would deliver the request.
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
        """Whether requests may go to ``address``: listed itself, or else judged by the
        IPv4 addresses it carries (every reading of them must be admitted), or else
        globally routable under ``public``."""
        if self._lists(address):
            return True
        inner = embedded_ipv4(address)
        if inner:
            return all(self._lists(v4) or self._public(v4) for v4 in inner)
        return self._public(address)

    def _lists(self, address: IPAddress) -> bool:
        return any(address in net for net in self.networks)

    def _public(self, address: IPAddress) -> bool:
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
            raise TargetRefused(
                f"{host} resolves to {_described(address)} not allowed by this service's"
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


_V4_IN_LAST_32_BITS = (
    ipaddress.IPv6Network("::ffff:0:0/96"),  # IPv4-mapped
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (but :: and ::1 are IPv6's own)
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # SIIT, IPv4-translated
    ipaddress.IPv6Network("64:ff9b::/96"),  # NAT64 well-known prefix
)
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")
_NAT64_LOCAL_PREFIX_LENGTHS = (48, 56, 64, 96)
"""The RFC 6052 prefix lengths an operator may carve out of the local-use prefix: which
one a network uses cannot be known from outside, so each reading is judged."""
_SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
_TEREDO = ipaddress.IPv6Network("2001::/32")


def embedded_ipv4(address: IPAddress) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address carries, where a translator, relay or tunnel
    would deliver it to an IPv4 host: the request really goes to those, so they are what
    the allow-list judges. Empty for an address that carries none."""
    if not isinstance(address, ipaddress.IPv6Address):
        return ()
    bits = int(address)
    if bits <= 1:  # the unspecified address and loopback, internal as they are
        return ()
    if any(address in net for net in _V4_IN_LAST_32_BITS):
        return (ipaddress.IPv4Address(bits & 0xFFFFFFFF),)
    if address in _NAT64_LOCAL_USE:
        return tuple(dict.fromkeys(_rfc6052(bits, n) for n in _NAT64_LOCAL_PREFIX_LENGTHS))
    if address in _SIX_TO_FOUR:
        return (ipaddress.IPv4Address((bits >> 80) & 0xFFFFFFFF),)
    if address in _TEREDO:  # the Teredo server, and the client's address (inverted)
        server = ipaddress.IPv4Address((bits >> 64) & 0xFFFFFFFF)
        return server, ipaddress.IPv4Address(~bits & 0xFFFFFFFF)
    return ()


def _rfc6052(bits: int, prefix_length: int) -> ipaddress.IPv4Address:
    """The IPv4 address after a NAT64 prefix of ``prefix_length`` bits (RFC 6052): bits
    64 to 71 are always left out, so the address may straddle them; after a /96 prefix it
    is the last 32 bits."""
    if prefix_length == 96:
        return ipaddress.IPv4Address(bits & 0xFFFFFFFF)
    without_u = (bits >> 64 << 56) | (bits & (1 << 56) - 1)  # 120 bits
    return ipaddress.IPv4Address((without_u >> (120 - prefix_length - 32)) & 0xFFFFFFFF)


def _described(address: IPAddress) -> str:
    """The address and what kind it is, naming the IPv4 addresses it carries."""
    inner = embedded_ipv4(address)
    judged: tuple[IPAddress, ...] = inner or (address,)
    kind = "a public address" if all(a.is_global for a in judged) else "an internal address"
    if address in _NAT64_LOCAL_USE:
        carried = ", ".join(str(v4) for v4 in inner) + " (one per prefix length)"
        return f"{address}, which carries the IPv4 address {carried}: {kind}"
    if address in _TEREDO:
        return f"{address}, which carries the IPv4 addresses {inner[0]} and {inner[1]}: {kind}"
    if inner:
        return f"{address}, which carries the IPv4 address {inner[0]}: {kind}"
    return f"{address}, {kind}"


def _is_host_name(entry: str) -> bool:
    labels = entry.rstrip(".").split(".")
    return all(label and len(label) <= 63 and label.replace("-", "").isalnum() for label in labels)
