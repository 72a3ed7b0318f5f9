"""The ``aeonis`` ruleset: *Aeonis: The Shattered Empire* combat (rules/aeonis-combat.md).

Armies of units on a hex map: Battle Lines capped at 3 (5 on Cities and Fortresses),
Reserves, Lords as units who are captured instead of destroyed, one battle round per
Attack action (plus Press the Attack), and sieges that persist across turns and rounds.

Module map (each module has one job):

- ``fields`` / ``hexes``   request field types; axial hex geometry
- ``options``   encounter options (the CHECKLIST's AEC ambiguities) and their notes
- ``state``     the folded state: hexes, sides, units, battles; unit stats
- ``commands`` / ``events``   the command and event unions
- ``evolve``    state + event -> state, no rules
- ``decide``    dispatch of commands to the rule modules below
- ``rules``     lookups and checks shared by several commands
- ``setup``     hexes, sides, units, movement
- ``rounds``    Round Start and Cleanup & Checks
- ``declare``   declaring an attack and the defence, setting targets
- ``commitment`` units committed, the Battle Line, siege reinforcements, targets checked
- ``reinforce`` each side's Reinforce choice and the line it leaves for the round
- ``combat``    one battle round and the Victory Check
- ``aftermath`` Retreat Check, Press the Attack, pausing, lifting, occupation
- ``lords``     Lord Sheet abilities and their use
- ``rulings``   GM adjudication
- ``narrate``   one replay-log line per event
- ``access``    which side a player must hold to issue each command
- ``examples``  one instance of every command and event, for the API documentation
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.aeonis_combat.access import PLAYER_COMMANDS, acts_for
from service.rulesets.aeonis_combat.carry_over import CARRY
from service.rulesets.aeonis_combat.commands import COMMAND_TYPES, Command
from service.rulesets.aeonis_combat.decide import decide
from service.rulesets.aeonis_combat.events import EVENT_TYPES, Event
from service.rulesets.aeonis_combat.evolve import evolve
from service.rulesets.aeonis_combat.examples import EXAMPLES
from service.rulesets.aeonis_combat.health import HEALTH_FIELDS, health_owners, player_characters
from service.rulesets.aeonis_combat.narrate import narrate
from service.rulesets.aeonis_combat.options import OPTION_NOTES, AeonisOptions
from service.rulesets.aeonis_combat.state import State, initial_state, round_of
from service.rulesets.aeonis_combat.stats import combat_facts
from service.rulesets.aeonis_combat.view import SHOWN_WHEN_SECRET, narrate_secret, player_state

STATE_SCHEMA_VERSION = 4
"""3: Lord Sheet abilities and their uses, Battle's Reinforce choices; 4: how the last
battle at each hex was decided."""

SUMMARY = (
    "Aeonis: The Shattered Empire combat: hex battles with Battle Lines (cap 3, or 5 on "
    "Cities/Fortresses), Reserves, Infantry/Cavalry/Archers (Pre-Strike) and Lords (captured "
    "at 0 HP: +2 Renown, +1 VP to the captor, released at Cleanup & Checks, healed at Round "
    "Start), one battle round per Attack action (2 AP) plus Press the Attack (+1 AP, once), "
    "and sieges that persist across turns. "
    "Flow of an Attack action: aeonis.attack (attacker: commit adjacent units, form the "
    "line) -> aeonis.defend (defender: commit adjacent units, line, Hold the Walls on a "
    "City; a Fortress is always held) -> aeonis.reinforce (either side, optional: which "
    "Reserves to promote, or none) -> aeonis.fight (attacker: Reinforce, Archer Pre-Strike, "
    "Strike, Counterstrike; manual dice per strike: attack die then defence die) -> "
    "aeonis.retreat / aeonis.stand (attacker first; the defender is asked only where it may "
    "retreat) -> aeonis.press, aeonis.end_attack or aeonis.lift_siege; after a victory "
    "(the Siege marker goes with it) aeonis.occupy. Lord Sheet abilities are data "
    "(aeonis.add_side, aeonis.set_lord_abilities) used with aeonis.use_ability while the "
    "Lord is not captured; the GM applies their effects by ruling. "
    "Choices where the text is silent: targets chosen per striker (units promoted in this "
    "round's Reinforce included), falling back to the first surviving enemy Battle Line "
    "unit when the target has fallen or was not promoted after all; lines formed "
    "attacker first and in the open (AEC-A6; hidden lines are not offered because the "
    "service has no hidden state besides GM rolls); a hex whose units fight in another "
    "battle cannot be attacked until that battle ends; movement is recorded without AP "
    "(Actions.md is not part of the text). Every other ambiguity is an option below."
)

RULESET: Ruleset[State, Command, Event, AeonisOptions] = Ruleset(
    name="aeonis",
    title="Aeonis: Combat (hex battles, battle lines, sieges)",
    summary=SUMMARY,
    options_type=AeonisOptions,
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
    narrate_secret=narrate_secret,
    player_state=player_state,
    health_fields=HEALTH_FIELDS,
    health_owners=health_owners,
    player_characters=player_characters,
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["RULESET", "AeonisOptions", "Command", "Event", "State"]
