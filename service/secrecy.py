"""What a player or spectator may see while a GM roll is secret (design section 3 and 5).

Secrecy is part of every ruleset's contract, not a filter bolted on by the API:

- An event is *secret* for players while the command that appended it made a hidden roll
  that the GM has not revealed.  Everything such a command decided (the roll's outcome,
  the damage it caused, hit points after, a tier, an initiative order) is derived from the
  secret, so the whole command is secret, not only the roll record.
- For each event tag a ruleset lists the data fields a player sees of a secret event
  (``Ruleset.shown_when_secret``): a whitelist, so a field added later stays hidden until
  someone decides it may be shown.  Roll records are redacted roll by roll by the engine.
- A secret event's log line comes from ``Ruleset.narrate_secret``, which names what
  happened without any number derived from the roll ("The GM rolls in secret for the
  goblin's attack on Aria").
- The state has a player view (``Ruleset.player_state``): combatants' health as the table
  decided (``Audience.npc_health``) and nothing the state remembers of rolls.
"""

from __future__ import annotations

from typing import Literal

import msgspec

NpcHealth = Literal["exact", "descriptor", "hidden"]
"""How players see the health of combatants no player controls: the number, a word
(unhurt, wounded, bloodied, down) or nothing at all."""

HealthWord = Literal["unhurt", "wounded", "bloodied", "down"]


class Audience(msgspec.Struct, frozen=True, kw_only=True):
    """Who is looking at a player view: the table's health setting and which combatants
    are player characters (bound to at least one player token; their owners see their
    numbers, so does everyone else at the table)."""

    npc_health: NpcHealth = "descriptor"
    player_combatants: frozenset[str] = frozenset()

    def shows_exact_health(self, combatant: str) -> bool:
        return self.npc_health == "exact" or combatant in self.player_combatants


def health_word(current: int, maximum: int) -> HealthWord:
    """The descriptor players see: down at 0 or below, bloodied at half or less, wounded
    below the maximum, unhurt otherwise."""
    if current <= 0:
        return "down"
    if current * 2 <= maximum:
        return "bloodied"
    if current < maximum:
        return "wounded"
    return "unhurt"


class HealthView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A combatant's health as one audience sees it: exact numbers, a word, or nothing."""

    current: int | None = None
    maximum: int | None = None
    word: HealthWord | None = None


def health_view(audience: Audience, combatant: str, current: int, maximum: int) -> HealthView:
    """Health of ``combatant`` for ``audience``; rulesets use it in ``player_state`` so
    every rule system applies the table's setting the same way."""
    if audience.shows_exact_health(combatant):
        return HealthView(current=current, maximum=maximum)
    if audience.npc_health == "descriptor":
        return HealthView(word=health_word(current, maximum))
    return HealthView()
