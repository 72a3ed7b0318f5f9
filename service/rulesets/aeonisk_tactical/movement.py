"""Range bands and movement (section 3, section 5a, section 11).

Bands are pair-wise (AEK-24): without a zone map a move names the character it is
measured against and changes only that pair (the GM sets any other pair that changes:
AEK-A20); with a zone map a move names a destination zone and every band follows from
the map.  Clutter is crossed with an Agility x Athletics check before the move; failing
it loses the move (and a Charge's attack) and leaves the mover Prone (AEK-51, AEK-52).
Leaving Engaged without Disengage lets the foes left behind strike for free (AEK-28).
"""

from __future__ import annotations

from msgspec.structs import replace

from service.dice.model import Dice, Modifier
from service.ruleset import RuleViolation
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.fields import (
    BANDS,
    TERRAIN_DC,
    TERRAIN_NAMES,
    Band,
    Slot,
    Terrain,
)
from service.rulesets.aeonisk_tactical.plan import Move
from service.rulesets.aeonisk_tactical.rolls import judged, roll
from service.rulesets.aeonisk_tactical.rules import (
    are_foes,
    band,
    character,
    known_band,
    shifted,
    zone_band,
    zones_of,
)
from service.rulesets.aeonisk_tactical.state import BandChange, Character, PendingMove, State


class Route:
    """Where a move ends: the band changes (pair-wise) or the new zone (zone map)."""

    def __init__(self, changes: tuple[BandChange, ...] = (), zone: str | None = None):
        self.changes, self.zone = changes, zone


def zone_steps(state: State, origin: str | None, zone: str) -> int:
    """Band shifts needed to reach ``zone``: moving to a zone at Engaged or Near is one."""
    if zone not in zones_of(state.options):
        raise RuleViolation(f"there is no zone '{zone}' on this encounter's zone map")
    if origin is None:
        raise RuleViolation("the mover is not on the zone map: the GM places them first")
    if origin == zone:
        raise RuleViolation(f"already in {zone}")
    between = zone_band(state.options, origin, zone)
    if between is None:
        raise RuleViolation(f"the zone map gives no band between {origin} and {zone}")
    return max(1, BANDS.index(between))


def route(state: State, mover: Character, move: Move, budget: int) -> Route:
    """The end of a declared move, or a RuleViolation saying why it cannot happen.
    ``budget`` is 1 for a Minor, 2 for a Major (section 3)."""
    if move.bands > budget:
        raise RuleViolation(
            f"a {'Minor' if budget == 1 else 'Major'} action shifts at most {budget} "
            f"band{'s' if budget > 1 else ''} (section 3)"
        )
    if move.bands == 0:
        if move.terrain is None:
            raise RuleViolation("a move of 0 bands only enters Difficult Terrain: name it")
        if budget == 1:
            raise RuleViolation(
                "entering Difficult Terrain within the current band is a Major action (section 3)"
            )
        return Route()
    if state.options.zone_map:
        if move.zone is None:
            raise RuleViolation("on a zone map a move names its destination zone")
        steps = zone_steps(state, mover.zone, move.zone)
        if steps > move.bands:
            raise RuleViolation(
                f"{move.zone} is {steps} band shifts away, more than this move's {move.bands}"
            )
        return Route(zone=move.zone)
    if move.reference is None or move.direction is None:
        raise RuleViolation("a move names whom it is measured to (reference) and a direction")
    other = character(state, move.reference)
    if other.id == mover.id:
        raise RuleViolation("a move is measured to another character")
    current = known_band(state, mover, other)
    after = shifted(current, move.bands, move.direction == "closer")
    if after is None:
        raise RuleViolation(
            f"{mover.name} cannot shift {move.bands} band{'s' if move.bands > 1 else ''} "
            f"{move.direction} from {current} with {other.name}: the bands run from Engaged "
            "to Extreme (section 3)"
        )
    return Route(changes=(BandChange(other=other.id, before=current, after=after),))


def toward(state: State, mover: Character, target: Character, zone: str | None) -> Route:
    """Straight into Engaged with ``target`` (Charge)."""
    if state.options.zone_map:
        if target.zone is None:
            raise RuleViolation(f"{target.name} is not on the zone map")
        return Route(zone=target.zone)
    current = known_band(state, mover, target)
    return Route(changes=(BandChange(other=target.id, before=current, after="engaged"),))


