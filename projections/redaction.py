"""What players may not see: what secret GM rolls decided until revealed (design sections
3 and 5), GM-only notes, and other actors' idempotency keys.

A secret roll shows that it happened and who rolled; its dice, faces, modifiers, total and
outcome stay hidden until the GM reveals it.  Every event its command appended is derived
from it, so the command's first event shows players only the fields its ruleset lists in
``shown_when_secret`` (service/secrecy.py), and its later events nothing at all.  The GM
sees all.  The same functions serve the roll ledger, the log, the event listing, round
replays and live updates, so no path can leak what another hides.

Health follows the table's ``npc_health`` on the same paths: ``redact_health`` removes the
fields a ruleset declares as a combatant's health (``Ruleset.health_fields``) for readers
who may not see that combatant's numbers.  It composes with ``redact_event``: a reader
applies both, in either order.
"""

from __future__ import annotations

from typing import Any

from events.committed_health import without_salts
from events.hashing import SEALED, public_form
from service.health_seal import applies, health_fields_of
from service.ruleset import HealthField, Ruleset
from service.secrecy import Audience

PRIVATE_NOTE = "The GM makes a private note."
"""What players read in place of a GM-only note."""

HIDDEN_SEQUEL = "The GM's secret roll has a further effect, hidden until revealed."
"""What players read for every event of a secret command after its first: which events
follow a roll (damage only after a hit) is an outcome of it."""
HIDDEN_TYPE = "secret"
"""The type players see for those events, for the same reason."""

_KEPT = ("roll_id", "roller", "source", "hidden")
"""What a player sees of a secret roll: that it happened and who rolled.  Not its notation
or purpose (the size of a pool can be a secret number: damage over a limit, a hidden
difficulty), nor its epoch or die index."""

_PRIVATE_METADATA = ("idempotency_key",)
"""Metadata only the GM sees: a player holding the GM's key could replay the GM's
request (service.commands scopes keys to their actor as well)."""

_FORK_SHOWN = frozenset(
    {"name", "ruleset", "options", "allow_player_dice", "origin_id", "origin_version",
     "rolls_made", "npc_health", "secret_rolls"}
)  # fmt: skip
"""What players see of a fork's first event while the origin's secrets it inherits are
hidden: ``public_game`` stands in for ``game``."""


def is_secret(record: dict[str, Any], revealed: frozenset[str]) -> bool:
    return bool(record.get("hidden")) and record.get("roll_id") not in revealed


def redact_roll(record: dict[str, Any], revealed: frozenset[str]) -> dict[str, Any]:
    """The roll as a player sees it; unchanged unless it is still secret."""
    if not is_secret(record, revealed):
        return record
    kept = {k: v for k, v in record.items() if k in _KEPT or k in ("version", "round", "undone")}
    return {**kept, "redacted": True}


def redact_event(
    ruleset: Ruleset[Any, Any, Any, Any],
    event_type: str,
    data: dict[str, Any],
    revealed: frozenset[str],
    *,
    secret: bool,
    sequel: bool = False,
) -> tuple[str, dict[str, Any]]:
    """An event's type and data as a player sees them.  ``secret``: the command that
    appended it made a roll still hidden, so only the fields its ruleset shows are kept;
    ``sequel``: and it is not that command's first event, so nothing of it is shown."""
    if secret and sequel:
        return HIDDEN_TYPE, {"secret": True}
    return event_type, redact_event_data(ruleset, event_type, data, revealed, secret=secret)


def redact_event_data(
    ruleset: Ruleset[Any, Any, Any, Any],
    event_type: str,
    data: dict[str, Any],
    revealed: frozenset[str],
    *,
    secret: bool,
) -> dict[str, Any]:
    """An event's data as a player sees it (see ``redact_event``)."""
    if event_type == "encounter.note_added" and data.get("gm_only"):
        return {"gm_only": True, "redacted": True}
    if event_type == SEALED:  # exactly what its hash covers until it opens
        return public_form(event_type, data) if secret else data
    if secret:
        if event_type == "encounter.forked":
            kept = {k: v for k, v in data.items() if k in _FORK_SHOWN}
            return {**kept, "game": data.get("public_game"), "secret": True}
        shown = ruleset.shown_when_secret.get(event_type, frozenset())
        kept = {k: v for k, v in data.items() if k in shown and k != "rolls"}
        if "rolls" in data:
            kept["rolls"] = [redact_roll(r, revealed) for r in data["rolls"]]
        return {**kept, "secret": True}
    rolls = data.get("rolls")
    if not rolls or not any(is_secret(r, revealed) for r in rolls):
        return data
    return {**data, "rolls": [redact_roll(r, revealed) for r in rolls]}


