"""The ``scentfinder`` ruleset: areas, three actions and four degrees (CHECKLIST section SCF).

Module map:

- ``fields``     field types and the table of all actions (costs, traits, degree lines)
- ``options``    one option per ambiguity (SCF-A*), with the notes GET /rulesets shows
- ``state``      areas, combatants, conditions, the turn and the pending test
- ``commands`` / ``events``   the unions; ``evolve`` applies events, no rules
- ``decide``     the dispatch: each command to the module that decides it
- ``setup``      setting the table: areas and combatants
- ``initiative`` initiative, beginning combat, reordering a phase, Delay
- ``turns``      starting the next turn (and round), ending a turn
- ``rulings``    GM rulings (Adjudicate)
- ``actions``    taking an action: turn, cost, traits, target, movement, paying for it
- ``requirements``  each action's base cost, tested skill and requirements
- ``untested``   the effect of each action that takes no test
- ``degrees``    a test's degree (GM's or house dice) sent to its family's degree lines:
  ``outcomes_attacks``, ``outcomes_movement``, ``outcomes_spells``, ``outcomes_support``
- ``saves``      Saves, against a named danger or hazardous terrain
- ``action_helpers``  what those share (pending guard, conditions, moves, damage)
- ``rules``      shared lookups (turn order, distances) and the event builder
- ``narrate``    the replay log, one line per event
- ``narrate_parts``  names, roll and condition text, action taken / resolved lines
- ``view``       what players see; ``access``; ``examples``
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.scentfinder.access import PLAYER_COMMANDS, acts_for
from service.rulesets.scentfinder.carry_over import CARRY
from service.rulesets.scentfinder.commands import COMMAND_TYPES, Command, GmRoll
from service.rulesets.scentfinder.decide import decide
from service.rulesets.scentfinder.events import EVENT_TYPES, Event
from service.rulesets.scentfinder.evolve import evolve
from service.rulesets.scentfinder.examples import EXAMPLES
from service.rulesets.scentfinder.health import HEALTH_FIELDS
from service.rulesets.scentfinder.narrate import narrate
from service.rulesets.scentfinder.options import OPTION_NOTES, ScentfinderOptions
from service.rulesets.scentfinder.state import State, initial_state, round_of
from service.rulesets.scentfinder.stats import combat_facts
from service.rulesets.scentfinder.view import SHOWN_WHEN_SECRET, narrate_secret, player_state

STATE_SCHEMA_VERSION = 2

SUMMARY = (
    "Scentfinder: a battlefield of GM-defined areas (adjacency, difficult, hazardous, "
    "obstacle, uneven terrain, cover); initiative degree gives one of four phases, NPCs "
    "at fixed phases after PCs, lowest-rolling players first, Delay; 3 actions and a "
    "reaction regained at the start of one's own turn; all 32 actions with their traits "
    "and degree lines; conditions as counted instances with durations; HP, FP, "
    "persistent damage, Death's Door, spells and Sustain. The text gives no dice for "
    "tests (SCF-A1): the GM enters each degree (Triumph, Success, Failure, Bungle); "
    "damage dice are rolled. Players declare actions for their own characters; the GM "
    "resolves them with the degree."
)


def _records_only(command: Command) -> bool:
    """A GM's free roll only records its dice: its event folds to the same state, so
    a hidden one holds no later command back (the noninterference test plays one before
    public commands of the GM and the players)."""
    return isinstance(command, GmRoll)


RULESET: Ruleset[State, Command, Event, ScentfinderOptions] = Ruleset(
    name="scentfinder",
    title="Scentfinder (areas, three actions, degrees)",
    summary=SUMMARY,
    options_type=ScentfinderOptions,
    option_notes=OPTION_NOTES,
    command_types=COMMAND_TYPES,
    event_types=EVENT_TYPES,
    state_type=State,
    state_schema_version=STATE_SCHEMA_VERSION,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    narrate=narrate,
    round_of=round_of,
    acts_for=acts_for,
    player_commands=PLAYER_COMMANDS,
    shown_when_secret=SHOWN_WHEN_SECRET,
    secret_changes_nothing=_records_only,
    narrate_secret=narrate_secret,
    player_state=player_state,
    health_fields=HEALTH_FIELDS,
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["RULESET", "Command", "Event", "ScentfinderOptions", "State"]
