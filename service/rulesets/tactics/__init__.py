"""The ``tactics`` ruleset: TACTICS, where attackers never roll and defenders do
(CHECKLIST section TAC).

A Press is declared on the attacker's turn with its Damage and Precision and stays
pending, visible to all, until the start of each target's next turn; there the defender
first chooses whether to React, then each pending Press resolves in declaration order:
Agility check (d20 + Agility vs Precision), the fail-by margin added to the damage, the
soak roll (d20 + Endurance + armour) subtracted, wounds from what is left, shields first.

Module map (each module has one job):

- ``options``   one option per gap of the text (TAC-A*), with the notes GET /rulesets shows
- ``state``     creatures and sheets, wounds, zones and features, turn order, pending Presses
- ``commands`` / ``events``   the unions; ``evolve`` applies events, no rules
- ``decide``    dispatch; ``rules`` lookups, zone distance, range bands, the wound track
- ``roster``    setting the table; ``turns`` rounds, turn start (shields), turn end
- ``combat``    acting on one's turn: Maneuver, declaring a Press, React
- ``areas``     who a Press hits: explosions, chain, cloud, splash
- ``resolution``  resolving a pending Press (Agility, soak) and the GM's Check
- ``wounds``    wounds taken: shields, the wound track, Presses a death voids
- ``rulings``   GM adjudication
- ``narrate``   the replay log and its secret variant; ``view`` the player view and the
  fields of secret events; ``access`` who may issue what; ``examples`` the docs
"""

from __future__ import annotations

from service.ruleset import Ruleset
from service.rulesets.tactics.access import PLAYER_COMMANDS, acts_for
from service.rulesets.tactics.carry_over import CARRY
from service.rulesets.tactics.commands import COMMAND_TYPES, Check, Command
from service.rulesets.tactics.decide import decide
from service.rulesets.tactics.events import EVENT_TYPES, Event
from service.rulesets.tactics.evolve import evolve
from service.rulesets.tactics.examples import EXAMPLE_OPTIONS, EXAMPLES
from service.rulesets.tactics.health import HEALTH_FIELDS, NOT_HEALTH
from service.rulesets.tactics.narrate import narrate, narrate_secret
from service.rulesets.tactics.options import OPTION_NOTES, TacticsOptions
from service.rulesets.tactics.state import State, initial_state, round_of
from service.rulesets.tactics.stats import combat_facts
from service.rulesets.tactics.view import SHOWN_WHEN_SECRET, player_state

STATE_SCHEMA_VERSION = 1

SUMMARY = (
    "TACTICS: attackers never roll, defenders do, on a d20. 3 actions a turn (2 for Minions "
    "and slow heavies): Maneuver, Press, React. A Press is declared with its Damage and "
    "Precision and resolves at the start of the target's next turn, in declaration order, "
    "after the defender chooses whether to React (one a turn, before any roll): Agility "
    "d20 + Agility vs Precision (meeting it dodges), each point of failure +1 damage, soak "
    "d20 + Endurance + armour subtracted, 1 wound per point left; 20 wounds incapacitate "
    "or kill. Shields (gate mode by default), zones and range bands I/C/M/F/S, splash, "
    "explosions, chains and clouds. The Press penalty has no size in the text: "
    "press_penalty_step is required when creating an encounter."
)


def _records_only(command: Command) -> bool:
    """A GM's check (TAC-A14) only records its dice: its event folds to the same state, so
    a hidden one holds no later command back (the noninterference test plays one before
    public commands of the GM and the players)."""
    return isinstance(command, Check)


RULESET: Ruleset[State, Command, Event, TacticsOptions] = Ruleset(
    name="tactics",
    title="TACTICS (defender-rolls d20)",
    summary=SUMMARY,
    options_type=TacticsOptions,
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
    not_health=NOT_HEALTH,
    combat_facts=combat_facts,
    examples=EXAMPLES,
    carry=CARRY,
)

__all__ = ["EXAMPLE_OPTIONS", "RULESET", "Command", "Event", "State", "TacticsOptions"]
