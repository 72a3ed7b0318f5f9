"""The embedded default: a private PostgreSQL from the ``pgserver`` wheel in a data folder.

It lets one command start a working service on a machine with no database server; the
data survives restarts in ``<data_dir>/pgdata``.  Production points DATABASE_URL at a
real server instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


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
