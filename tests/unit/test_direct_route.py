"""A route served directly (api/litestar_internals.py ``serve_directly``) answers every
request as Litestar's own way answers it: the same guards, body hook, middleware and
exception handling, and a body the hook leaves undecoded goes on to Litestar."""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import litestar
import msgspec
import pytest
from litestar import Litestar, Request, post
from litestar.connection import ASGIConnection
from litestar.exceptions import ClientException, NotAuthorizedException, ValidationException
from litestar.handlers import BaseRouteHandler
from litestar.middleware import DefineMiddleware
from litestar.params import FromPath, JSONBody
from litestar.plugins.problem_details import ProblemDetailsConfig, ProblemDetailsPlugin
from litestar.testing import TestClient
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from litestar.utils.version import Version

from api import litestar_internals


class Thing(msgspec.Struct, forbid_unknown_fields=True):
    hp: int


async def _token(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    if connection.headers.get("authorization") != "Bearer ok":
        raise NotAuthorizedException("send 'Bearer ok'")


async def _strictly(request: Request[Any, Any, Any]) -> None:
    try:
        value = msgspec.json.decode(await request.body(), type=Thing, strict=True)
    except msgspec.ValidationError as exc:
        raise ValidationException(f"Invalid request body: {exc}") from None
    except msgspec.DecodeError:
        return  # malformed: Litestar's own 400
    litestar_internals.keep_decoded_body(request, value)


class _Limit:
    """Marks each answer, and refuses a request that asks for it with a 429 raised
    outside the route's exception layer (as the service's rate limit does)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if any(k == b"x-limit" for k, _ in scope["headers"]):
            raise litestar.exceptions.HTTPException(status_code=429, detail="slow down")

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), (b"x-layer", b"1")]
            await send(message)

        await self.app(scope, receive, marked)


@post(
    "/things/{thing_id:uuid}",
    operation_id="postThing",
    guards=[_token],
    before_request=_strictly,
    middleware=[DefineMiddleware(_Limit)],
    status_code=200,
)
async def post_thing(thing_id: FromPath[UUID], data: JSONBody[Thing]) -> dict[str, Any]:
    if data.hp < 0:
        raise ClientException("hit points are never negative")
    return {"thing": str(thing_id), "hp": data.hp}


served: list[UUID] = []


async def _serve(request: Request[Any, Any, Any], body: Any) -> Any:
    thing_id: UUID = request.path_params["thing_id"]
    served.append(thing_id)
    return await request.route_handler.fn(thing_id=thing_id, data=body)


class _Always:
    """Every POST under /things/ to the direct route."""

    def __init__(self, app: ASGIApp, direct: litestar_internals.DirectRoute) -> None:
        self.app, self.direct = app, direct

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/things/"):
            await self.direct(scope, receive, send, {"thing_id": UUID(scope["path"][8:])})
            return
        await self.app(scope, receive, send)


def _app(*, direct: bool) -> Litestar:
    app = Litestar(
        [post_thing],
        plugins=[ProblemDetailsPlugin(ProblemDetailsConfig(enable_for_all_http_exceptions=True))],
    )
    if direct:
        assert litestar_internals.serve_directly(app, "postThing", _serve, _Always)
    return app


CASES: list[tuple[str, dict[str, str], bytes]] = [
    ("served", {"authorization": "Bearer ok"}, b'{"hp": 7}'),
    ("refused by the rule", {"authorization": "Bearer ok"}, b'{"hp": -1}'),
    ("no token", {}, b'{"hp": 7}'),
    ("strict body", {"authorization": "Bearer ok"}, b'{"hp": "7"}'),
    ("malformed", {"authorization": "Bearer ok"}, b'{"hp": '),
    ("no body", {"authorization": "Bearer ok"}, b""),
    ("limited", {"authorization": "Bearer ok", "x-limit": "1"}, b'{"hp": 7}'),
]


@pytest.mark.parametrize(("case", "headers", "body"), CASES, ids=[c[0] for c in CASES])
def test_a_direct_route_answers_as_litestar_does(
    case: str, headers: dict[str, str], body: bytes
) -> None:
    path = f"/things/{uuid4()}"
    answers = []
    for direct in (True, False):
        with TestClient(_app(direct=direct)) as client:
            answer = client.post(path, content=body, headers=headers)
            answers.append((answer.status_code, answer.headers.multi_items(), answer.content))
    assert answers[0] == answers[1]


def test_the_direct_way_serves_what_it_decoded_and_leaves_the_rest_to_litestar() -> None:
    served.clear()
    with TestClient(_app(direct=True)) as client:
        ok = {"authorization": "Bearer ok"}
        assert client.post(f"/things/{uuid4()}", content=b'{"hp": 7}', headers=ok).is_success
        assert len(served) == 1
        assert client.post(f"/things/{uuid4()}", content=b'{"hp": ', headers=ok).status_code == 400
        assert client.post(f"/things/{uuid4()}", content=b'{"hp": 7}').status_code == 401
    assert len(served) == 1


def test_not_on_an_unknown_litestar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(litestar, "__version__", Version(3, 0, 0, "final", 0))
    app = Litestar([post_thing])
    assert not litestar_internals.serve_directly(app, "postThing", _serve, _Always)


async def _before_send(message: Message, scope: Scope) -> None:
    pass


def test_not_where_the_direct_way_would_skip_a_hook() -> None:
    app = Litestar([post_thing], before_send=[_before_send])
    assert not litestar_internals.serve_directly(app, "postThing", _serve, _Always)
    assert not litestar_internals.serve_directly(Litestar([post_thing]), "other", _serve, _Always)
