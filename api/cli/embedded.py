"""The embedded default: a private PostgreSQL from the ``pgserver`` wheel in a data folder.

It lets one command start a working service on a machine with no database server; the
data survives restarts in ``<data_dir>/pgdata``.  Production points DATABASE_URL at a
real server instead.

The embedded default also keeps a chain key (``<data_dir>/chain-key``, readable by its
owner only) and signs every head with it when ``AEON_CHAIN_KEY`` is not set: without a
key, whoever can write the database can rewrite a history undetected
(docs/tamper-evidence.md), and a newcomer should not have to know that to be protected.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import msgspec

from api.settings import Settings

CHAIN_KEY_FILE = "chain-key"


def with_embedded_chain_key(settings: Settings, data_dir: str) -> Settings:
    """``settings`` signing with the data folder's key (made on first use), unless the
    operator set a key of their own."""
    if settings.chain_key is not None:
        return settings
    return msgspec.structs.replace(settings, chain_key=embedded_chain_key(data_dir))


def embedded_chain_key(data_dir: str) -> str:
    """The key kept in the data folder, created (mode 0600, never replaced) if missing."""
    folder = Path(data_dir).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / CHAIN_KEY_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if not key:
            raise SystemExit(f"aeon-ledger: {path} is empty; restore it or remove it") from None
        return key
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(key + "\n")
    return key


def start_embedded_postgres(data_dir: str) -> tuple[Any, str]:
    """Start (or attach to) the embedded server; returns (handle, DSN).

    Keep the handle alive for as long as the service runs: the server stops when the last
    handle is released.
    """
    import pgserver  # imported here: only the embedded default needs it

    folder = Path(data_dir).resolve() / "pgdata"
    folder.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]
    return server, server.get_uri()
