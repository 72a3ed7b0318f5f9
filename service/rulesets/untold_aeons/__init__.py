"""The ``untold-aeons`` ruleset: Untold Aeons, d6 success-counting pools (CHECKLIST UAE).

Four characteristics (1-5, 12 points for investigators), Stress Limit, wound limit and
Move Speed; skill pools against difficulty pools counted by ``service.dice.pool``; two
karma pools whose points move on every use; Fast and Slow turns; melee Dodge, Defend
and Fight Back; firearms by range band with diving for cover and Rapid Fire; damage
against Toughness and Piercing; wounds and stress as parallel thresholds with the
checks above the limit and twice the limit, Shaken, hardened notches; daily recovery;
advancement; Narrator rulings for everything the text leaves open.

Module map:

- ``options``   one option per ambiguity (UAE-A*), with the notes GET /rulesets shows
- ``state``     the folded state; ``commands`` / ``events`` the unions
- ``rules``     shared lookups: whose turn, what a Fast or Slow turn still allows
- ``rolls``     which dice a character rolls (Shaken, karma, penalties, untrained)
- ``table``     characters, distances, rounds and turns, moving, bleeding
- ``combat``    declaring and answering an attack, resolving it once answered
- ``exchange``  how an attack's dice fall: the melee exchange, the shot (dive, Rapid Fire)
- ``damage``    each hit's damage against Toughness and Piercing; the AttackResolved
- ``limits``    the checks above the wound and stress limits; a karma boost used up
- ``mind``      called checks (also behind the screen), rolled, rerolled
- ``sanity``    sanity checks and stress, hardening notches, daily recovery
- ``karma``     karma spent from either pool; xp spent to advance
- ``reroll``    karma "reroll dice" on any open roll, decided again from before it
- ``rulings``   Narrator adjudication; ``decide`` dispatch; ``evolve`` applies events
- ``reroll_window``  which rolls stay open to a karma reroll after an event (UAE-A6)
- ``narrate``   the replay log, one line per event (and its secret variant)
- ``narrate_parts``   names, capitals, rolls announced, attack / limit / karma lines
- ``narrate_secret``  the line of an event whose rolls are still secret
- ``view``      what players see; ``access``; ``examples``
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.untold_aeons.access import PLAYER_COMMANDS, acts_for
from service.rulesets.untold_aeons.carry_over import CARRY
from service.rulesets.untold_aeons.commands import COMMAND_TYPES, Command
from service.rulesets.untold_aeons.decide import decide
from service.rulesets.untold_aeons.events import EVENT_TYPES, Event
from service.rulesets.untold_aeons.evolve import evolve
from service.rulesets.untold_aeons.examples import EXAMPLES
from service.rulesets.untold_aeons.health import HEALTH_FIELDS
from service.rulesets.untold_aeons.narrate import narrate, narrate_secret
from service.rulesets.untold_aeons.options import OPTION_NOTES, UntoldOptions
from service.rulesets.untold_aeons.state import State, initial_state, round_of
from service.rulesets.untold_aeons.stats import combat_facts
from service.rulesets.untold_aeons.view import SHOWN_WHEN_SECRET, player_state

STATE_SCHEMA_VERSION = 2

SUMMARY = (
    "Untold Aeons: roll d6 equal to the skill against d6 equal to the difficulty and count "
    "(5 = 1, 6 = 2 successes or failures; a skill-die 1 is an Advantage, a difficulty-die 1 "
    "a Drawback, cancelling); more successes than failures succeeds, a tie fails. Each "
    "round everyone picks a Fast turn (an action or a move, UAE-A1) or a Slow turn (an "
    "action and a move); Fast initiating > Fast defending > Slow initiating > Slow "
    "defending. Melee is an opposed roll (Dodge, Defend, Fight Back); a shot rolls against "
    "difficulty dice by range band, the target may dive for cover. Damage = base + "
    "successes before cancelling, less max(0, Toughness - Piercing); a success with "
    "Advantage doubles the base. Wounds and stress are thresholds with a check above the "
    "limit and a save above twice it. Two karma pools: a spent point moves to the other "
    "pool. The Narrator can roll the difficulty dice behind the screen (send "
    "roll_difficulty with hidden: true) and rules on Advantages, Drawbacks and phobias."
)

RULESET: Ruleset[State, Command, Event, UntoldOptions] = Ruleset(
    name="untold-aeons",
    title="Untold Aeons (d6 pools)",
    summary=SUMMARY,
    options_type=UntoldOptions,
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
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["RULESET", "Command", "Event", "State", "UntoldOptions"]
