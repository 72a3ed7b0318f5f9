"""Campaigns: a party and a bestiary that outlive one encounter (docs/campaigns.md).

A campaign is a decider like a ruleset, over its own stream: ``initial_state``,
``decide`` (pure; dice come in as an argument) and ``evolve``.  What of a character
carries between fights is the ruleset's answer (``Ruleset.carry``,
service/carry_over.py); the campaign records each carry-over with the encounter and
version it came from, exactly once, and lets the GM undo, redo or adjust it.

Module map (each module has one job):

- ``commands`` / ``events``   the unions, with stable ``campaign.*`` tags
- ``state``      the party, the bestiary, the table and the encounters
- ``decide``     dispatch; ``evolve`` applies events, no rules
- ``roster``     creating the campaign, members and statblocks
- ``encounters`` starting an encounter (monster copies, hit points) and closing one
- ``carrying``   carry-over, its undo and redo, the GM's adjustments
- ``opening``    the ruleset commands that fill a new encounter, planned purely
- ``narrate``    the campaign's log, one line per event
- ``typed``      reading the stored plain data with the ruleset's carry-over types
"""

from __future__ import annotations

from service.campaigns.commands import Command
from service.campaigns.decide import decide
from service.campaigns.events import EVENT_TYPES, Event
from service.campaigns.evolve import evolve
from service.campaigns.narrate import narrate
from service.campaigns.opening import opening
from service.campaigns.state import State, initial_state

__all__ = [
    "EVENT_TYPES",
    "Command",
    "Event",
    "State",
    "decide",
    "evolve",
    "initial_state",
    "narrate",
    "opening",
]
