"""Lookups and rules shared by several commands: characters, sides, bands, the order.

Each helper returns what ``decide`` needs or raises ``RuleViolation`` with a sentence in
the words of the rules text, naming characters by name.
"""

from __future__ import annotations

from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical.fields import BANDS, Band, Slot
from service.rulesets.aeonisk_tactical.options import AeoniskOptions
from service.rulesets.aeonisk_tactical.plan import AnyAction
from service.rulesets.aeonisk_tactical.state import Character, Setup, State, pair_key


def character(state: State, character_id: str) -> Character:
    found = state.characters.get(character_id)
    if found is None:
        raise RuleViolation(f"there is no character with id '{character_id}' in this encounter")
    return found


def living(state: State, character_id: str) -> Character:
    """A character who can still act."""
    found = character(state, character_id)
    if not found.alive:
        raise RuleViolation(f"{found.name} is dead and cannot act")
    return found


def alive_target(state: State, target_id: str) -> Character:
    target = character(state, target_id)
    if not target.alive:
        raise RuleViolation(f"{target.name} is dead: the action has no target")
    return target


def are_foes(a: Character, b: Character) -> bool:
    return a.side != b.side


def zone_band(options: AeoniskOptions, a: str, b: str) -> Band | None:
    """The band the zone map gives between two zones; the same zone is Engaged unless the
    map says otherwise (section 11)."""
    for link in options.zone_map:
        if {link.a, link.b} == {a, b}:
            return link.band
    return "engaged" if a == b else None


def zones_of(options: AeoniskOptions) -> set[str]:
    return {z for link in options.zone_map for z in (link.a, link.b)}


def band(state: State, a: str, b: str) -> Band | None:
    """The band between two characters, measured pair-wise (AEK-24): from the zone map
    when it gives one for their zones, else as the GM set it."""
    first, second = state.characters.get(a), state.characters.get(b)
    if state.options.zone_map and first and second and first.zone and second.zone:
        mapped = zone_band(state.options, first.zone, second.zone)
        if mapped is not None:
            return mapped
    return state.bands.get(pair_key(a, b))


def known_band(state: State, a: Character, b: Character) -> Band:
    found = band(state, a.id, b.id)
    if found is None:
        raise RuleViolation(
            f"the range band between {a.name} and {b.name} is not set: the GM sets it "
            "(set_band, or zones on a zone map)"
        )
    return found


def shifted(current: Band, steps: int, closer: bool) -> Band | None:
    """The band ``steps`` away, or None when it would pass Engaged or Extreme."""
    index = BANDS.index(current) + (-steps if closer else steps)
    return BANDS[index] if 0 <= index < len(BANDS) else None


def best_skill(c: Character) -> int:
    return max(c.skills.values(), default=0)


def resolution_order(state: State) -> list[Character]:
    """Living characters with Initiative, in descending order (section 1): ties go to the
    highest single skill rank, then the higher Agility, the governing attribute of the
    Initiative roll (AEK-09, AEK-A8); a tie beyond that keeps the order of addition."""
    added = {cid: i for i, cid in enumerate(state.characters)}
    ranked = [c for c in state.characters.values() if c.alive and c.initiative is not None]
    return sorted(
        ranked,
        key=lambda c: (-(c.initiative or 0), -best_skill(c), -c.attribute("agility"), added[c.id]),
    )


def ranks(state: State) -> dict[str, int]:
    """Each character's place in the resolution order (0 resolves first)."""
    return {c.id: i for i, c in enumerate(resolution_order(state))}


def is_init_zero(state: State, c: Character) -> bool:
    """INIT 0 (a natural 1, or Shock down to 0): checks halved, actions Slow (AEK-08)."""
    return c.initiative == 0 and not isinstance(state.phase, Setup)


def next_pending(state: State) -> tuple[Character, Slot, AnyAction] | None:
    """The next declared action to resolve (AEK-15, AEK-A2, A31): descending Initiative,
    so INIT-0 (Slow) characters come after every Normal action; each character's two in
    the order declared.  None once every declared action has resolved."""
    for c in resolution_order(state):
        declared = state.declarations.get(c.id)
        if declared is None or declared.forfeit:
            continue
        order: tuple[Slot, ...] = ("minor", "major") if declared.minor_first else ("major", "minor")
        for slot in order:
            action = declared.major if slot == "major" else declared.minor
            if action is not None and f"{c.id}:{slot}" not in state.resolved:
                return c, slot, action
    return None


def pending_action(state: State, character_id: str, slot: Slot) -> AnyAction | None:
    """A declared action of this round that has not resolved yet."""
    if f"{character_id}:{slot}" in state.resolved:
        return None
    return state.declared(character_id, slot)


def still_rolling(state: State) -> list[Character]:
    """Living characters whose Initiative die this round has not landed yet."""
    found = (state.characters.get(c) for c in state.initiative_due)
    return [c for c in found if c is not None and c.alive]
