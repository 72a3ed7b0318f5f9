"""The webhook allow-list (AEON_WEBHOOK_ALLOW): what each entry admits, and that every
address a host resolves to is checked."""

from __future__ import annotations

import ipaddress

import pytest

from api.webhooks.targets import AllowList, TargetRefused, check_target


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
