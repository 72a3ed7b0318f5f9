"""Health in log lines: written once with the command, shown to each reader per the table.

A log line is written on the command's write path, but whether a reader may see a
combatant's numbers depends on who reads (the GM, a player, a spectator) and on which
combatants are player characters when they read (bound to a live player token; see
docs/secrecy.md, "NPC health").  So a ruleset's narration does not write health numbers
as plain text: it wraps each part of a line that tells a combatant's current or maximum
health in a *health part* (``health_part``), which carries the owner, the exact words
and the descriptor's words.  Every read of the log renders the parts for its reader
(``render_health``): the exact words when the reader may see that combatant's numbers,
else the descriptor's words under ``npc_health = "descriptor"``, else (``"hidden"``) what
the part says without health, usually nothing.

The parts are delimited by characters of Unicode's private use area, which no reader
ever receives: ``render_health`` removes any that are left, so a stray one typed into a
name cannot smuggle text past it.
"""

from __future__ import annotations

import re

from service.secrecy import Audience, health_word

_OPEN, _SEP, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARKS = _OPEN + _SEP + _CLOSE
_FIELD = f"([^{_MARKS}]*)"
_PART = re.compile(f"{_OPEN}{_FIELD}{_SEP}{_FIELD}{_SEP}{_FIELD}{_SEP}{_FIELD}{_CLOSE}")
_STRAY = re.compile(f"[{_MARKS}]")
_OWNERS = ","
"""Separates the owners of one part: it is exact for a reader who may see any of them
(an Aeonis unit is a player's when its side is)."""


def _clean(text: str) -> str:
    return _STRAY.sub("", text)


def health_part(
    owners: str | tuple[str, ...], exact: str, descriptor: str = "", hidden: str = ""
) -> str:
    """A part of a log line that tells the health of ``owners`` (a combatant id, or
    several ids any of which makes the reader see it exactly): ``exact`` for readers who
    may see the numbers, ``descriptor`` (no numbers) for the others under
    ``npc_health = "descriptor"``, ``hidden`` (no numbers, usually nothing) under
    ``"hidden"``."""
    ids = (owners,) if isinstance(owners, str) else owners
    who = _OWNERS.join(_clean(i).replace(_OWNERS, "") for i in ids)
    said = _SEP.join(_clean(t) for t in (exact, descriptor, hidden))
    return f"{_OPEN}{who}{_SEP}{said}{_CLOSE}"


def health_words(
    owners: str | tuple[str, ...],
    exact: str,
    current: int,
    maximum: int,
    template: str = " ({word})",
    hidden: str = "",
) -> str:
    """``health_part`` whose descriptor is the table's word for ``current`` of ``maximum``
    (service.secrecy.health_word) put into ``template``."""
    word = template.format(word=health_word(current, maximum))
    return health_part(owners, exact, word, hidden)


def render_health(text: str, audience: Audience | None) -> str:
    """``text`` with its health parts as ``audience`` sees them; ``None`` is the GM (every
    number).  A line without parts is returned as it is, at the cost of one scan."""
    if _OPEN not in text:
        return text if _SEP not in text and _CLOSE not in text else _clean(text)

    def shown(part: re.Match[str]) -> str:
        owners, exact, descriptor, hidden = part.groups()
        if audience is None or any(audience.shows_exact_health(o) for o in owners.split(_OWNERS)):
            return exact
        return descriptor if audience.npc_health == "descriptor" else hidden

    return _clean(_PART.sub(shown, text))
