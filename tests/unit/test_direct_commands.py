"""Which requests take the direct way to the command route (api/http/direct_commands.py):
only a plain ``POST /encounters/{id}/commands``; everything else is Litestar's."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from api.http.direct_commands import CommandDispatch

EID = "0b6f4a0e-8a53-4c43-9d0b-3a1f1c2d3e4f"
PATH = f"/encounters/{EID}/commands"


class _Recorded:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any, *rest: Any) -> None:
        self.calls.append(rest)


def _scope(
    method: str = "POST", path: str = PATH, headers: list[tuple[bytes, bytes]] | None = None
) -> dict[str, Any]:
    plain = [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")]
    return {
        "type": "http",
        "method": method,
        "path": path,
        "root_path": "",
        "headers": plain if headers is None else headers,
    }


async def _way(scope: dict[str, Any]) -> str:
    litestar, direct = _Recorded(), _Recorded()
    await CommandDispatch(litestar, direct)(scope, None, None)  # type: ignore[arg-type]
    assert len(litestar.calls) + len(direct.calls) == 1
    if direct.calls:
        assert direct.calls[0] == ({"encounter_id": UUID(EID)},)
        return "direct"
    return "litestar"


async def test_a_plain_command_goes_the_direct_way() -> None:
    assert await _way(_scope()) == "direct"
    assert await _way(_scope(path=f"/encounters/{EID.upper()}/commands")) == "direct"
    assert await _way(_scope(headers=[(b"x-correlation-id", b"c" * 200)])) == "direct"


@pytest.mark.parametrize(
    "scope",
    [
        _scope(method="GET"),
        _scope(path=PATH + "/"),
        _scope(path=f"/encounters/{EID.replace('-', '')}/commands"),
        _scope(path=f"/encounters/{EID}/commands/extra"),
        _scope(path=f"/encounters/{EID}/notes"),
        {**_scope(), "root_path": "/api"},
        {**_scope(), "type": "websocket"},
        _scope(headers=[(b"origin", b"https://table.example")]),
        _scope(headers=[(b"x-correlation-id", b"c" * 201)]),
        _scope(headers=[(b"prefer", b"return=representation; " + b"x" * 200)]),
        _scope(headers=[(b"host", b"bad host")]),
    ],
    ids=[
        "GET",
        "trailing slash",
        "id without dashes",
        "longer path",
        "another route",
        "mounted",
        "websocket",
        "another origin",
        "long correlation id",
        "long Prefer",
        "invalid Host",
    ],
)
async def test_anything_else_goes_to_litestar(scope: dict[str, Any]) -> None:
    assert await _way(scope) == "litestar"
