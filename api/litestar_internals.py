"""Everything the service builds on Litestar's private internals, in one place, used only
on the Litestar release it was tested with.

Eight things reach below Litestar's public API:

- the OpenAPI document is completed in place as Litestar builds the served copy
  (``complete_openapi_on_first_use``);
- msgspec Structs that refuse unknown fields are drawn with ``additionalProperties:
  false`` by extending Litestar's own Struct schema plugin (``ClosedStructs``);
- a live stream's response swaps in a leaner body loop (``LiveStream``);
- guards are handed the route handler itself rather than a copy of it
  (``guards_see_the_handler``);
- a request body the service decoded strictly is the one Litestar hands the handler
  (``keep_decoded_body``);
- JSON the service encoded itself goes out through a response with the headers
  Litestar's own would send, built in one pass (``encoded_json``);
- dependencies Litestar would resolve side by side in tasks are resolved one after the
  other (``dependencies_one_at_a_time``);
- one route, the command route, is served past the app's layers, the router and the
  route's kwargs machinery (``serve_directly``, ``DirectRoute``).

A release of Litestar may move any of that without notice, so each use asks ``known()``
first, and ``check()`` says at start-up what an unknown version gives up: the OpenAPI
document is served as Litestar generates it, live streams go through Litestar's own
streaming response, each holding a task and its connection for as long as it is open,
each guard call copies its handler, a body is decoded again by Litestar, responses are
built by Litestar, independent dependencies get a task group, and commands go through
Litestar's routing like every other request.  Slower and plainer, never wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

import litestar
from litestar import Litestar, Request
from litestar.connection import ASGIConnection
from litestar.datastructures import MutableScopeHeaders
from litestar.handlers import HTTPRouteHandler
from litestar.plugins import OpenAPISchemaPluginProtocol
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.response.streaming import ASGIStreamingResponse
from litestar.routes import HTTPRoute
from litestar.types import ASGIApp, Empty, HTTPResponseBodyEvent, Receive, Send
from litestar.utils.scope.state import ScopeState

from api.uvicorn_internals import Connection

try:
    from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
except ImportError:  # a Litestar other than the tested one, where it is never used
    StructSchemaPlugin = object  # type: ignore[misc,assignment]

if TYPE_CHECKING:
    from litestar._kwargs.dependencies import DependencyContainer
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.openapi.spec import Schema
    from litestar.types.asgi_types import HeaderScope
    from litestar.typing import FieldDefinition

log = logging.getLogger("aeon_ledger")

TESTED = (2, 25)
"""The Litestar release (major, minor) whose internals this module was written against."""

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def known() -> bool:
    """Whether the installed Litestar is the tested release."""
    version = litestar.__version__
    return (version.major, version.minor) == TESTED


def check() -> bool:
    """``known()``, with a warning at start-up when it is not."""
    if known():
        return True
    version = litestar.__version__
    log.warning(
        "Litestar %d.%d.%d is not the tested %d.%d: the OpenAPI document is served as "
        "Litestar generates it (no error responses, examples or closed request bodies "
        "added), and live streams go through Litestar's own streaming response",
        version.major,
        version.minor,
        version.patch,
        *TESTED,
    )
    return False


Completion = Callable[[Litestar, dict[str, Any]], None]


def complete_openapi_on_first_use(app: Litestar, complete: Completion) -> bool:
    """Have ``complete`` change the document Litestar serves, in place, when Litestar
    first builds it: on the first request under /schema, not at start-up.

    Building and completing the document costs about 1.5 s of CPU, which every start
    (each test's app, each worker) paid whether the document was asked for or not.
    Litestar builds it on first use and keeps it; the plugin that does so gets a
    subclass whose build also completes it, before anything is served, so every
    /schema page shows the completed document.  False (the document is served as
    Litestar generates it) on a Litestar that is not the tested one."""
    if not known():
        return False
    from litestar._openapi.plugin import OpenAPIPlugin

    plugin = app.plugins.get(OpenAPIPlugin)

    class CompletedOnFirstUse(OpenAPIPlugin):
        """Litestar's plugin, its document completed as it is built; no slots of its
        own, so an existing plugin can become one."""

        __slots__ = ()

        def provide_openapi_schema(self) -> dict[str, Any]:
            if not self._openapi_schema:
                document: dict[str, Any] = self.provide_openapi().to_schema()
                complete(self.app, document)
                # Kept only once complete: a pass that failed is tried again next time
                # instead of leaving a half-completed document served.
                self._openapi_schema = document
            served: dict[str, Any] = self._openapi_schema
            return served

    plugin.__class__ = CompletedOnFirstUse
    return True


class ClosedStructs(StructSchemaPlugin):
    """A msgspec Struct as Litestar draws it, plus ``additionalProperties: false`` for
    the Structs that refuse unknown fields.

    Without it the document allowed any extra member in a request body that the service
    answers with a 400, so a client (or schemathesis) following the document was
    refused."""

    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if field_definition.type_.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        return schema


def guards_see_the_handler(app: Litestar) -> bool:
    """Have the guards of every HTTP route get its route handler itself.

    Litestar 2 passes each guard a shallow copy of the handler (``copy(handler)`` in
    ``authorize_connection``), so that a guard cannot change the handler for later
    requests; on a command that copy cost more than checking the token.  The service's
    guards only read the handler (its signature and ``opt``), so here each guarded
    handler becomes an instance of a subclass of its own class whose
    ``authorize_connection`` hands the guards ``self``.  False (guards get their copy) on
    a Litestar that is not the tested one."""
    if not known():
        return False
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for handler in route.route_handlers:
                if handler.resolve_guards():
                    handler.__class__ = _seen_by_guards(type(handler))
    return True


_GUARDS_SEE_SELF: dict[type[HTTPRouteHandler], type[HTTPRouteHandler]] = {}


def _seen_by_guards(cls: type[HTTPRouteHandler]) -> type[HTTPRouteHandler]:
    """``cls`` with ``authorize_connection`` passing the handler itself; one per class,
    and the class itself when it already is one."""
    if getattr(cls, "_guards_see_self", False):
        return cls
    if (subclass := _GUARDS_SEE_SELF.get(cls)) is None:

        async def authorize_connection(
            self: HTTPRouteHandler, connection: ASGIConnection[Any, Any, Any, Any]
        ) -> None:
            for guard in self.resolve_guards():  # each made awaitable by Litestar
                await guard(connection, self)  # type: ignore[misc]

        with warnings.catch_warnings():
            # Subclassing ``get``, ``post``... warns that those classes become functions
            # in Litestar 3; this runs on the tested 2.x only.
            warnings.simplefilter("ignore", DeprecationWarning)
            subclass = type(
                cls.__name__,
                (cls,),
                {
                    "__slots__": (),
                    "__module__": cls.__module__,
                    "__qualname__": cls.__qualname__,
                    "_guards_see_self": True,
                    "authorize_connection": authorize_connection,
                },
            )
        _GUARDS_SEE_SELF[cls] = subclass
    return subclass


def keep_decoded_body(request: Request[Any, Any, Any], value: Any) -> None:
    """Have Litestar hand the handler ``value`` as the request's body: the body decoded
    into the route's own body type, where Litestar would decode the JSON again and
    convert it.  Litestar keeps the decoded JSON in the request's scope state and
    converts ``data`` from it; msgspec passes a value of the field's type through that
    conversion as it is.  Nothing on a Litestar that is not the tested one."""
    if known():
        ScopeState.from_scope(request.scope).json = value


def dependencies_one_at_a_time(app: Litestar) -> bool:
    """Have every HTTP route resolve its dependencies one after the other.

    Litestar resolves dependencies in batches, each batch only needing earlier ones, and
    a batch of two or more (``viewer`` and ``read_from`` of a read, ``services`` and
    ``viewer`` under a campaign) in an anyio task group: a cancel scope and a task per
    dependency on every request, for providers that take microseconds and mostly await
    nothing.  Here each such batch becomes batches of one, which Litestar awaits
    directly, in an order that keeps each dependency after those it needs.  Within a
    batch, providers that hold a resource while the request runs (generators, such as
    the connection of ``read_from``) come last, so a request refused by another
    dependency acquires nothing.  False (batches as Litestar made them) on a Litestar
    that is not the tested one."""
    if not known():
        return False
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            for _, kwargs_model in route.route_handler_map.values():
                batches = kwargs_model.dependency_batches
                if any(len(batch) > 1 for batch in batches):
                    kwargs_model.dependency_batches = [
                        {dependency}
                        for batch in batches
                        for dependency in sorted(batch, key=_holding_last)
                    ]
    return True


def _holding_last(dependency: DependencyContainer) -> tuple[bool, str]:
    provide = dependency.provide
    holds = provide.has_sync_generator_dependency or provide.has_async_generator_dependency
    return holds, dependency.key


_NO_BODY = frozenset({204, 304})


def encoded_json(body: bytes, status_code: int, headers: Mapping[str, str]) -> ASGIResponse | None:
    """The ASGI response Litestar builds for ``Response(body, media_type=
    "application/json", headers=headers)`` from a handler without response headers,
    cookies or background tasks of its own: the same status, body and header list
    (``headers`` in order, names in lower case, then ``content-type`` and
    ``content-length``), built in one pass.

    Litestar's way (``Response.to_asgi_response`` and ``ASGIResponse.__init__``) merges
    the route's headers, cookies and encoders, and sets the two defaults through a
    case-insensitive mapping that searches the list for each: a good share of what
    answering a command cost.  None, for Litestar's own, on a Litestar that is not the
    tested one, for a status without a body, and when ``headers`` sets either default."""
    if not known() or status_code in _NO_BODY or status_code < 200:
        return None
    raw: list[tuple[bytes, bytes]] = []
    for name, value in headers.items():
        key = name.lower()
        if key in ("content-type", "content-length"):
            return None
        raw.append((key.encode("latin-1"), value.encode("latin-1")))
    raw.append((b"content-type", b"application/json"))
    raw.append((b"content-length", str(len(body)).encode("latin-1")))
    return _EncodedJSON(body, status_code, raw)


class _EncodedJSON(ASGIResponse):
    """``ASGIResponse`` with its fields set directly (the slots its ``__init__`` sets)."""

    __slots__ = ()

    def __init__(
        self, body: bytes, status_code: int, raw_headers: list[tuple[bytes, bytes]]
    ) -> None:
        self.background = None
        self.body = body
        self.content_length = len(body)
        self._encoded_cookies = ()
        self.encoding = "utf-8"
        self.headers = MutableScopeHeaders(cast("HeaderScope", {"headers": raw_headers}))
        self.is_head_response = False
        self.status_code = status_code


def schema_plugins() -> list[OpenAPISchemaPluginProtocol]:
    """The service's OpenAPI schema plugins, on the tested Litestar."""
    return [ClosedStructs()] if known() else []


async def _until_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class _Body:
    """A stream's bytes and, when the server exposed it, its connection."""

    __slots__ = ("chunks", "connection")

    def __init__(self, chunks: AsyncGenerator[bytes], connection: Connection | None) -> None:
        self.chunks, self.connection = chunks, connection

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.chunks


class LiveStream(Stream):
    """``text/event-stream`` of the bytes an async iterator yields, with a leaner body
    loop than Litestar's (``_LiveBody``) on the tested Litestar."""

    __slots__ = ()

    def __init__(self, chunks: AsyncGenerator[bytes], connection: Connection | None) -> None:
        super().__init__(
            _Body(chunks, connection), media_type="text/event-stream", headers=SSE_HEADERS
        )

    @staticmethod
    def connection_of(scope: Any) -> Connection | None:
        """The request's connection, which a caught-up stream may take over: only where
        the body loop can leave the response open for it (the tested Litestar)."""
        return Connection.of(scope) if known() else None

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        response = super().to_asgi_response(*args, **kwargs)
        if known():
            response.__class__ = _LiveBody
        return response


class _LiveBody(ASGIStreamingResponse):
    """Litestar's streaming response with the request's own task sending the body.

    Litestar streams a body from a task of an anyio task group while the request's task
    waits for the client to go; with ten thousand idle streams those objects were a fair
    share of what each one held.  Here the request's own task sends the body and is
    cancelled when the client goes: told so by the service's protocol when it exposes the
    connection (api/uvicorn_internals.py), else by one plain asyncio task reading
    ``receive``.  The same behaviour (a stream ends as soon as its client goes) with at
    most one task; and with the service's protocol, none at all once the stream has
    caught up and its connection owns it."""

    __slots__ = ()

    async def send_body(self, send: Send, receive: Receive) -> None:
        body = self.iterator
        assert isinstance(body, _Body)
        if body.connection is not None:
            await self._send_told(send, body.chunks, body.connection)
            return
        sender = asyncio.current_task()
        assert sender is not None

        def client_left(listener: asyncio.Future[None]) -> None:
            if not listener.cancelled() and listener.exception() is None:
                sender.cancel()

        gone = asyncio.ensure_future(_until_disconnect(receive))
        gone.add_done_callback(client_left)
        try:
            await _send_chunks(send, body.chunks)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not (gone.done() and not gone.cancelled() and gone.exception() is None):
                raise  # cancelled from outside (shutdown), not by the client leaving
            sender.uncancel()
        finally:
            gone.remove_done_callback(client_left)
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gone
            await body.chunks.aclose()

    @staticmethod
    async def _send_told(send: Send, chunks: AsyncGenerator[bytes], connection: Connection) -> None:
        """The body loop when the protocol tells ``connection`` that the client left.
        When the body ends because the connection took the stream over, the call
        returns with the response left open: uvicorn drops the closing send, and the
        connection's owner ends it later."""
        sender = asyncio.current_task()
        assert sender is not None
        left = False

        def client_left() -> None:
            nonlocal left
            left = True
            sender.cancel()

        connection.on_lost = client_left
        try:
            if not connection.gone:
                await _send_chunks(send, chunks)
            if not connection.owned:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            if not left:
                raise  # cancelled from outside (shutdown), not by the client leaving
            sender.uncancel()
        finally:
            if connection.on_lost is client_left:
                connection.on_lost = None
            await chunks.aclose()


async def _send_chunks(send: Send, chunks: AsyncGenerator[bytes]) -> None:
    """Each chunk as a part of the body, more to come."""
    async for chunk in chunks:
        event: HTTPResponseBodyEvent = {
            "type": "http.response.body",
            "body": chunk,
            "more_body": True,
        }
        await send(event)


Serve = Callable[[Request[Any, Any, Any], Any], Awaitable[Any]]
"""A directly served route's work: the request and its strictly decoded body in, what
the route handler would return out."""


class DirectRoute:
    """One HTTP route handler served without Litestar's app layers, routing and
    per-request machinery (``serve_directly``).

    Called with a request the caller found to be the route's and plain, it sets in the
    scope what Litestar's app and router would have set, then runs the route's own
    middleware and exception handling as Litestar built them for the route, around the
    route's guards, its ``before_request`` hook, ``serve`` and the handler's response.
    Skipped: the CORS layer (the caller sends any request with an ``Origin`` header to
    Litestar), the router's search, the kwargs model, dependency resolution and the
    signature model.  A body the ``before_request`` hook left undecoded goes on to the
    route as Litestar handles it, so every refusal of a body reads as Litestar's.
    """

    __slots__ = (
        "_app",
        "_before",
        "_handler",
        "_handlers",
        "_route",
        "_serve",
        "_stack",
        "_template",
    )

    def __init__(
        self, app: Litestar, route: HTTPRoute, handler: HTTPRouteHandler, serve: Serve
    ) -> None:
        from litestar._asgi.utils import wrap_in_exception_handler

        self._app, self._route, self._handler, self._serve = app, route, handler, serve
        self._template = route.path_format
        self._before = handler.resolve_before_request()
        self._handlers = handler.resolve_exception_handlers()
        stack: Any = wrap_in_exception_handler(app=self._handle)
        for middleware in handler.resolve_middleware():  # as Litestar builds a route's stack
            if hasattr(middleware, "__iter__"):
                factory, kwargs = cast("tuple[Any, dict[str, Any]]", middleware)
                stack = factory(app=stack, **kwargs)
            else:
                stack = cast("Any", middleware)(app=stack)
        # The app's own exception layer: what the middleware raises (the rate limit's 429).
        self._stack = wrap_in_exception_handler(app=stack)

    async def __call__(
        self, scope: Any, receive: Receive, send: Send, path_params: dict[str, Any]
    ) -> None:
        scope["path_params"] = path_params
        scope["route_handler"] = self._handler
        scope["path_template"] = self._template
        ScopeState.from_scope(scope).exception_handlers = self._handlers
        await self._stack(scope, receive, send)

    async def _handle(self, scope: Any, receive: Receive, send: Send) -> None:
        handler = self._handler
        request: Request[Any, Any, Any] = Request(scope, receive, send)
        await handler.authorize_connection(request)
        if self._before is not None:
            await self._before(request)
        body = ScopeState.from_scope(scope).json
        if body is Empty:
            await self._route.handle(scope, receive, send)
            return
        returned = await self._serve(request, body)
        response = await handler.to_response(app=self._app, data=returned, request=request)
        await response(scope, receive, send)


def serve_directly(
    app: Litestar,
    operation_id: str,
    serve: Serve,
    dispatch: Callable[[ASGIApp, DirectRoute], ASGIApp],
) -> bool:
    """Put ``dispatch(litestar_layers, DirectRoute(...))`` in front of the app's own
    layers (CORS, exception handling, the router), for the HTTP route handler with
    ``operation_id``: ``dispatch`` decides per request which of the two serves it.

    False (nothing changed) on a Litestar that is not the tested one, and where the
    route or the app has what the direct way would skip or not know: CSRF, compression,
    allowed hosts, a response cache, ``before_send`` or ``after_response`` hooks, or
    OpenTelemetry's middleware around the app's layers."""
    if not known() or app.csrf_config or app.compression_config or app.allowed_hosts:
        return False
    if app.before_send or _has_plugin(app, "OpenTelemetryPlugin"):
        return False
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            if handler.operation_id != operation_id:
                continue
            if handler.cache or handler.resolve_after_response() is not None:
                return False
            app.asgi_handler = dispatch(app.asgi_handler, DirectRoute(app, route, handler, serve))
            return True
    return False


def _has_plugin(app: Litestar, name: str) -> bool:
    """Whether ``app`` has the plugin of this class name (as Litestar looks its
    OpenTelemetry plugin up when it builds the app's layers)."""
    try:
        app.plugins.get(name)
    except KeyError:
        return False
    return True


def host_accepted(host: bytes) -> bool:
    """Whether Litestar's router accepts ``host`` as a Host header (it refuses others
    with a 400 before routing)."""
    from litestar._asgi.utils import is_valid_host

    return is_valid_host(host)
