"""What a request's way through Litestar is spared on the tested release, and that each
shortcut gives what Litestar's own way gives (api/litestar_internals.py): guards see the
route handler itself, a strictly decoded body is the value the handler gets, JSON the
service encoded goes out with exactly the headers Litestar would send, and independent
dependencies are resolved one after the other."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import litestar
import msgspec
import pytest
from litestar import Litestar, Request, Response, get, post
from litestar.connection import ASGIConnection
from litestar.di import NamedDependency, Provide
from litestar.handlers import BaseRouteHandler
from litestar.params import JSONBody
from litestar.response.base import ASGIResponse
from litestar.routes import HTTPRoute
from litestar.testing import TestClient
from litestar.utils.version import Version

from api import litestar_internals
from api.http.responses import EncodedJSON, json_bytes


@pytest.fixture
def unknown_litestar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(litestar, "__version__", Version(3, 0, 0, "final", 0))


def _guarded_app() -> tuple[Litestar, list[BaseRouteHandler]]:
    seen: list[BaseRouteHandler] = []

    async def guard(
        connection: ASGIConnection[Any, Any, Any, Any], handler: BaseRouteHandler
    ) -> None:
        seen.append(handler)

    @get("/guarded", guards=[guard], sync_to_thread=False)
    def guarded() -> str:
        return "ok"

    app = Litestar([guarded])
    litestar_internals.guards_see_the_handler(app)
    return app, seen


def _handler(app: Litestar, path: str) -> BaseRouteHandler:
    return next(h for r in app.routes if r.path == path for h in r.route_handlers)


def test_guards_see_the_handler_itself() -> None:
    app, seen = _guarded_app()
    with TestClient(app) as client:
        assert client.get("/guarded").text == "ok"
        assert client.get("/guarded").text == "ok"
    assert seen[0] is seen[1] is _handler(app, "/guarded")
    assert isinstance(seen[0], get)


def test_on_an_unknown_litestar_guards_get_their_copy(unknown_litestar: None) -> None:
    app, seen = _guarded_app()
    with TestClient(app) as client:
        assert client.get("/guarded").text == "ok"
    assert seen[0] is not _handler(app, "/guarded")


class Body(msgspec.Struct, forbid_unknown_fields=True):
    hp: int


kept: list[Any] = []


async def _keep_strictly_decoded(request: Request[Any, Any, Any]) -> None:
    value = msgspec.json.decode(await request.body(), type=Body, strict=True)
    kept.append(value)
    litestar_internals.keep_decoded_body(request, value)


@post("/body", before_request=_keep_strictly_decoded, status_code=200, sync_to_thread=False)
def take_body(data: JSONBody[Body]) -> bool:
    return data is kept[-1]


def test_the_handler_gets_the_body_decoded_before() -> None:
    with TestClient(Litestar([take_body])) as client:
        assert client.post("/body", json={"hp": 7}).json() is True


def test_on_an_unknown_litestar_the_body_is_decoded_again(unknown_litestar: None) -> None:
    with TestClient(Litestar([take_body])) as client:
        assert client.post("/body", json={"hp": 7}).json() is False


async def _sent(response: ASGIResponse) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        messages.append(message)

    async def receive() -> Any:
        return {"type": "http.disconnect"}

    await response({"type": "http"}, receive, send)  # type: ignore[arg-type]
    return messages


@pytest.mark.parametrize(
    ("status", "headers"),
    [
        (200, {}),
        (200, {"ETag": '"7"', "Aeon-Chain-Head": "7:ab12"}),
        (201, {"Location": "/campaigns/x", "Preference-Applied": "return=representation"}),
        (200, {"Vary": "Prefer", "vary": "Accept"}),
    ],
)
async def test_encoded_json_sends_what_litestar_sends(status: int, headers: dict[str, str]) -> None:
    body = b'{"encounter_id":"e","version":7,"events":[]}'
    request: Any = None
    ours = json_bytes(body, status_code=status, headers=dict(headers)).to_asgi_response(
        None, request, cookies=[], headers={}
    )
    theirs = Response(
        body, status_code=status, media_type="application/json", headers=dict(headers)
    ).to_asgi_response(None, request, cookies=[], headers={})
    assert type(ours) is not ASGIResponse, "the lean response was built"
    assert await _sent(ours) == await _sent(theirs)


@pytest.mark.parametrize(
    ("status", "headers", "extra"),
    [
        (304, {"ETag": '"7"'}, {}),
        (200, {"Content-Type": "application/problem+json"}, {}),
        (200, {}, {"headers": {"X-Route": "1"}}),
        (200, {}, {"is_head_response": True}),
    ],
)
async def test_otherwise_litestar_builds_the_response(
    status: int, headers: dict[str, str], extra: dict[str, Any]
) -> None:
    body = b"" if status == 304 or extra.get("is_head_response") else b"{}"
    request: Any = None
    response = EncodedJSON(body, status_code=status, media_type="application/json", headers=headers)
    built = response.to_asgi_response(None, request, **{"cookies": [], "headers": {}, **extra})
    assert type(built) is ASGIResponse


async def test_on_an_unknown_litestar_litestar_builds_the_response(unknown_litestar: None) -> None:
    request: Any = None
    built = json_bytes(b"{}").to_asgi_response(None, request, cookies=[], headers={})
    assert type(built) is ASGIResponse


async def _held() -> AsyncIterator[str]:
    order.append("held")
    yield "held"


async def _plain() -> str:
    order.append("plain")
    return "plain"


order: list[str] = []


@get(
    "/both",
    dependencies={"a_held": Provide(_held), "b_plain": Provide(_plain)},
    sync_to_thread=False,
)
def both(a_held: NamedDependency[str], b_plain: NamedDependency[str]) -> str:
    return f"{a_held} {b_plain}"


def _batches(app: Litestar) -> list[list[str]]:
    route = next(r for r in app.routes if r.path == "/both")
    assert isinstance(route, HTTPRoute)
    _, kwargs_model = route.route_handler_map["GET"]
    return [sorted(d.key for d in batch) for batch in kwargs_model.dependency_batches]


def test_independent_dependencies_are_resolved_one_after_the_other() -> None:
    app = Litestar([both])
    assert _batches(app) == [["a_held", "b_plain"]]
    assert litestar_internals.dependencies_one_at_a_time(app)
    assert _batches(app) == [["b_plain"], ["a_held"]], "what holds a resource comes last"
    order.clear()
    with TestClient(app) as client:
        assert client.get("/both").text == "held plain"
    assert order == ["plain", "held"]


def test_on_an_unknown_litestar_they_are_resolved_in_a_task_group(
    unknown_litestar: None,
) -> None:
    app = Litestar([both])
    assert not litestar_internals.dependencies_one_at_a_time(app)
    assert _batches(app) == [["a_held", "b_plain"]]
