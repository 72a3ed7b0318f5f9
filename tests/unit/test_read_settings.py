"""The replica settings as the environment gives them."""

from __future__ import annotations

import pytest

from api.settings import Settings


def test_read_replicas_are_a_comma_separated_list_of_urls() -> None:
    settings = Settings.from_env(
        {
            "AEON_READ_DATABASE_URLS": " postgresql://r1/aeon, postgresql://r2:5433/aeon ,, ",
            "AEON_READ_REPLICA_WAIT_SECONDS": "0.25",
        }
    )
    assert settings.read_database_urls == ("postgresql://r1/aeon", "postgresql://r2:5433/aeon")
    assert settings.read_replica_wait_seconds == 0.25


def test_without_replicas_every_read_is_the_primary_s() -> None:
    settings = Settings.from_env({"AEON_READ_DATABASE_URLS": ""})
    assert settings.read_database_urls == ()
    assert settings.read_replica_wait_seconds == 0.1


def test_group_commit_is_on_unless_set_per_encounter() -> None:
    assert Settings.from_env({}).group_commit == "on"
    assert Settings.from_env({"AEON_GROUP_COMMIT": " Per-Encounter "}).group_commit == (
        "per-encounter"
    )
    with pytest.raises(ValueError, match="AEON_GROUP_COMMIT"):
        Settings.from_env({"AEON_GROUP_COMMIT": "sometimes"})


def test_forwarded_headers_are_trusted_from_no_proxy_unless_listed() -> None:
    assert Settings.from_env({}).trusted_proxies == ()
    listed = Settings.from_env({"AEON_TRUSTED_PROXIES": " 10.0.0.5, 192.168.0.0/24 ,::1"})
    assert listed.trusted_proxies == ("10.0.0.5", "192.168.0.0/24", "::1")
    with pytest.raises(ValueError, match=r"'proxy\.internal'"):
        Settings.from_env({"AEON_TRUSTED_PROXIES": "proxy.internal"})