def away(state: State, mover: Character, foe: Character, zone: str | None) -> Route | None:
    """One band away from ``foe`` (Disengage, Dive); None when already at Extreme."""
    if state.options.zone_map:
        if zone is None:
            raise RuleViolation("on a zone map, name the zone to move to")
        zone_steps(state, mover.zone, zone)
        if foe.zone is not None and zone_band(state.options, zone, foe.zone) == "engaged":
            raise RuleViolation(f"{zone} is still Engaged with {foe.name}")
        return Route(zone=zone)
    current = known_band(state, mover, foe)
    after = shifted(current, 1, closer=False)
    if after is None:
        return None
    return Route(changes=(BandChange(other=foe.id, before=current, after=after),))


def terrain_check(
    state: State, dice: Dice, mover: Character, terrain: Terrain
) -> tuple[bool, tuple[ev.Event, ...]]:
    """Agility x (or +) Athletics + d20 against the terrain's DC (AEK-51, AEK-A19)."""
    agility, athletics = mover.attribute("agility"), mover.skills.get("athletics", 0)
    if state.options.terrain_check_formula == "product":
        base = Modifier(f"Agility {agility} x Athletics {athletics}", agility * athletics)
    else:
        base = Modifier(f"Agility {agility} + Athletics {athletics}", agility + athletics)
    dc = TERRAIN_DC[terrain]
    label = f"terrain check ({TERRAIN_NAMES[terrain]})"
    record = roll(state, dice, mover, purpose=label, base=(base,), kind="check", target=dc)
    outcome, tiers, record = judged(record, dc)
    checked = ev.CheckRolled(
        character=mover.id, label=label, outcome=outcome, tiers=tiers, rolls=(record,)
    )
    if outcome == "success":
        return True, (checked,)
    fell = ev.ProneChanged(
        character=mover.id, prone=True, reason=f"failed to cross {TERRAIN_NAMES[terrain]}"
    )
    return False, (checked, fell)


def moved(
    state: State,
    mover: Character,
    where: Route,
    *,
    breakaway: bool,
    slot: Slot | None = None,
    attack_modifiers: tuple[Modifier, ...] = (),
    defence_modifiers: tuple[Modifier, ...] = (),
) -> tuple[ev.Event, ...]:
    """The move, or, when it leaves foes Engaged who still have their Reaction and it
    was not safe (Disengage, Dive), the Breakaway that holds it back until their free
    strikes are made (AEK-28; ``breakaway.complete_move`` finishes it)."""
    event = ev.Moved(character=mover.id, changes=where.changes, zone=where.zone)
    if not breakaway:
        return (event,)
    foes = left_engaged(state, mover, where)
    if not foes:
        return (event,)
    held = PendingMove(
        changes=where.changes,
        zone=where.zone,
        slot=slot,
        attack_modifiers=attack_modifiers,
        defence_modifiers=defence_modifiers,
    )
    return (ev.BreakawayOpened(mover=mover.id, foes=foes, move=held),)


def left_engaged(state: State, mover: Character, where: Route) -> tuple[str, ...]:
    """Foes Engaged with the mover before the move and not after, who still have their
    Reaction for the free strike."""
    after = _bands_after(state, mover, where)
    return tuple(
        c.id
        for c in state.characters.values()
        if c.alive
        and c.id != mover.id
        and are_foes(c, mover)
        and not c.reaction_used
        and band(state, mover.id, c.id) == "engaged"
        and after.get(c.id) != "engaged"
    )


def _bands_after(state: State, mover: Character, where: Route) -> dict[str, Band | None]:
    if where.zone is not None:
        moved_state = state.characters | {mover.id: replace(mover, zone=where.zone)}
        later = replace(state, characters=moved_state)
        return {c: band(later, mover.id, c) for c in state.characters}
    changed = {change.other: change.after for change in where.changes}
    return {c: changed.get(c, band(state, mover.id, c)) for c in state.characters}


def budget_of(slot: str) -> int:
    return 1 if slot == "minor" else 2
