"""Which fields of generic events tell a combatant's hit points (Ruleset.health_fields):
players see them only for combatants whose numbers the table shows them."""

from __future__ import annotations

from collections.abc import Mapping

from service.ruleset import HealthField

HEALTH_FIELDS: Mapping[str, tuple[HealthField, ...]] = {
    # The players' state shows an NPC's stats only with its exact health (view.py): the
    # statblock is one secret.
    "generic.combatant_added": (
        HealthField("hp", ("combatant",)),
        HealthField("max_hp", ("combatant",)),
        HealthField("stats", ("combatant",)),
    ),
    "generic.damaged": (HealthField("hp_after", ("target",)),),
    "generic.healed": (HealthField("hp_after", ("target",)),),
    # A ruling sets hp, max_hp, initiative or a stat; each is read as the combatant's
    # statblock (initiative too: its place in the order is public, the ruling's numbers
    # follow the statblock, as the log line does).
    "generic.value_set": (
        HealthField("value", ("combatant",)),
        HealthField("previous", ("combatant",)),
    ),
}
