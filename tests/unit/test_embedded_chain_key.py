"""The embedded default keeps a chain key in its data folder, so a service started with no
configuration signs its heads (docs/tamper-evidence.md)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from api.cli.embedded import embedded_chain_key, with_embedded_chain_key
from api.settings import Settings


def test_the_key_is_made_once_readable_by_its_owner_only_and_kept(tmp_path: Path) -> None:
    key = embedded_chain_key(str(tmp_path / "data"))
    path = tmp_path / "data" / "chain-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(key) == 64 and int(key, 16) >= 0
    assert embedded_chain_key(str(tmp_path / "data")) == key  # a restart signs alike


def test_it_is_used_only_when_the_operator_set_none(tmp_path: Path) -> None:
    used = with_embedded_chain_key(Settings(), str(tmp_path))
    assert used.chain_key == (tmp_path / "chain-key").read_text().strip()
    assert used.chain_key == embedded_chain_key(str(tmp_path))
    other = tmp_path / "other"
    own = Settings(chain_key="the operator's own")
    assert with_embedded_chain_key(own, str(other)) is own
    assert not (other / "chain-key").exists()


def test_an_emptied_key_file_stops_the_start_rather_than_signing_with_nothing(
    tmp_path: Path,
) -> None:
    (tmp_path / "chain-key").write_text("")
    with pytest.raises(SystemExit, match="chain-key is empty"):
        embedded_chain_key(str(tmp_path))
