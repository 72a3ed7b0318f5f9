"""Which shard an encounter's events are counted in, and the row that counts them.

On Citus, readers of every stream (service-wide webhooks, ``read_all``) take a position
per shard rather than one global order (docs/scale-out.md#positions-per-shard); one
PostgreSQL reads them by transaction instead and counts nothing
(docs/scale-out.md#the-order-of-every-stream).  In shard order an event carries its
stream's shard and its place in that shard; each shard's count is one row of
``shard_heads``, moved by the same statement that inserts the events.  That row's lock
orders the commits of one shard, so a reader that saw position n of a shard has seen
every position below it, two-phase commits included, whatever happens to transaction
ids.

The shard is the one Citus would put the stream in: Citus hashes a uuid distribution
column with PostgreSQL's ``uuid_hash`` and splits the 32-bit hash space into equal
ranges, 32 by default.  So with the tables distributed at 32 shards, a command's events,
stream row and shard count live on one worker, and the command commits there in one
phase.  The count row's key (its *anchor*) is a uuid chosen to hash into the shard it
counts, so Citus routes the row by the same column type and co-locates it with the
encounters it counts.  The anchors are fixed by migration 0017; ``ANCHORS`` finds the same
ones, and a test holds the two together.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from uuid import UUID, uuid5

SHARDS = 32
"""Shards the events are counted in: Citus's default ``shard_count``."""

_ANCHOR_NAMESPACE = UUID("6d1f5c9e-3b0a-5f7e-9a42-a3e0c0de5a4d")
_MASK = 0xFFFFFFFF


def _rot(x: int, k: int) -> int:
    return ((x << k) | (x >> (32 - k))) & _MASK


def uuid_hash(value: UUID) -> int:
    """PostgreSQL's ``uuid_hash``: Bob Jenkins' lookup3 over the 16 bytes (``hash_bytes``
    in src/common/hashfn.c, little-endian words), as a signed 32-bit integer."""
    words: tuple[int, int, int, int] = struct.unpack("<4I", value.bytes)
    w0, w1, w2, w3 = words
    a = b = c = (0x9E3779B9 + 16 + 3923095) & _MASK
    a, b, c = (a + w0) & _MASK, (b + w1) & _MASK, (c + w2) & _MASK
    # mix(a, b, c)
    a = (a - c) & _MASK ^ _rot(c, 4)
    c = (c + b) & _MASK
    b = (b - a) & _MASK ^ _rot(a, 6)
    a = (a + c) & _MASK
    c = (c - b) & _MASK ^ _rot(b, 8)
    b = (b + a) & _MASK
    a = (a - c) & _MASK ^ _rot(c, 16)
    c = (c + b) & _MASK
    b = (b - a) & _MASK ^ _rot(a, 19)
    a = (a + c) & _MASK
    c = (c - b) & _MASK ^ _rot(b, 4)
    b = (b + a) & _MASK
    a = (a + w3) & _MASK  # the last four bytes
    # final(a, b, c)
    c = (c ^ b) - _rot(b, 14) & _MASK
    a = (a ^ c) - _rot(c, 11) & _MASK
    b = (b ^ a) - _rot(a, 25) & _MASK
    c = (c ^ b) - _rot(b, 16) & _MASK
    a = (a ^ c) - _rot(c, 4) & _MASK
    b = (b ^ a) - _rot(a, 14) & _MASK
    c = (c ^ b) - _rot(b, 24) & _MASK
    return c - (1 << 32) if c >= 1 << 31 else c


@lru_cache(maxsize=8192)
def shard_of(stream_id: UUID) -> int:
    """The shard of a stream: its hash's place among ``SHARDS`` equal ranges (SQL:
    ``aeon_shard``).  Cached: every write asks, and the hash costs a few microseconds."""
    return ((uuid_hash(stream_id) + (1 << 31)) * SHARDS) >> 32


@lru_cache(maxsize=1)
def anchors() -> tuple[UUID, ...]:
    """The key of each shard's count row: the first of a fixed series of uuids that hashes
    into that shard."""
    found: dict[int, UUID] = {}
    n = 0
    while len(found) < SHARDS:
        candidate = uuid5(_ANCHOR_NAMESPACE, f"shard-{n}")
        found.setdefault(shard_of(candidate), candidate)
        n += 1
    return tuple(found[shard] for shard in range(SHARDS))


def anchor_of(stream_id: UUID) -> tuple[int, UUID]:
    """The stream's shard and the key of that shard's count row."""
    shard = shard_of(stream_id)
    return shard, anchors()[shard]
