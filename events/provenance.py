"""Where a stream's history comes from, and what this service can vouch for.

A stream written here from its first event was witnessed here: each head was signed as it
moved (events/signing.py).  An imported stream arrived as an archive (events/archive.py)
whose events 1..N this service never saw being written; hashes prove only that the file
is self-consistent, and anyone can re-hash an edited history.  So an import records its
provenance: the archive's head (N and its hash) and who attested it.  An archive is
attested when its end line carries an HMAC of its head and seed lines under a chain key
this service holds: its own ``AEON_CHAIN_KEY`` (an export of this service) or one of
``AEON_TRUSTED_CHAIN_KEYS`` (another service the operator trusts).  Anything else imports
as unattested, and ``/verify`` says so instead of vouching for it.

The record is signed with this service's key like a head, so a database administrator
cannot turn "unattested" into "attested" without the key.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal
from uuid import UUID

import msgspec

from events.db import Database
from events.heads import SignedHead
from events.signing import head_signature_ok

Attestation = Literal["this-service", "trusted-service", "unattested"]


class ChainKeys(msgspec.Struct, frozen=True, kw_only=True):
    """The keys an import or export signs and checks with."""

    own: bytes | None = None
    """This service's AEON_CHAIN_KEY."""
    trusted: tuple[bytes, ...] = ()
    """AEON_TRUSTED_CHAIN_KEYS: chain keys of services whose exports are attested here."""


def key_id(key: bytes) -> str:
    """A public name for a key (an HMAC of a constant under it): an archive says which key
    signed it without revealing the key, so a claim to be this service's is checked."""
    return hmac.digest(key, b"aeon-ledger chain key id", "sha256").hex()[:16]


def archive_message(
    stream_id: UUID, version: int, last_hash: str, seeds: str, seeds_digest: str
) -> bytes:
    """What an archive's signature covers: its head, which seeds it claims to carry, and
    the seed lines themselves (a signed GM archive cannot be given a chosen seed)."""
    return f"aeon-ledger archive:{stream_id}:{version}:{last_hash}:{seeds}:{seeds_digest}".encode()


def sign(key: bytes, message: bytes) -> str:
    return hmac.digest(key, message, "sha256").hex()


class ForgedSignature(ValueError):
    """A signature that names a key this service holds and does not hold under it: the
    signed lines were changed after they were signed."""

    def __init__(self, whose: str) -> None:
        super().__init__(whose)
        self.whose = whose


def attestation_under(
    keys: ChainKeys, signed_by: str | None, signature: str | None, message: bytes
) -> Attestation:
    """Who vouches for ``message``: a signature under this service's key or a trusted
    one; none, or one under a key this service does not know, is unattested.  Raises
    ForgedSignature for a signature that names a key held here and does not hold."""
    if signature is None or signed_by is None:
        return "unattested"
    candidates: list[tuple[bytes, Attestation]] = []
    if keys.own is not None:
        candidates.append((keys.own, "this-service"))
    candidates += [(key, "trusted-service") for key in keys.trusted]
    for key, who in candidates:
        if key_id(key) != signed_by:
            continue
        if not hmac.compare_digest(sign(key, message), signature):
            whose = "this service's" if who == "this-service" else "a trusted service's"
            raise ForgedSignature(whose)
        return who
    return "unattested"


def seeds_digest(encoded_seed_lines: list[bytes]) -> str:
    digest = hashlib.sha256()
    for line in encoded_seed_lines:
        digest.update(line)
    return digest.hexdigest()


class Provenance(msgspec.Struct, frozen=True, kw_only=True):
    """An imported stream's origin: the archive head it arrived with and who attested it."""

    version: int
    hash: str
    attestation: Attestation
    origin: UUID | None = None
    """The stream's id in the archive when the import gave it a new one (a campaign and
    its encounters); ``version`` and ``hash`` are then the head under that id."""


def _record_message(stream_id: UUID, p: Provenance) -> bytes:
    message = f"aeon-ledger import:{stream_id}:{p.version}:{p.hash}:{p.attestation}"
    # An import under the archive's own id signs what it always signed.
    return (message if p.origin is None else f"{message}:from:{p.origin}").encode()


def record_signature(key: bytes | None, stream_id: UUID, provenance: Provenance) -> str | None:
    return None if key is None else sign(key, _record_message(stream_id, provenance))


async def read_provenance(db: Database, stream_id: UUID) -> tuple[Provenance, str | None] | None:
    """The stream's import record and its signature; None for a stream written here."""
    row = await db.fetchrow(
        """SELECT imported_version, imported_hash, imported_attestation, imported_signature,
                  imported_from
           FROM streams WHERE stream_id = $1 AND imported_version IS NOT NULL""",
        stream_id,
    )
    if row is None:
        return None
    provenance = Provenance(
        version=row["imported_version"],
        hash=row["imported_hash"],
        attestation=row["imported_attestation"],
        origin=row["imported_from"],
    )
    return provenance, row["imported_signature"]


class ProvenanceReport(msgspec.Struct, frozen=True, kw_only=True):
    """What ``/verify`` says about an imported stream's history."""

    verdict: str
    """"imported, attested up to version N" (events 1..N attested by the archive's signer,
    the rest witnessed here) or "imported, unattested" (events 1..N vouched for by
    nobody: the hash chain proves them consistent, not authentic)."""
    version: int
    """The archive's head version: what this service did not witness itself."""
    hash: str
    attested_by: Literal["this-service", "trusted-service"] | None
    ok: bool
    """False when the record's signature does not hold under this service's key."""
    reason: str | None = None
    origin: UUID | None = None
    """The id the stream had in the archive, when the import gave it a new one:
    ``version`` and ``hash`` are the head the exporting service knew under that id."""


def provenance_report(
    stream_id: UUID, record: tuple[Provenance, str | None], key: bytes | None
) -> ProvenanceReport:
    provenance, signature = record
    attested = provenance.attestation != "unattested"
    verdict = (
        f"imported, attested up to version {provenance.version}"
        if attested
        else "imported, unattested"
    )
    ok, reason = True, None
    if key is not None:
        expected = record_signature(key, stream_id, provenance)
        if signature is None or expected is None or not hmac.compare_digest(expected, signature):
            ok = False
            reason = (
                "the import record's signature does not hold under this service's key: it"
                " was changed by someone without the key"
            )
    return ProvenanceReport(
        verdict=verdict,
        version=provenance.version,
        hash=provenance.hash,
        attested_by=None if provenance.attestation == "unattested" else provenance.attestation,
        ok=ok,
        reason=reason,
        origin=provenance.origin,
    )


async def vouches_for(db: Database, stream_id: UUID, head: SignedHead, key: bytes | None) -> bool:
    """Whether this service may sign an export of ``stream_id`` at ``head``: it holds a key,
    the head's signature holds under it, and the history is its own or attested (an
    unattested import re-exported signed would launder the forgery)."""
    if key is None or head.signature is None:
        return False
    if not head_signature_ok(key, stream_id, head.version, head.last_hash, head.signature):
        return False
    record = await read_provenance(db, stream_id)
    if record is None:
        return True
    report = provenance_report(stream_id, record, key)
    return report.ok and report.attested_by is not None
