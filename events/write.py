"""What a command's write stores besides its events, worked out before the statement runs
(events/append.py): the read models' rows, snapshots, a new dice seed, the idempotency
record with the exact answer, and the guards it must pass.

The idempotency record must hold the exact answer, and the answer holds the global
positions the same statement assigns, so PostgreSQL assembles the stored answer from
pieces encoded here (``Answer``) and ``Written.response`` joins the same pieces:
byte-identical by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol
from uuid import UUID

import msgspec

from events.envelope import RecordedEvent
from events.prepared import PreparedAppend

_encode = msgspec.json.Encoder().encode
_EVENTS_MARK = b'"events":[]'
_POSITION = b'{"global_position":'


class ProjectedRows(Protocol):
    """What a command adds to the inline read models (projections/rows.py works it out):
    the values of the read models' parameters of the statement, by name."""

    @property
    def rolls(self) -> Sequence[object]:
        """The roll ledger's new rows: the statement writes the ledger only when there
        are some (or when writes with and without them share one statement)."""
        ...

    def parameters(self) -> dict[str, Any]:
        """``ruleset``, ``name``, ``schema_version``, ``state``, ``created_at``,
        ``updated_at``, ``log`` and ``rolls``, as events/append.py's parts read them."""
        ...


class NewSeed(NamedTuple):
    epoch: int
    seed: bytes
    client_seed: str
    commitment: str
    secret_seed: bytes
    secret_commitment: str


class Idempotency(NamedTuple):
    namespace: UUID
    """The stream the key belongs to (for creation, a fixed namespace)."""
    key: str
    request_hash: str


class NewSnapshot(NamedTuple):
    version: int
    schema_version: int
    state_json: str


class Answer:
    """The JSON answer to a command, split around the global positions it will hold.

    ``template`` is the answer encoded with ``events=[]``; each event is encoded with
    global position 0, which leads its object (RecordedEvent's first field), so the
    position is a slot between ``{"global_position":`` and the rest.
    """

    def __init__(self, template: bytes, placeholders: list[RecordedEvent]) -> None:
        at = template.rindex(_EVENTS_MARK) + len(_EVENTS_MARK) - 1
        self.prefix, self.suffix = template[:at], template[at:]
        zero = len(_POSITION) + 1
        self.tails = [_encode(e)[zero:] for e in placeholders]

    def with_positions(self, positions: list[int]) -> bytes:
        events = b",".join(
            _POSITION + str(p).encode() + tail
            for p, tail in zip(positions, self.tails, strict=True)
        )
        return self.prefix + events + self.suffix


class CommandWrite(NamedTuple):
    append: PreparedAppend
    rows: ProjectedRows
    answer: Answer
    snapshots: list[NewSnapshot]
    seed: NewSeed | None
    idempotency: Idempotency | None
    token_id: str | None
    """The writer's token, which must still be unrevoked; None for the service key."""
    head_signature: str | None = None
    """The new head's signature (events/signing.py), stored with it; None: no key."""


class Written(NamedTuple):
    recorded: list[RecordedEvent]
    response: bytes


class Refused(NamedTuple):
    """Nothing was written, and why: the first true reason applies."""

    token_revoked: bool
    key_used: bool
    """The Idempotency-Key already has a stored answer."""
    # otherwise: the stream row was no longer at the expected version


def placeholders(prepared: PreparedAppend) -> list[RecordedEvent]:
    """The events as they will be stored, with global position 0 until the database
    assigns theirs: what folding, the read models and the answer need before the write."""
    return prepared.recorded([0] * len(prepared.versions))


def answer_of(response: Any, events: list[RecordedEvent]) -> Answer:
    """The ``Answer`` for a response Struct whose ``events`` field the write fills in;
    ``events`` are the ``placeholders`` of the write."""
    template = _encode(msgspec.structs.replace(response, events=[]))
    return Answer(template, events)
