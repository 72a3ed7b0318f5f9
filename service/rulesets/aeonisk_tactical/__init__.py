"""The ``aeonisk`` ruleset: Aeonisk Tactical Module v1.2.1 on YAGS (CHECKLIST section AEK).

Characters with YAGS attributes and skills, Soak, Wounds, Stun, Void and Bonds; the
round of Declare -> Fast -> Slow -> Cleanup; range bands pair-wise or on a zone map;
the Defence Token; Tactical Tokens; terrain and Prone; Suppress, Charge, Overwatch,
Disengage and Breakaway; Parry (YAGS numbers as inputs); Bonded Defence, Bond Rally and
Void Surge; damage, Wounds and the Health check; GM rulings for every gap of the text.

Module map (each module has one job):

- ``fields``     field types and the text's tables (bands, terrain DCs, tokens)
- ``options``    one option per ambiguity (AEK-A*), with the notes GET /rulesets shows
- ``plan``       the actions a character declares (Major / Minor)
- ``state``      the folded state: characters, bands, tokens, the phase of the round
- ``commands`` / ``events``   the unions; ``evolve`` applies events, no rules
- ``evolve_roster``  characters added, removed, values set; ``evolve_round`` a round
  started, a declaration; ``evolve_tokens`` Tactical Tokens claimed and spent;
  ``evolve_combat`` attacks, damage, moves, Suppress, Shock, effects ended;
  ``evolve_common`` the helpers they share
- ``decide``     dispatch; ``rules`` shared lookups and the resolution order
- ``rolls``      Attribute x Skill + d20 with labelled modifiers, cap, halving, tiers
- ``roster``     setting the table; ``rounds`` phases and Cleanup; ``initiative``
- ``declare``    the Declare Phase and Void Surge; ``late`` why a declaration made
  again or too late is refused; ``reactions`` the Fast Phase (Parry, tokens, Bonded
  Defence, Heroic Burn); ``overwatch`` Overwatch fire and its range; ``breakaway`` the
  free strikes before a held move completes; ``charge`` a Charge arriving;
  ``resolve``    the Slow Phase step and its attacks (Attack, Charge, Suppress);
  ``resolve_actions`` its other actions (moves, tasks, claims, Disengage, Bond Rally);
  ``movement`` bands, zones, terrain; ``combat`` attacks
  and defences; ``damage`` damage, Wounds, Shock, the Health check; ``rulings`` GM
  adjudication
- ``narrate``    the replay log, one line per event; ``narrate_parts`` names, rolls
  announced, Initiative, declarations, actions, tokens spent
- ``narrate_secret``  what players see of a secret event and its log line
- ``view``       what players see of the state; ``access`` who may issue what;
  ``examples`` the docs
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.aeonisk_tactical.access import PLAYER_COMMANDS, acts_for
from service.rulesets.aeonisk_tactical.carry_over import CARRY
from service.rulesets.aeonisk_tactical.commands import COMMAND_TYPES, Command
from service.rulesets.aeonisk_tactical.decide import decide
from service.rulesets.aeonisk_tactical.events import EVENT_TYPES, Event
from service.rulesets.aeonisk_tactical.evolve import evolve
from service.rulesets.aeonisk_tactical.examples import EXAMPLES
from service.rulesets.aeonisk_tactical.health import HEALTH_FIELDS, NOT_HEALTH
from service.rulesets.aeonisk_tactical.narrate import narrate
from service.rulesets.aeonisk_tactical.options import OPTION_NOTES, AeoniskOptions
from service.rulesets.aeonisk_tactical.state import State, initial_state, round_of
from service.rulesets.aeonisk_tactical.stats import combat_facts
from service.rulesets.aeonisk_tactical.view import SHOWN_WHEN_SECRET, narrate_secret, player_state

STATE_SCHEMA_VERSION = 3

SUMMARY = (
    "Aeonisk Tactical Module v1.2.1 (YAGS): Attribute x Skill + d20 against 10/20/30 with a "
    "success tier per +10; Initiative Agility x 4 + d20 (natural 1: INIT 0, checks halved, "
    "actions Slow); rounds of Declare (ascending Initiative, no rolls, Defence Token), Fast "
    "(Reactions such as Parry, descending) and Slow (declared actions, descending, each "
    "failing if the round overtook it) and Cleanup; pair-wise range bands or a zone map; "
    "Tactical Tokens; terrain and Prone; Suppress, Charge, Overwatch, Disengage, Breakaway; "
    "Bonded Defence, Bond Rally, Void Surge; Strength + weapon + d20 against Soak, Wounds and"
    " the Health check. Two choices to know: Initiative is re-rolled every round by default "
    "(initiative_mode), because section 1's detailed rule governs the cheat-sheet's 'roll "
    "once at start'. Attacks hit when the attack total meets the defence total (hit_rule, "
    "AEK-A5); the text's Kaelia snippet calls defence 16 against attack 18 a miss, which no "
    "comparison gives, so here that attack hits. The GM moves the round on (next_phase), "
    "players declare, react and resolve for their own characters, and GM rulings cover what "
    "the text leaves to YAGS core or the table. Initiative may be rolled one die at a time "
    "(next_phase initiative one_at_a_time), and the GM may close a Declare Phase "
    "(close_declarations): who has not declared lapses, flanked by every foe."
)

RULESET: Ruleset[State, Command, Event, AeoniskOptions] = Ruleset(
    name="aeonisk",
    title="Aeonisk Tactical (YAGS)",
    summary=SUMMARY,
    options_type=AeoniskOptions,
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
    not_health=NOT_HEALTH,
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["RULESET", "AeoniskOptions", "Command", "Event", "State"]
