"""Axial hex geometry: keys, neighbours and distance.

Hexes are keyed by the string ``"q,r"`` because msgspec needs string keys for JSON maps;
the string is canonical (no ``+``, no leading zeros, enforced by ``fields.HexKey``), so two
keys name the same hex exactly when they are equal.
"""

from __future__ import annotations

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def parse(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


def key(q: int, r: int) -> str:
    return f"{q},{r}"


def neighbours(hex_key: str) -> tuple[str, ...]:
    """The six hexes around ``hex_key``, whether or not they are on the map."""
    q, r = parse(hex_key)
    return tuple(key(q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: str, b: str) -> int:
    (aq, ar), (bq, br) = parse(a), parse(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1
