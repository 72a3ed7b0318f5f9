"""Which values of an event's data are health, as JSON Pointers: what the write commits
(events/committed_health.py) so that the hash chain never covers a health number.

Every health field the ruleset declares for the event is committed, whoever it belongs
to: whether a reader may see a combatant's numbers changes after the write (the GM mints
or revokes a player token, the table's ``npc_health`` is read per reader), so the hashed
form must not depend on it, or a revoked player character's numbers would stay testable
against its hash.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from events.committed_health import commit, pointer
from service.ruleset import HealthField, Ruleset

CORE_HEALTH_FIELDS: dict[str, tuple[HealthField, ...]] = {
    "encounter.hit_points_rolled": (HealthField(path="copies[].hit_points", owners=("id",)),),
}
"""The health fields of core events, as a ruleset declares its own: the hit points rolled
for a campaign's monster copies belong to each copy."""

CORE_COMMITTED_ROLLS = frozenset({"encounter.hit_points_rolled"})
"""Core events whose roll records are committed as one value, like health: their faces
and totals are the hit points by another name, so the chain must not cover them, or a
player could test the few candidate faces against the hash.  Players read the records
through the secret-roll redaction (projections/redaction.py), not the health one."""


def health_fields_of(
    ruleset: Ruleset[Any, Any, Any, Any], event_type: str
) -> tuple[HealthField, ...] | None:
    """The health fields of an event type: the core's, else the ruleset's."""
    return CORE_HEALTH_FIELDS.get(event_type) or ruleset.health_fields.get(event_type)


def with_committed_health(
    ruleset: Ruleset[Any, Any, Any, Any], event_type: str, data: dict[str, Any]
) -> dict[str, Any]:
    """``data`` as stored: with a salted commitment for each of its health values, or
    ``data`` itself when it tells no health."""
    fields = health_fields_of(ruleset, event_type)
    if not fields:
        return data
    pointers = [p for spec in fields if applies(spec, data) for p in _pointers(spec, data)]
    if event_type in CORE_COMMITTED_ROLLS:
        pointers.append(pointer(("rolls",)))
    return commit(data, pointers)


def applies(spec: HealthField, data: dict[str, Any]) -> bool:
    """Whether ``spec`` tells health in this event (some fields only for some ``field``s)."""
    return not spec.field_in or data.get("field") in spec.field_in


def _pointers(spec: HealthField, data: dict[str, Any]) -> Iterator[str]:
    return (pointer(tokens) for tokens in _walk(data, spec.path.split("."), ()))


def _walk(node: Any, path: list[str], at: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
    """The keys and indexes of every value ``path`` (``a``, ``a.b``, ``list[].b``,
    ``map{}.b``: ``HealthField.path``) names in ``node``."""
    if not isinstance(node, dict):
        return
    name, rest = path[0], path[1:]
    if not rest:
        if name in node:
            yield (*at, name)
        return
    key = name.removesuffix("[]").removesuffix("{}")
    inner = node.get(key)
    if name.endswith("[]") and isinstance(inner, list | tuple):
        for i, item in enumerate(inner):
            yield from _walk(item, rest, (*at, key, i))
    elif name.endswith("{}") and isinstance(inner, dict):
        for k, item in inner.items():
            yield from _walk(item, rest, (*at, key, k))
    else:
        yield from _walk(inner, rest, (*at, key))
