"""The webhook allow-list (AEON_WEBHOOK_ALLOW): what each entry admits, and that every
address a host resolves to is checked."""

from __future__ import annotations

import ipaddress

import pytest

from api.webhooks.targets import AllowList, TargetRefused, check_target, embedded_ipv4


def ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(text)


def test_public_admits_globally_routable_addresses_only() -> None:
    allow = AllowList.parse("public")
    assert allow.allows_address(ip("93.184.216.34"))
    assert allow.allows_address(ip("2606:4700::6810:85e5"))
    for internal in (
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "::1",
        "fe80::1",
        "fd00::1",
        "::ffff:10.0.0.1",
        "::ffff:127.0.0.1",
        "224.0.0.1",
    ):
        assert not allow.allows_address(ip(internal)), internal


def test_addresses_networks_and_names_are_admitted_as_listed() -> None:
    allow = AllowList.parse(" 127.0.0.1 , 10.8.0.0/16, hooks.internal.example, *.corp.example ")
    assert not allow.public
    assert allow.allows_address(ip("127.0.0.1"))
    assert allow.allows_address(ip("::ffff:127.0.0.1"))
    assert not allow.allows_address(ip("127.0.0.2"))
    assert allow.allows_address(ip("10.8.200.1")) and not allow.allows_address(ip("10.9.0.1"))
    assert not allow.allows_address(ip("93.184.216.34"))  # no 'public' entry
    assert allow.allows_name("HOOKS.internal.example.")
    assert allow.allows_name("a.b.corp.example") and not allow.allows_name("corp.example")
    assert not allow.allows_name("evil-corp.example")


def test_an_entry_that_means_nothing_stops_the_start() -> None:
    with pytest.raises(ValueError, match="'http://x'"):
        AllowList.parse("public, http://x")


async def test_a_target_is_checked_after_resolution_and_pinned_to_the_checked_address() -> None:
    loopback = AllowList.parse("127.0.0.1")
    target = await check_target("http://localhost:8080/hook?x=1", loopback)
    assert str(target.address) == "127.0.0.1"
    url, headers, extensions = target.pinned()
    assert str(url) == "http://127.0.0.1:8080/hook?x=1"
    assert headers == {"Host": "localhost:8080"} and extensions == {}
    with pytest.raises(TargetRefused, match=r"localhost resolves to 127\.0\.0\.1, an internal"):
        await check_target("http://localhost/hook", AllowList.parse("public"))
    by_name = await check_target("https://localhost/x", AllowList.parse("localhost"))
    assert by_name.pinned()[2] == {"sni_hostname": "localhost"}


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://127.0.0.1/x", "absolute http"),
        ("/relative", "absolute http"),
        ("http://u:p@127.0.0.1/x", "user name or password"),
        ("http://no-such-host.invalid/x", "does not resolve"),
        ("http://127.0.0.2/x", "not allowed"),
    ],
)
async def test_targets_that_are_refused_say_why(url: str, reason: str) -> None:
    with pytest.raises(TargetRefused, match=reason):
        await check_target(url, AllowList.parse("127.0.0.1"))


ISSUE_ADDRESSES = [
    # The addresses an outside test registered under the default 'public' list.
    ("64:ff9b::169.254.169.254", "169.254.169.254"),  # NAT64 well-known prefix
    ("64:ff9b::10.0.0.1", "10.0.0.1"),
    ("64:ff9b:1::a00:1", "10.0.0.1"),  # NAT64 local-use prefix, read as a /96
    ("2002:a9fe:a9fe::", "169.254.169.254"),  # 6to4
    ("::10.0.0.1", "10.0.0.1"),  # IPv4-compatible
    ("::127.0.0.1", "127.0.0.1"),
    ("::ffff:0:10.0.0.1", "10.0.0.1"),  # SIIT (IPv4-translated)
]
EVERY_FORM = [
    ("::ffff:10.0.0.1", "10.0.0.1"),  # IPv4-mapped
    ("64:ff9b:1:a00:0:100::", "10.0.0.1"),  # NAT64 local-use prefix, read as a /48
    ("64:ff9b:1:0:a:0:100::", "10.0.0.1"),  # ... as a /64 (bits 64 to 71 left out)
    # Teredo: server 65.54.227.120, client 192.168.1.2 (stored inverted) behind port 4096
    ("2001:0:4136:e378:8000:efff:3f57:fefd", "192.168.1.2"),
]


@pytest.mark.parametrize(("address", "inner"), ISSUE_ADDRESSES + EVERY_FORM)
def test_an_ipv6_address_carrying_an_internal_ipv4_address_is_internal(
    address: str, inner: str
) -> None:
    assert ipaddress.ip_address(inner) in embedded_ipv4(ip(address))
    assert not AllowList.parse("public").allows_address(ip(address))


@pytest.mark.parametrize(("address", "inner"), ISSUE_ADDRESSES + EVERY_FORM)
async def test_registration_refuses_them_naming_the_ipv4_address_inside(
    address: str, inner: str
) -> None:
    with pytest.raises(TargetRefused, match=rf"carries the IPv4 address.*{inner}.*internal"):
        await check_target(f"http://[{address}]:8080/hook", AllowList.parse("public"))


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::93.184.216.34",  # NAT64 of a public host
        "2002:5db8:d822::1",  # 6to4 of 93.184.216.34
        "::ffff:93.184.216.34",
        "::ffff:0:93.184.216.34",
    ],
)
def test_an_ipv6_address_carrying_a_public_ipv4_address_is_public(address: str) -> None:
    assert AllowList.parse("public").allows_address(ip(address))


def test_the_ipv4_address_inside_is_judged_by_the_listed_entries_too() -> None:
    allow = AllowList.parse("10.0.0.0/8")
    assert allow.allows_address(ip("64:ff9b::10.0.0.1"))
    assert allow.allows_address(ip("::ffff:0:10.0.0.1"))
    assert not allow.allows_address(ip("64:ff9b::11.0.0.1"))
    # Listing the IPv6 form itself admits it whatever it carries.
    assert AllowList.parse("64:ff9b::/96").allows_address(ip("64:ff9b::10.0.0.1"))


def test_a_local_use_nat64_address_must_pass_under_every_prefix_length() -> None:
    """The local-use prefix may be cut at /48, /56, /64 or /96, which places the IPv4
    address differently: one public reading is not enough."""
    public = AllowList.parse("public")
    address = ip("64:ff9b:1:5db8:d8:2200::")  # 93.184.216.34 as a /48, others as junk
    assert ip("93.184.216.34") in embedded_ipv4(address)
    assert not public.allows_address(address)
