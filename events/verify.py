"""Walk a stream's hash chain and name the first broken link."""

from __future__ import annotations

from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import GENESIS_HASH
from events.hashing import link_fault
from events.signing import head_signature_ok
from events.store import SignedHead, read_stream, stream_head

_PAGE = 2000


class BrokenLink(msgspec.Struct, frozen=True):
    stream_id: UUID
    version: int
    reason: str


class ChainReport(msgspec.Struct, frozen=True):
    stream_id: UUID
    ok: bool
    events_checked: int
    head_version: int
    first_broken: BrokenLink | None = None


async def verify_chain(db: Database, stream_id: UUID) -> ChainReport:
    """Recompute every hash from the stored rows.

    Any edit of an event (made with the immutability trigger disabled, or directly on
    disk) changes its canonical bytes and so breaks its own hash; a deleted or reordered
    event breaks the version sequence or the prev_hash link of the next one.
    """
    head = await stream_head(db, stream_id)
    prev, expected_version, checked = GENESIS_HASH, 1, 0

    def broken(version: int, reason: str) -> ChainReport:
        return ChainReport(
            stream_id=stream_id,
            ok=False,
            events_checked=checked,
            head_version=head.version,
            first_broken=BrokenLink(stream_id, version, reason),
        )

    after = 0
    while True:
        page = await read_stream(db, stream_id, after_version=after, limit=_PAGE)
        for event in page:
            fault = link_fault(
                event, stream_id=stream_id, prev=prev, expected_version=expected_version
            )
            if fault is not None:
                where = expected_version if event.stream_version != expected_version else None
                return broken(where or event.stream_version, fault)
            prev, expected_version, checked = event.hash, expected_version + 1, checked + 1
        if len(page) < _PAGE:
            break
        after = page[-1].stream_version
    if checked != head.version:
        return broken(
            checked + 1, f"stream head says version {head.version} but events end at {checked}"
        )
    if head.last_hash != prev:
        return broken(head.version, "stream head hash does not match the last event")
    return ChainReport(
        stream_id=stream_id, ok=True, events_checked=checked, head_version=head.version
    )


class HeadReport(msgspec.Struct, frozen=True):
    """The stream head and whether its signature holds under the service's key."""

    version: int
    hash: str
    signed: bool
    """The head carries a signature and the service has a key to check it with."""
    ok: bool
    reason: str | None = None


class PinReport(msgspec.Struct, frozen=True):
    """Whether the chain still extends a head the client saw (``version``, ``hash``)."""

    version: int
    hash: str
    ok: bool
    reason: str | None = None


UNSIGNED = (
    "unsigned: a database administrator can rewrite this history undetected (the service"
    " has no chain key, AEON_CHAIN_KEY, to sign its heads with)"
)
NO_SIGNATURE = (
    "the head carries no signature although the service signs every head: it was written"
    " without the service's key (rewritten, or last moved before the key was set)"
)
BAD_SIGNATURE = (
    "the head signature does not match: the chain was rewritten or truncated by someone"
    " without the service's key"
)


def verify_head(stream_id: UUID, head: SignedHead, key: bytes | None) -> HeadReport:
    """Check the stored head signature against ``key`` (None: nothing to check with)."""

    def report(signed: bool, ok: bool, reason: str | None) -> HeadReport:
        return HeadReport(head.version, head.last_hash, signed=signed, ok=ok, reason=reason)

    if key is None:
        return report(False, True, UNSIGNED)
    if head.signature is None:
        return report(False, False, NO_SIGNATURE)
    if not head_signature_ok(key, stream_id, head.version, head.last_hash, head.signature):
        return report(True, False, BAD_SIGNATURE)
    return report(True, True, None)


async def verify_pin(
    db: Database, stream_id: UUID, chain: ChainReport, version: int, pinned_hash: str
) -> PinReport:
    """Prove the chain extends the head a client pinned: the event at ``version`` is still
    there with ``pinned_hash``, and the chain from it to the head is intact (``chain``,
    the walk of the whole stream, says so)."""
    lost = (
        f"the chain no longer holds version {version} with the hash you pinned:"
        " truncated or rewritten"
    )

    def report(ok: bool, reason: str | None) -> PinReport:
        return PinReport(version=version, hash=pinned_hash, ok=ok, reason=reason)

    if version > chain.head_version:
        return report(False, f"{lost} (the head is at version {chain.head_version})")
    if version == 0:
        stored: str | None = GENESIS_HASH
    else:
        stored = await db.fetchval(
            "SELECT hash FROM events WHERE stream_id = $1 AND stream_version = $2",
            stream_id,
            version,
        )
    if stored != pinned_hash:
        return report(False, lost)
    broken = chain.first_broken
    if broken is not None and broken.version > version:
        return report(
            False, f"the chain from your pin to the head is broken at version {broken.version}"
        )
    if broken is not None:
        return report(False, f"the chain up to your pin is broken at version {broken.version}")
    return report(True, None)
