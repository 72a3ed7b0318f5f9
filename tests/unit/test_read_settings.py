"""The replica settings as the environment gives them."""

from __future__ import annotations

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
