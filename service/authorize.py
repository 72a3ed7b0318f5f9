"""What a player token may do with a ruleset command (design section 6).

Pure: the ruleset says whose command it is (``acts_for``), the encounter says whether
players may enter their own dice, and the token says what it is bound to.
"""

from __future__ import annotations

from typing import Any

from service.commands import CommandEnvelope
from service.encounter import Encounter
from service.ruleset import Ruleset, tag_of


class Forbidden(Exception):
    """The caller is known but may not do this: 403, with the reason."""


def authorize_player(
    ruleset: Ruleset[Any, Any, Any, Any],
    encounter: Encounter[Any],
    envelope: CommandEnvelope,
    bound: frozenset[str],
    *,
    off_sheet: bool = False,
) -> None:
    """Raise Forbidden unless a player bound to ``bound`` may issue ``envelope``; with
    ``off_sheet``, numbers of the player's own are allowed (a request asks for them)."""
    tag = tag_of(type(envelope.command))
    player_command = type(envelope.command) in ruleset.player_commands
    acts_for = ruleset.acts_for(encounter.game, envelope.command) if player_command else None
    if acts_for is None:
        raise Forbidden(f"{tag} is the GM's to issue, not a player's")
    if not acts_for <= bound:
        others = ", ".join(sorted(acts_for - bound))
        raise Forbidden(f"this token may act only for {_names(bound)}, not for {others}")
    if envelope.hidden:
        raise Forbidden("only the GM may roll in secret")
    why = None if off_sheet else ruleset.off_sheet(encounter.game, envelope.command)
    if why is not None:
        raise Forbidden(why)
    if envelope.manual_dice is not None and not encounter.allow_player_dice:
        raise Forbidden(
            "players may not enter their own dice in this encounter"
            " (the GM can allow it with allow_player_dice when creating it)"
        )


def _names(bound: frozenset[str]) -> str:
    return ", ".join(sorted(bound)) if bound else "nobody"
