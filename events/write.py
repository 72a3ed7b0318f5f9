"""A command's write: what it stores besides its events, worked out before the statement
runs (the read models' rows, snapshots, a new dice seed, the idempotency record with the
exact answer, and the guards it must pass), and running it as events/append.py's one
statement (``commit``; ``commit_many`` for writes that share a round trip).

The idempotency record must hold the exact answer, and the answer holds the global
positions the same statement assigns, so PostgreSQL assembles the stored answer from
pieces encoded here (``Answer``) and ``Written.response`` joins the same pieces:
byte-identical by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol
from uuid import UUID

import asyncpg
import msgspec

from events.append import Parts, append_values, statement
from events.db import Connection
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


def write_values(write: CommandWrite) -> dict[str, Any]:
    """Every named value a command's write can have; its statement uses those of its
    parts."""
    values = append_values(write.append, write.head_signature)
    values.update(write.rows.parameters())
    # As the read models' rows: one JSON array, read as jsonb by the statement.
    values.update(token=write.token_id, snapshots=_encode(write.snapshots).decode())
    if write.seed is not None:
        values.update(write.seed._asdict())
    if write.idempotency is not None:
        idem = write.idempotency
        values.update(
            key_stream=idem.namespace,
            key=idem.key,
            request_hash=idem.request_hash,
            answer_prefix=write.answer.prefix.decode(),
            answer_versions=write.append.versions,
            answer_tails=[t.decode() for t in write.answer.tails],
            answer_suffix=write.answer.suffix.decode(),
        )
    return values


def parts_of(write: CommandWrite, *, every_part: bool = False) -> Parts:
    """The parts ``write`` needs; ``every_part`` keeps the roll ledger's and the
    snapshots' even where they would run empty, so that writes with and without rolls or
    a snapshot can share one statement."""
    return Parts(
        token=write.token_id is not None,
        key=write.idempotency is not None,
        read_models=True,
        rolls=every_part or bool(write.rows.rolls),
        snapshots=every_part or bool(write.snapshots),
        seed=write.seed is not None,
    )


def bound(write: CommandWrite, *, every_part: bool = False) -> tuple[str, list[Any]]:
    """The statement variant a write needs and its arguments, in parameter order."""
    sql, names = statement(parts_of(write, every_part=every_part))
    values = write_values(write)
    return sql, [values[name] for name in names]


def outcome(write: CommandWrite, row: asyncpg.Record | None) -> Written | Refused:
    """What the statement's one result row says became of ``write``."""
    assert row is not None
    positions: list[int] = row["positions"]
    if not positions:
        return Refused(token_revoked=not row["token_valid"], key_used=not row["key_unused"])
    return Written(write.append.recorded(positions), write.answer.with_positions(positions))


async def commit(conn: Connection, write: CommandWrite) -> Written | Refused:
    """Run a command's write; on a connection in a transaction it joins that transaction.

    Raises asyncpg.UniqueViolationError when a concurrent request with the same
    Idempotency-Key committed its answer first (the caller serves that answer).
    """
    sql, arguments = bound(write)
    return outcome(write, await conn.fetchrow(sql, *arguments))


async def commit_many(
    conn: Connection, writes: Sequence[CommandWrite], *, every_part: bool = False
) -> list[Written | Refused]:
    """Run writes that share one statement variant (the same guards and seed part;
    ``every_part`` where their rolls or snapshots differ) in one round trip: each its own
    execution with its own guards, in one implicit transaction.

    Raises what PostgreSQL raised for the first write it refused: then nothing of the
    round trip stands."""
    bound_writes = [bound(write, every_part=every_part) for write in writes]
    sql = bound_writes[0][0]
    assert all(other == sql for other, _ in bound_writes), "one statement variant"
    if len(writes) == 1:
        rows: Sequence[asyncpg.Record | None] = [await conn.fetchrow(sql, *bound_writes[0][1])]
    else:
        rows = await conn.fetchmany(sql, [arguments for _, arguments in bound_writes])
    return [outcome(write, row) for write, row in zip(writes, rows, strict=True)]
