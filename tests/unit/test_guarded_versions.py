"""Which releases of uvicorn and Litestar the guarded optimisations accept: the tested
minor release, any patch of it, and nothing else (api/uvicorn_internals.py,
api/litestar_internals.py)."""

from __future__ import annotations

import litestar
import pytest
from litestar.utils.version import Version

from api import litestar_internals, uvicorn_internals


@pytest.mark.parametrize(
    ("version", "known"),
    [
        ("0.54.0", True),
        ("0.54.7", True),
        ("0.55.0", False),
        ("0.55.0rc1", False),
        ("1.0", False),
        ("0.5", False),
        ("unknown", False),
    ],
)
def test_uvicorn_releases(version: str, known: bool) -> None:
    assert uvicorn_internals.known(version) is known
    expected = uvicorn_internals.CoalescingHttpToolsProtocol if known else "httptools"
    assert uvicorn_internals.http_protocol(version) == expected


def test_litestar_releases(monkeypatch: pytest.MonkeyPatch) -> None:
    assert litestar_internals.known()
    monkeypatch.setattr(litestar, "__version__", Version(2, 25, 9, "final", 0))
    assert litestar_internals.known() and litestar_internals.check()
    monkeypatch.setattr(litestar, "__version__", Version(2, 26, 0, "final", 0))
    assert not litestar_internals.known() and not litestar_internals.check()
    assert litestar_internals.schema_plugins() == []
