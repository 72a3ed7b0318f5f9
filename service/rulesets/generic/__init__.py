"""The ``generic`` ruleset: combat for systems that have no module of their own.

Combatants with named stats, hit points and conditions (with durations in rounds);
initiative by any dice notation with tie-breaking; rounds and turns; attacks and checks
against a target number or an opposed roll; damage and healing; GM adjudication.

Module map (each module has one job; copy this layout for a new rule system):

- ``options``   encounter options and the notes ``GET /rulesets/generic`` shows
- ``state``     the folded state: combatants, initiative order, phase
- ``commands``  the command union (request shapes, OpenAPI docs)
- ``events``    the event union (stored facts, stable tags)
- ``evolve``    state + event -> state, no rules
- ``decide``    dispatch of commands to the rule modules below
- ``rules``     lookups and rules shared by several commands
- ``roster``    adding and removing combatants and conditions
- ``initiative`` / ``turns`` / ``actions`` / ``rulings``   the rules of each command
- ``narrate``   one replay-log line per event
- ``access``    which combatants a player must hold to issue each command
- ``examples``  one instance of every command and event, for the API documentation
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.generic.access import PLAYER_COMMANDS, acts_for, off_sheet
from service.rulesets.generic.carry_over import CARRY
from service.rulesets.generic.commands import COMMAND_TYPES, Command
from service.rulesets.generic.decide import decide
from service.rulesets.generic.events import EVENT_TYPES, Event
from service.rulesets.generic.evolve import evolve
from service.rulesets.generic.examples import EXAMPLES
from service.rulesets.generic.health import HEALTH_FIELDS
from service.rulesets.generic.narrate import narrate
from service.rulesets.generic.options import OPTION_NOTES, GenericOptions
from service.rulesets.generic.state import State, initial_state, round_of
from service.rulesets.generic.stats import combat_facts
from service.rulesets.generic.view import SHOWN_WHEN_SECRET, narrate_secret, player_state

STATE_SCHEMA_VERSION = 1

RULESET: Ruleset[State, Command, Event, GenericOptions] = Ruleset(
    name="generic",
    title="Generic combat",
    summary=(
        "Hit points, named stats, conditions with durations, initiative with any dice, "
        "attacks and checks against a number or opposed, damage, healing and GM rulings: "
        "for rule systems without a module of their own."
    ),
    options_type=GenericOptions,
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
    off_sheet=off_sheet,
    shown_when_secret=SHOWN_WHEN_SECRET,
    narrate_secret=narrate_secret,
    player_state=player_state,
    health_fields=HEALTH_FIELDS,
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["RULESET", "Command", "Event", "GenericOptions", "State"]
