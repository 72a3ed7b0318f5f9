"""What each unopened envelope (a sealed command, service/sealing.py) still waits for.

An envelope waits for its own secret, if it has one, and for every secret still open
when it was sealed (its event's ``waits_for``); it opens once all of them are revealed.
Kept as a list per envelope, that is every open secret again for each new one: a table
whose GM leaves hundreds of secrets unrevealed would carry, and rewrite on every
command, a state that grows with their square.  But the secrets open when an envelope
was sealed are, until some are revealed, exactly the open secrets sealed before it, and
``open_seals`` already holds those in order, losing each as it is revealed.  So an
envelope whose list was that (every envelope sealed as the state stood) keeps only
whether its own secret is still hidden, and reads the rest off ``open_seals``; one whose
list was not (its history was refolded after an undo) keeps its list, as every envelope
did before.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import msgspec


class Seal(msgspec.Struct, frozen=True, kw_only=True):
    """An envelope not opened yet (core_events.Sealed): what it still waits for."""

    waits_for: tuple[str, ...] | None = None
    """The seal ids not revealed yet that must be before it opens, where they are not
    simply its own and the open secrets sealed before it (``None``: those, ``own``)."""
    own: bool = False
    """With ``waits_for`` None: its own secret is not revealed yet."""
    rolls: tuple[str, ...] = ()
    """Its roll ids, revealed with it."""


def number(seal_id: str) -> int:
    """The envelope's place in the order of sealing (``s7`` is the seventh)."""
    return int(seal_id[1:])


def sealed_as(
    seal_id: str, waits_for: tuple[str, ...], rolls: tuple[str, ...], open_seals: tuple[str, ...]
) -> Seal:
    """The entry of an envelope just folded, its event's ``waits_for`` against the open
    secrets it was folded after."""
    if tuple(w for w in waits_for if w != seal_id) == open_seals:
        return Seal(own=seal_id in waits_for, rolls=rolls)
    return Seal(waits_for=waits_for, rolls=rolls)


def waits_of(seal_id: str, seal: Seal, open_seals: tuple[str, ...]) -> tuple[str, ...]:
    """Every seal id the envelope still waits for, its own first."""
    if seal.waits_for is not None:
        return seal.waits_for
    before = number(seal_id)
    others = tuple(t for t in open_seals if number(t) < before)
    return (seal_id, *others) if seal.own else others


def still_sealed(
    sealed: Mapping[str, Seal], open_seals: tuple[str, ...], shown: Collection[str]
) -> dict[str, Seal]:
    """The envelopes after the secrets ``shown`` are revealed (``open_seals`` is after
    too): each without them, and those that wait for nothing more gone (opened)."""
    first_open = number(open_seals[0]) if open_seals else None
    kept: dict[str, Seal] = {}
    for seal_id, seal in sealed.items():
        if seal.waits_for is not None:
            waits = tuple(w for w in seal.waits_for if w not in shown)
            if waits:
                kept[seal_id] = msgspec.structs.replace(seal, waits_for=waits)
            continue
        own = seal.own and seal_id not in shown
        if own or (first_open is not None and first_open < number(seal_id)):
            kept[seal_id] = msgspec.structs.replace(seal, own=own)
    return kept