def redact_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    if not any(k in metadata for k in _PRIVATE_METADATA):
        return metadata
    return {k: v for k, v in metadata.items() if k not in _PRIVATE_METADATA}


KEY = "{}"
"""An owner that names the key of the map a field is in (``after{}.stress`` owned by
``{}``: a map of combatant id to what happened to them)."""


def redact_health(
    ruleset: Ruleset[Any, Any, Any, Any],
    event_type: str,
    data: dict[str, Any],
    audience: Audience,
) -> dict[str, Any]:
    """An event's data without the health numbers ``audience`` may not see: each field the
    ruleset declares for the tag is removed unless the reader may see the numbers of one
    of its owners.  ``data`` itself is returned when nothing is removed (the common case:
    a table with ``npc_health = "exact"``, or an event that tells no health).  An opened
    envelope's inner events are events too: each loses the same fields.  The salts of the
    health commitments are the GM's on every table: players hold the commitments, which
    is all the chain needs (events/committed_health.py)."""
    if event_type == SEALED:
        return _opened_without_health(ruleset, data, audience)
    data = without_salts(data)
    if audience.npc_health == "exact":
        return data
    fields = health_fields_of(ruleset, event_type)
    if not fields:
        return data
    out = data
    for spec in fields:
        if applies(spec, data):
            out = _without(out, spec, audience)
    return out


def _opened_without_health(
    ruleset: Ruleset[Any, Any, Any, Any], data: dict[str, Any], audience: Audience
) -> dict[str, Any]:
    """An envelope whose contents the reader sees (opened, or the GM's) with each inner
    event's health fields and salts removed.  Its commitment binds each inner event's
    public form, health commitments in place of the values, so the reader still checks it."""
    inner = data.get("events")
    if not inner:
        return data
    changed, redacted = False, []
    for event in inner:
        shown = redact_health(ruleset, event["type"], event["data"], audience)
        changed = changed or shown is not event["data"]
        redacted.append({**event, "data": shown})
    return {**data, "events": redacted} if changed else data


def _without(data: dict[str, Any], spec: HealthField, audience: Audience) -> dict[str, Any]:
    return _strip(data, spec.path.split("."), spec.owners, audience, ())


def _strip(
    node: dict[str, Any],
    path: list[str],
    owners: tuple[str, ...],
    audience: Audience,
    outer: tuple[dict[str, Any], ...],
) -> dict[str, Any]:
    """``node`` without the field at ``path`` where its owner is not shown; ``outer`` are
    the enclosing objects, innermost last, where an owner not in ``node`` is looked up."""
    name, rest = path[0], path[1:]
    if not rest:
        if name not in node or _shown((node, *reversed(outer)), owners, audience):
            return node
        return {k: v for k, v in node.items() if k != name}
    key = name.removesuffix("[]").removesuffix("{}")
    inner = node.get(key)
    scope = (*outer, node)
    if name.endswith("[]") and isinstance(inner, list | tuple):
        kept = [
            _strip(item, rest, owners, audience, scope) if isinstance(item, dict) else item
            for item in inner
        ]
        return {**node, key: kept}
    if name.endswith("{}") and isinstance(inner, dict):
        each = {
            k: _strip(v, rest, owners, audience, (*scope, {KEY: k})) if isinstance(v, dict) else v
            for k, v in inner.items()
        }
        return {**node, key: each}
    if isinstance(inner, dict):
        return {**node, key: _strip(inner, rest, owners, audience, scope)}
    return node


def _shown(scopes: tuple[dict[str, Any], ...], owners: tuple[str, ...], audience: Audience) -> bool:
    """Whether the reader may see the numbers of an owner, each named by a field looked up
    in the innermost scope that has it."""
    for owner in owners:
        ident = next((scope[owner] for scope in scopes if owner in scope), None)
        if isinstance(ident, str) and audience.shows_exact_health(ident):
            return True
    return False
