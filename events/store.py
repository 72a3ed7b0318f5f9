"""The PostgreSQL event store: append with expected version, read, snapshot, verify.

Writes take a connection that is already inside a transaction, so the caller can update
its inline read models and idempotency record atomically with the append (all or nothing).
Reads take the pool.

The store is split into modules of one job: the stream row and its head
(events/heads.py), the append (events/prepared.py, events/append.py), reading events
(events/reading.py) and snapshots (events/snapshots.py).  This module re-exports their
public names, so ``from events.store import ...`` keeps working for every caller.
"""

from __future__ import annotations

from events.append import append
from events.heads import (
    SignedHead,
    StreamHead,
    create_stream,
    lock_stream,
    signed_head,
    stream_head,
)
from events.prepared import PreparedAppend, head_signature, prepare_append
from events.reading import (
    Checkpoint,
    read_all,
    read_commands,
    read_stream,
    stream_ruleset,
)
from events.snapshots import (
    Snapshot,
    delete_snapshots_from,
    latest_snapshot,
    save_snapshot,
)

__all__ = [
    "Checkpoint",
    "PreparedAppend",
    "SignedHead",
    "Snapshot",
    "StreamHead",
    "append",
    "create_stream",
    "delete_snapshots_from",
    "head_signature",
    "latest_snapshot",
    "lock_stream",
    "prepare_append",
    "read_all",
    "read_commands",
    "read_stream",
    "save_snapshot",
    "signed_head",
    "stream_head",
    "stream_ruleset",
]
