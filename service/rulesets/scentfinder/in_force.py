"""The conditions in force on a test, each named with its source.

The GM enters a test's degree (SCF-A1), so a Favour or an Impairment changes no number
here; it changes what the GM decides.  Every one that bears on a test is therefore on its
record and its log line: an Impairment from a Disarm on the weapon used (SCF-29), a
Favour from a Flank against the target (with "ignore 1 Impairment" on a Triumph, SCF-13)
or from a Sneak (SCF-15), an Aid's Favour (SCF-21), the circumstance Impairment of First
Help on a patient at Death's Door (SCF-20), and any condition whose scope is the action
itself (Hiding, Taunts, Seeking in an area).
"""

from __future__ import annotations

from service.rulesets.scentfinder.fields import ACTIONS, CONDITION_WORD
from service.rulesets.scentfinder.rules import area_name
from service.rulesets.scentfinder.state import Combatant, Condition, State


def in_force(
    state: State,
    actor: Combatant,
    action: str,
    *,
    target: Combatant | None = None,
    weapon: str | None = None,
    area: str | None = None,
    skill: str | None = None,
) -> tuple[str, ...]:
    """What is in force on ``actor``'s test of ``action``, in words with its source."""
    spec = ACTIONS[action]
    attack = "attack" in spec.traits
    found: list[str] = []
    for c in actor.conditions:
        if c.kind not in ("favoured", "impaired"):
            continue
        if skill == "Stealth" and (c.scope or "").endswith("Stealth rolls"):
            found.append(_spoken(state, c))  # Take Cover (SCF-51)
        elif _applies(state, c, spec.title, attack=attack, target=target, weapon=weapon, area=area):
            found.append(_spoken(state, c))
    if action == "administer_first_help" and target is not None and target.deaths_door:
        found.append(f"Impaired (circumstance): {target.name} is at Death's Door (SCF-20)")
    return tuple(found)


def in_force_on_save(state: State, who: Combatant, save: str) -> tuple[str, ...]:
    """What is in force on ``who``'s [0] Save: Take Cover's Favour on REF Saves (SCF-51),
    Avert Gaze's on Saves against visual effects (SCF-24, the GM knows whether the danger
    is one).  An Aid's Favour waits for the aided test, not a Save."""
    found = []
    for c in who.conditions:
        if c.kind not in ("favoured", "impaired"):
            continue
        scope = c.scope or ""
        if scope.startswith(f"{save} Saves"):
            found.append(_spoken(state, c))
        elif scope == "Saves against visual effects":
            found.append(_spoken(state, c) + " (if the danger is visual)")
    return tuple(found)


def _applies(
    state: State,
    c: Condition,
    title: str,
    *,
    attack: bool,
    target: Combatant | None,
    weapon: str | None,
    area: str | None,
) -> bool:
    scope = c.scope or ""
    if c.expiry == "next_roll":
        return True  # Aid: "a relevant roll", the ally's next one
    if scope == "attacks":
        return attack
    if scope.startswith("attacks against "):
        return attack and target is not None and c.against == target.id
    if scope.startswith("attacks with the "):
        return attack and weapon is not None and scope == f"attacks with the {weapon}"
    if scope.startswith("Seeking in "):
        return title == "Seek" and scope == f"Seeking in {area_name(state, area)}"
    return scope in (title, _ACTING.get(title))


_ACTING = {"Hide": "Hiding"}
"""How the text names an action's own Impairment ("Hiding is Impaired")."""


def _spoken(state: State, c: Condition) -> str:
    word = CONDITION_WORD.get(c.kind, c.kind)
    kind = f"{word} (circumstance)" if c.circumstance else word
    line = f"{kind}: {c.scope or 'the roll'}"
    if c.origin and c.source in state.combatants:
        line += f", from {state.combatants[c.source].name}'s {c.origin}"
    elif c.origin:
        line += f", from {c.origin}"
    elif c.source in state.combatants:
        line += f", from {state.combatants[c.source].name}"
    if c.note:
        line += f"; {c.note}"
    return line
