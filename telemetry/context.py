"""What the request being served has learnt about itself, for its log lines: who asked
(token id, never the token), which command it ran, what the command changed.

The request-log middleware (api/http/request_log.py) opens a ``RequestFacts`` per request in
a context variable; code deeper down (the viewer dependency, the pipeline) adds what it
knows with ``note``.  It is one mutable object, not values in the variable, because
Litestar may resolve dependencies in tasks of their own: a task sees the variable's
object, and what it writes there is seen by the middleware after the handler returns.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestFacts:
    correlation_id: str
    encounter_id: str | None = None
    token_id: str | None = None
    command_type: str | None = None
    version: int | None = None
    events: int | None = None


_current: ContextVar[RequestFacts | None] = ContextVar("aeon_request_facts", default=None)


def begin(facts: RequestFacts) -> None:
    _current.set(facts)


def current() -> RequestFacts | None:
    return _current.get()


def note_token(token_id: str | None) -> None:
    if (facts := _current.get()) is not None:
        facts.token_id = token_id


def note_command(command_type: str) -> None:
    if (facts := _current.get()) is not None:
        facts.command_type = command_type


def note_written(version: int, events: int) -> None:
    if (facts := _current.get()) is not None:
        facts.version, facts.events = version, events


def note_created(encounter_id: str) -> None:
    """A new encounter's id, for a request whose path named none (creating one)."""
    if (facts := _current.get()) is not None and facts.encounter_id is None:
        facts.encounter_id = encounter_id
