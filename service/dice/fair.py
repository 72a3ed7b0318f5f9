"""The provably fair reference algorithm (design section 5).

Players must be able to check every server roll with nothing but ``hashlib`` and ``hmac``
once the GM reveals the seed, so this module is deliberately tiny and literal; the README
reproduces it line for line.  Do not "optimise" it: any change breaks old verifications.

- ``commitment(seed) = sha256(seed).hexdigest()`` is published when an epoch starts.
- Die number ``k`` (0-based, every server die of the epoch in order, explosion dice and
  dropped dice included) with ``sides`` faces: for ``j = 0, 1, 2 ...`` compute
  ``HMAC-SHA256(key=seed, msg=f"{client_seed}:{k}")`` (``f"{client_seed}:{k}:{j}"`` when
  ``j > 0``), split the MAC into eight big-endian 32-bit words and take the first word
  ``w < 2**32 - 2**32 % sides``; the face is ``w % sides + 1``.  Rejecting the top of the
  range removes modulo bias; a whole MAC is rejected with probability below 1e-30 for
  any die we allow, so the loop ends.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from service.dice.model import RollRecord

SEED_BYTES = 32
_WORD_RANGE = 2**32


def new_seed() -> bytes:
    """A fresh secret seed; only the service layer calls this, rules code never does."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public promise for ``seed``: its SHA-256, hex encoded."""
    return hashlib.sha256(seed).hexdigest()


def seed_matches(seed: bytes, published: str) -> bool:
    """Whether a revealed seed is the one promised by ``published`` (constant-time)."""
    return hmac.compare_digest(commitment(seed), published.strip().lower())


def die_face(seed: bytes, client_seed: str, k: int, sides: int) -> int:
    """Face (1..sides) of server die ``k`` of the epoch, by the algorithm above."""
    if not 1 <= sides <= _WORD_RANGE:
        raise ValueError(f"a die must have between 1 and {_WORD_RANGE} sides, not {sides}")
    if k < 0:
        raise ValueError(f"die index must not be negative, not {k}")
    limit = _WORD_RANGE - (_WORD_RANGE % sides)
    j = 0
    while True:
        msg = f"{client_seed}:{k}" if j == 0 else f"{client_seed}:{k}:{j}"
        mac = hmac.new(seed, msg.encode("utf-8"), hashlib.sha256).digest()
        for offset in range(0, len(mac), 4):
            word = int.from_bytes(mac[offset : offset + 4], "big")
            if word < limit:
                return word % sides + 1
        j += 1


def recompute_faces(record: RollRecord, seed: bytes, client_seed: str) -> tuple[int, ...]:
    """The faces a server roll must have shown, in the order of ``record.dice``.

    Die ``i`` of the record is die ``record.index + i`` of its epoch.  Raises ValueError
    for a manual roll, which has nothing to recompute.
    """
    if record.source != "server" or record.index is None:
        raise ValueError(f"roll {record.roll_id} is a manual roll; only server rolls verify")
    return tuple(
        die_face(seed, client_seed, record.index + i, die.sides)
        for i, die in enumerate(record.dice)
    )


def verify_record(
    record: RollRecord, seed: bytes, client_seed: str, published: str | None = None
) -> bool:
    """True when every face of a server roll is what the seed dictates.

    With ``published`` (the epoch's commitment) the seed itself is checked too, which is
    what a player should do: a matching roll under an unpromised seed proves nothing.
    Manual rolls are never "verified": they return False.
    """
    if record.source != "server" or record.index is None:
        return False
    if published is not None and not seed_matches(seed, published):
        return False
    faces = tuple(die.face for die in record.dice)
    return faces == recompute_faces(record, seed, client_seed)
