"""A command's whole write in one statement: one round trip to PostgreSQL.

The events, the stream head, the read models (state, log, roll ledger), any snapshot, a
new dice seed and the idempotency record are written by data-modifying CTEs of a single
statement.  Every part is conditional on the stream row still being at the version the
command was decided on, on the writer's token being unrevoked and on the
Idempotency-Key being unused, so the statement writes all of it or nothing.

The parts are the events' (events/append.py's INSERT_EVENTS), the read models' (asked of
the rows the projector worked out: ``ProjectedRows``, projections/statement.py) and this
module's own: the guard, the stream head, snapshots, the seed and the answer.

Why one statement: every round trip costs CPU on both sides (asyncpg and the event loop in
the service; a statement, a wake-up and a commit in PostgreSQL), and a command's write is
seven statements' work: as one, it costs PostgreSQL about 40% less CPU (bench/README.md).
On the common path of service/unit_of_work.py the statement runs without a lock,
in the implicit transaction of its group (service/group_commit.py: ``bound`` and
``outcome`` are its two halves); on the locking path it is the last step of the
transaction that locked the stream row (``commit``).

The idempotency record must hold the exact answer, and the answer holds the global
positions this same statement assigns, so PostgreSQL assembles the stored answer from
pieces encoded here (``Answer``) and ``Written.response`` joins the same pieces:
byte-identical by construction.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple, Protocol
from uuid import UUID

import asyncpg
import msgspec

from events.db import Connection
from events.envelope import RecordedEvent
from events.store import COUNT_POSITIONS, INSERT_EVENTS, PreparedAppend, append_arguments

_encode = msgspec.json.Encoder().encode
_EVENTS_MARK = b'"events":[]'
_POSITION = b'{"global_position":'


class ProjectedRows(Protocol):
    """What a command adds to the inline read models, as the projector works it out
    (service/prepare.py's ``Projector``; projections/rows.py), and how it joins this
    statement: the write side asks for the parts, it holds no read model SQL.

    A part is CTEs each starting ``, name AS (``, joined after the events' ``appended``;
    in it ``$1`` is the stream id, ``$3`` the version after the command, the CTE ``moved``
    has a row exactly when the write goes ahead, and parameters are named ``@name``.
    """

    def statement_part(self, every_part: bool) -> str:
        """The CTEs writing the rows.  Returned from a few fixed strings: the statement is
        cached per variant.  ``every_part``: keep parts that would run empty, so that
        writes with and without them can share one statement."""
        ...

    def parameters(self) -> dict[str, Any]:
        """Every named parameter of ``statement_part``, by name."""
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


class Snapshot(NamedTuple):
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
    snapshots: list[Snapshot]
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


# The statement is assembled from the parts a command needs: a part it would run empty
# (no rolls, no snapshot, no new seed, no Idempotency-Key, the service key's unchecked
# token) still costs PostgreSQL its plan nodes and parameters on every execution.  Parts
# (the read models' too) name their parameters ``@name``; ``_statement`` numbers them
# after INSERT_EVENTS's $1..$9 and caches each variant, which asyncpg then prepares once
# per connection.
_UNREVOKED = """EXISTS (SELECT FROM access_tokens
                WHERE encounter_id = $1 AND token_id = @token AND revoked_at IS NULL)"""
_KEY_UNUSED = """NOT EXISTS (SELECT FROM idempotency_keys
                WHERE stream_id = @key_stream AND key = @key)"""
GUARDED_MOVE = """
WITH guard AS (
    SELECT {token_valid} AS token_valid, {key_unused} AS key_unused
), {count_positions}, moved AS (
    UPDATE streams SET version = $3, last_hash = $4, head_signature = @head_signature
    WHERE stream_id = $1 AND version = $2 AND EXISTS (SELECT FROM counted)
    RETURNING stream_id
)"""
"""The guards, the shard's count and the stream head's move: the statement's first CTEs,
to be formatted by ``guarded_move``.  service/split_write.py runs them as a statement of
their own."""
_HEAD = (
    GUARDED_MOVE
    + """, appended AS ({insert_events}
)"""
)
SNAPSHOTS = """, snapshots AS (
    INSERT INTO snapshots (stream_id, version, schema_version, state)
    SELECT $1, (s->>0)::int, (s->>1)::int, (s->>2)::json
    FROM jsonb_array_elements(@snapshots::jsonb) AS s
    WHERE EXISTS (SELECT FROM moved)
    ON CONFLICT (stream_id, version) DO UPDATE
    SET schema_version = EXCLUDED.schema_version, state = EXCLUDED.state
)"""
SEED = """, seed AS (
    INSERT INTO dice_seeds (stream_id, epoch, seed, client_seed, commitment)
    SELECT $1, e, s, @client_seed, c
    FROM (VALUES (@epoch::int, @seed::bytea, @commitment::text),
                 (-@epoch::int, @secret_seed::bytea, @secret_commitment::text)) AS v(e, s, c)
    WHERE EXISTS (SELECT FROM moved)
)"""
_ANSWER = """, answer AS (
    INSERT INTO idempotency_keys (stream_id, key, request_hash, response)
    SELECT @key_stream, @key, @request_hash,
           convert_to(@answer_prefix || string_agg('{"global_position":' || a.global_position
                                                   || e.tail, ',' ORDER BY e.v)
                      || @answer_suffix, 'UTF8')
    FROM appended AS a JOIN unnest(@answer_versions::int[], @answer_tails::text[]) AS e(v, tail)
         ON e.v = a.stream_version
    HAVING count(*) > 0
)"""
_RESULT = """
SELECT (SELECT token_valid FROM guard) AS token_valid,
       (SELECT key_unused FROM guard) AS key_unused,
       array(SELECT global_position FROM appended ORDER BY stream_version) AS positions
"""
_PARAMETER = re.compile(r"@([a-z_]+)")
_APPEND_PARAMETERS = 9


@cache
def _statement(
    token: bool, key: bool, projection: str, snapshots: bool, seed: bool
) -> tuple[str, tuple[str, ...]]:
    """The statement for a write with these parts, and its named parameters in order;
    ``projection`` is the read models' part (``ProjectedRows.statement_part``)."""
    sql = guarded_move(_HEAD, token=token, key=key).replace("{insert_events}", INSERT_EVENTS)
    sql += projection + (SNAPSHOTS if snapshots else "")
    sql += (SEED if seed else "") + (_ANSWER if key else "") + _RESULT
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${_APPEND_PARAMETERS + 1 + names.index(match[1])}"

    return _PARAMETER.sub(number, sql), tuple(names)


def guarded_move(template: str, *, token: bool, key: bool) -> str:
    """``template`` (``GUARDED_MOVE`` and what follows it) with the guards a write needs:
    its token's, if it has one, and its Idempotency-Key's, if it has one."""
    return (
        template.replace("{token_valid}", _UNREVOKED if token else "true")
        .replace("{key_unused}", _KEY_UNUSED if key else "true")
        .replace(
            "{count_positions}",
            COUNT_POSITIONS.format(
                condition="(SELECT token_valid AND key_unused FROM guard)", skip="SKIP LOCKED"
            ),
        )
    )


def named_values(write: CommandWrite) -> dict[str, Any]:
    """Every named parameter a write can have; its statement uses those of its parts."""
    values = write.rows.parameters()
    values.update(
        token=write.token_id,
        head_signature=write.head_signature,
        # As the read models' rows: one JSON array, read as jsonb by the statement.
        snapshots=_encode(write.snapshots).decode(),
    )
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


def bound(write: CommandWrite, *, every_part: bool = False) -> tuple[str, list[Any]]:
    """The statement variant a write needs and its arguments, in parameter order.

    ``every_part`` keeps the read models' optional parts (the roll ledger's) and the
    snapshot part even where they would run empty, so that writes with and without rolls
    or a snapshot can share one statement.
    """
    sql, names = _statement(
        token=write.token_id is not None,
        key=write.idempotency is not None,
        projection=write.rows.statement_part(every_part),
        snapshots=every_part or bool(write.snapshots),
        seed=write.seed is not None,
    )
    values = named_values(write)
    return sql, [*append_arguments(write.append), *map(values.get, names)]


def outcome(write: CommandWrite, row: asyncpg.Record) -> Written | Refused:
    """What the statement's one result row says became of ``write``."""
    positions: list[int] = row["positions"]
    if not positions:
        return Refused(token_revoked=not row["token_valid"], key_used=not row["key_unused"])
    return Written(write.append.recorded(positions), write.answer.with_positions(positions))


async def commit(conn: Connection, write: CommandWrite) -> Written | Refused:
    """Run the statement; on a connection in a transaction it joins that transaction.

    Raises asyncpg.UniqueViolationError when a concurrent request with the same
    Idempotency-Key committed its answer first (the caller serves that answer).
    """
    sql, arguments = bound(write)
    row = await conn.fetchrow(sql, *arguments)
    assert row is not None
    return outcome(write, row)


def placeholders(prepared: PreparedAppend) -> list[RecordedEvent]:
    """The events as they will be stored, with global position 0 until the database
    assigns theirs: what folding, the read models and the answer need before the write."""
    return prepared.recorded([0] * len(prepared.versions))


def answer_of(response: Any, events: list[RecordedEvent]) -> Answer:
    """The ``Answer`` for a response Struct whose ``events`` field the write fills in;
    ``events`` are the ``placeholders`` of the write."""
    template = _encode(msgspec.structs.replace(response, events=[]))
    return Answer(template, events)
