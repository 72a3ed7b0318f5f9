"""Health numbers bound into the hash chain by salted commitments instead of their values.

Under ``npc_health`` ``descriptor`` or ``hidden`` players read an event without the health
fields of combatants whose numbers they may not see (projections/redaction.py).  If the
chain hashed those values, a player could neither recompute the link from what they read
nor be kept from testing a few thousand candidate hit points against it.  So an event
whose data tells health carries, beside its data:

* ``health_commitments``: JSON Pointer (RFC 6901) of each health value -> ``sha256(salt ||
  canonical bytes of the value)``; public, hashed in place of the values;
* ``health_salts``: the same pointers -> a fresh 128-bit salt, hex; the GM's alone, never
  hashed, dropped from every player's read.

The hashed form is the data without ``health_salts`` and without the values the
commitments stand for, so it is the same whether computed from the GM's data or from a
player's, whatever the player was shown.  Events written before this carry neither map
and are hashed as they always were.  Nothing here needs a ruleset: the pointers say
where the committed values are.

The same maps carry any value a reader may be denied, not only health: a campaign's
bestiary (a statblock's sheet and hit point notation, a monster copy's rolled hit points
and their rolls: service/campaigns/hidden.py) is committed the same way, under the same
field names, so one hashed form and one check serve every stream.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from typing import Any

import msgspec

COMMITMENTS = "health_commitments"
SALTS = "health_salts"
SALT_BYTES = 16
"""128 bits: no search over a health value's few candidates can reach the commitment."""

_encoder = msgspec.json.Encoder(order="sorted")


def commitment(salt: str, value: Any) -> str:
    """sha256(salt || canonical bytes of the value); ``salt`` is hex."""
    return hashlib.sha256(bytes.fromhex(salt) + _encoder.encode(value)).hexdigest()


def pointer(tokens: tuple[str | int, ...]) -> str:
    """The RFC 6901 pointer of a path of keys and list indexes."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def _tokens(ptr: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in ptr.split("/")[1:]]


def _step(node: Any, token: str) -> tuple[bool, Any]:
    if isinstance(node, dict):
        return token in node, node.get(token)
    if isinstance(node, list | tuple) and token.isdigit() and int(token) < len(node):
        return True, node[int(token)]
    return False, None


def value_at(data: dict[str, Any], ptr: str) -> tuple[bool, Any]:
    """Whether ``data`` holds a value at ``ptr``, and that value."""
    node: Any = data
    for token in _tokens(ptr):
        found, node = _step(node, token)
        if not found:
            return False, None
    return True, node


def _without(node: Any, tokens: list[str]) -> Any:
    """``node`` without the value at ``tokens`` (copied along the path, never mutated);
    ``node`` itself when there is nothing there."""
    head, rest = tokens[0], tokens[1:]
    found, inner = _step(node, head)
    if not found:
        return node
    if not rest:
        if isinstance(node, dict):
            return {k: v for k, v in node.items() if k != head}
        return node  # a list element is never a health value on its own
    changed = _without(inner, rest)
    if changed is inner:
        return node
    if isinstance(node, dict):
        return {**node, head: changed}
    items = list(node)
    items[int(head)] = changed
    return items


def hashed_form(data: dict[str, Any]) -> dict[str, Any]:
    """What the chain covers of an event's data: without the salts and the committed
    values (the commitments stand for them); ``data`` itself for an event without any."""
    committed = data.get(COMMITMENTS)
    if not isinstance(committed, dict):
        return without_salts(data)
    paths = [_tokens(ptr) for ptr in committed]
    top = {path[0] for path in paths if len(path) == 1}  # most health values: one copy
    out = {k: v for k, v in data.items() if k != SALTS and k not in top}
    for path in paths:
        if len(path) > 1:
            out = _without(out, path)
    return out


def without_salts(data: dict[str, Any]) -> dict[str, Any]:
    """The data as a player may read it: the commitments, never the salts."""
    return data if SALTS not in data else {k: v for k, v in data.items() if k != SALTS}


def commit(data: dict[str, Any], pointers: Iterable[str]) -> dict[str, Any]:
    """``data`` with a fresh salt and a commitment for the value at each pointer."""
    salts: dict[str, str] = {}
    commitments: dict[str, str] = {}
    for ptr in pointers:
        found, value = value_at(data, ptr)
        if found:
            salts[ptr] = secrets.token_bytes(SALT_BYTES).hex()
            commitments[ptr] = commitment(salts[ptr], value)
    if not salts:
        return data
    return {**data, COMMITMENTS: commitments, SALTS: salts}


def fault(data: dict[str, Any]) -> str | None:
    """Why an event's health values do not match their commitments, or None (also when
    the reader has no salts: a player's view, or an event from before commitments)."""
    salts = data.get(SALTS)
    if not isinstance(salts, dict):
        return None
    committed = data.get(COMMITMENTS)
    if not isinstance(committed, dict) or set(committed) != set(salts):
        return "salts and commitments do not match (altered)"
    for ptr, salt in salts.items():
        found, value = value_at(data, ptr)
        if not found or commitment(salt, value) != committed[ptr]:
            return f"committed value at {ptr} does not match its commitment (altered)"
    return None
