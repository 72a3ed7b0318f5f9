"""What players may not see: results of secret GM rolls until revealed (design section
5), and GM-only notes.

A secret roll shows that it happened, who rolled, why and with which dice; its faces,
modifiers, total and outcome stay hidden until the GM reveals it.  The GM sees all.
The same functions serve the roll ledger, the log, the event listing and live updates,
so no path can leak what another hides.
"""

from __future__ import annotations

from typing import Any

PRIVATE_NOTE = "The GM makes a private note."
"""What players read in place of a GM-only note."""

_KEPT = ("roll_id", "roller", "purpose", "notation", "source", "epoch", "hidden")


def is_secret(record: dict[str, Any], revealed: frozenset[str]) -> bool:
    return bool(record.get("hidden")) and record.get("roll_id") not in revealed


def redact_roll(record: dict[str, Any], revealed: frozenset[str]) -> dict[str, Any]:
    """The roll as a player sees it; unchanged unless it is still secret."""
    if not is_secret(record, revealed):
        return record
    kept = {k: v for k, v in record.items() if k in _KEPT or k in ("version", "round", "undone")}
    return {**kept, "redacted": True}


def redact_event_data(
    event_type: str, data: dict[str, Any], revealed: frozenset[str]
) -> dict[str, Any]:
    """An event's data as a player sees it: a GM-only note without its text, still-secret
    roll records redacted (the ``rolls`` field convention every ruleset follows)."""
    if event_type == "encounter.note_added" and data.get("gm_only"):
        return {"gm_only": True, "redacted": True}
    rolls = data.get("rolls")
    if not rolls or not any(is_secret(r, revealed) for r in rolls):
        return data
    return {**data, "rolls": [redact_roll(r, revealed) for r in rolls]}
