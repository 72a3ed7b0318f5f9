"""The replica settings as the environment gives them."""

from __future__ import annotations

from typing import Any

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


def test_the_write_statement_is_single_unless_set_split() -> None:
    assert Settings.from_env({}).write_statement == "single"
    with pytest.raises(ValueError, match="AEON_WRITE_STATEMENT"):
        Settings.from_env({"AEON_WRITE_STATEMENT": "sometimes"})


def test_forwarded_headers_are_trusted_from_no_proxy_unless_listed() -> None:
    assert Settings.from_env({}).trusted_proxies == ()
    listed = Settings.from_env({"AEON_TRUSTED_PROXIES": " 10.0.0.5, 192.168.0.0/24 ,::1"})
    assert listed.trusted_proxies == ("10.0.0.5", "192.168.0.0/24", "::1")
    with pytest.raises(ValueError, match=r"'proxy\.internal'"):
        Settings.from_env({"AEON_TRUSTED_PROXIES": "proxy.internal"})


def test_every_setting_names_its_own_variable_and_defaults_without_it() -> None:
    asked: list[str] = []

    class Recording(dict[str, str]):
        def get(self, key: str, default: Any = None) -> Any:
            asked.append(key)
            return default

    assert Settings.from_env(Recording()) == Settings()
    assert len(asked) == len(Settings.__struct_fields__) == len(set(asked))


def test_a_variable_s_text_becomes_the_field_s_type() -> None:
    settings = Settings.from_env(
        {
            "PORT": "9000",
            "AEON_LIVE_POLL_SECONDS": "0.5",
            "AEON_METRICS": "off",
            "AEON_LOG_REQUESTS": " ",
            "AEON_CORS_ORIGINS": "https://a.example, https://b.example",
            "AEON_SERVICE_KEY": "",
            "AEON_WRITE_STATEMENT": "Split",
        }
    )
    assert settings.port == 9000 and settings.live_poll_seconds == 0.5
    assert settings.metrics is False and settings.log_requests is True
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.service_key is None and settings.write_statement == "split"
    with pytest.raises(ValueError, match="AEON_POOL_MAX"):
        Settings.from_env({"AEON_POOL_MAX": "ten"})
    with pytest.raises(ValueError, match="AEON_METRICS: expected on or off"):
        Settings.from_env({"AEON_METRICS": "sometimes"})
