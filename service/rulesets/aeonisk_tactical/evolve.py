"""``evolve``: apply one event to the state.

Events are facts ``decide`` already checked, so nothing here validates or raises: every
number (wounds after a hit, Initiative after a Shock, bands after a move) is copied as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from msgspec.structs import replace

from service.dice.model import RollRecord
from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.state import (
    Bonding,
    Breakaway,
    Character,
    Cleanup,
    Declaring,
    Ended,
    Fast,
    HeldToken,
    Obscurement,
    PendingSuppress,
    RecentRoll,
    Slow,
    State,
    TacticalToken,
    pair_key,
)

RECENT_ROLLS = 50
_PHASES = {"fast": Fast, "slow": Slow, "cleanup": Cleanup}


def evolve(state: State, event: ev.Event) -> State:
    """The state after ``event``."""
    match event:
        case ev.CharacterAdded():
            return _added(state, event)
        case ev.CharacterRemoved():
            return _removed(state, event.character)
        case ev.BandSet():
            return replace(state, bands={**state.bands, pair_key(event.a, event.b): event.band})
        case ev.ZoneEntered():
            return _update(state, event.character, lambda c: replace(c, zone=event.zone))
        case ev.TokenPlaced():
            token = TacticalToken(id=event.token, kind=event.kind, label=event.label)
            return replace(state, tokens={**state.tokens, event.token: token})
        case ev.RoundStarted():
            return _round_started(state, event.round)
        case ev.InitiativeRolled():
            totals = {r.character: r.total for r in event.results}
            return _each(state, lambda c: replace(c, initiative=totals.get(c.id, c.initiative)))
        case ev.PhaseStarted():
            return replace(state, phase=_PHASES[event.phase](round=event.round))
        case ev.Declared():
            return _declared(state, event)
        case ev.InitiativeRerolled():
            return _update(state, event.character, lambda c: replace(c, initiative=event.total))
        case ev.ActionBegan() | ev.ActionFailed():
            done = f"{event.character}:{event.slot}"
            return replace(state, resolved=(*state.resolved, done))
        case ev.TokenClaimed():
            return _claimed(state, event)
        case ev.TokenSpent():
            return _spent(state, event)
        case ev.BondedDefenceGiven():
            bonding = Bonding(by=event.by, ally=event.ally, attacker=event.attacker)
            state = _reacted(state, event.by, backlash=2)
            return replace(state, bondings=(*state.bondings, bonding))
        case ev.HeroicBurnMade():
            if event.reaction:
                state = _reacted(state, event.character)
            burned = state.round
            return _update(state, event.character, lambda c: replace(c, burned_round=burned))
        case ev.AttackRolled():
            return _attacked(state, event)
        case ev.DamageRolled():
            return _damaged(state, event)
        case ev.FatalCheck():
            state = _remember(state, event.rolls, f"{_name(state, event.character)}'s Health check")
            if not event.dead:
                return state
            return _update(state, event.character, lambda c: replace(c, status="dead"))
        case ev.CheckRolled():
            state = _remember(
                state, event.rolls, f"{_name(state, event.character)}'s {event.label}"
            )
            if "ley_node" in event.used:
                state = replace(state, ley_node=_without(state.ley_node, event.character))
            if "energy_hub" in event.used:
                state = _update(state, event.character, lambda c: replace(c, energy_bonus=0))
            return state
        case ev.Moved():
            return _moved(state, event)
        case ev.ChargeMade():
            number = state.round
            return _update(
                state,
                event.character,
                lambda c: replace(c, charged_round=number, charge_foe=event.foe),
            )
        case ev.ProneChanged():
            return _update(state, event.character, lambda c: replace(c, prone=event.prone))
        case ev.StunChanged():
            return _update(state, event.character, lambda c: replace(c, stun=event.stun))
        case ev.ShockSuffered():
            return _update(state, event.character, lambda c: _shocked(c, event.initiative))
        case ev.VoidChanged():
            return _update(state, event.character, lambda c: replace(c, void=event.void))
        case ev.OverwatchSet():
            return _update(state, event.character, lambda c: replace(c, watch=event.watch))
        case ev.SuppressionPending():
            return replace(state, suppressed=PendingSuppress(target=event.target, by=event.by))
        case ev.SuppressionChosen():
            return _suppression_chosen(replace(state, suppressed=None), event)
        case ev.BreakawayOpened():
            return replace(state, breakaway=Breakaway(mover=event.mover, foes=event.foes))
        case ev.BreakawayClosed():
            return replace(state, breakaway=None)
        case ev.EffectsEnded():
            return _update(state, event.character, lambda c: _effects_ended(c, event.effects))
        case ev.Obscured():
            vent = Obscurement(by=event.by, label=event.label, until_round=event.until_round)
            return replace(state, obscured=(*state.obscured, vent))
        case ev.ObscurementCleared():
            return replace(state, obscured=())
        case ev.ValueSet():
            return _update(state, event.character, lambda c: _set_value(c, event))
        case ev.OutcomeOverridden():
            recent = tuple(
                replace(r, outcome=event.outcome) if r.roll_id == event.roll_id else r
                for r in state.recent
            )
            return replace(state, recent=recent)
        case ev.EnergyNullified():
            return _update(state, event.character, lambda c: replace(c, energy_bonus=0))
        case ev.ExtraTokenIgnored():
            return state
        case ev.EncounterEnded():
            return replace(state, phase=Ended(round=state.round))
        case _:
            assert_never(event)


def _added(state: State, event: ev.CharacterAdded) -> State:
    character = Character(
        id=event.character,
        name=event.name,
        side=event.side,
        pc=event.pc,
        attributes=dict(event.attributes),
        skills=dict(event.skills),
        soak=event.soak,
        void=event.void,
        bonds=event.bonds,
        weapons=dict(event.weapons),
        defence=event.defence,
        static_defence=event.static_defence,
        zone=event.zone,
    )
    return replace(state, characters={**state.characters, character.id: character})


def _removed(state: State, gone: str) -> State:
    characters = {k: c for k, c in state.characters.items() if k != gone}
    tokens = {
        k: (replace(t, holder=None) if t.holder == gone else t) for k, t in state.tokens.items()
    }
    bands = {k: b for k, b in state.bands.items() if gone not in k.split("|")}
    declarations = {k: d for k, d in state.declarations.items() if k != gone}
    return replace(
        state, characters=characters, tokens=tokens, bands=bands, declarations=declarations
    )


def _round_started(state: State, number: int) -> State:
    state = _each(state, lambda c: replace(c, reaction_used=False, token_on=None))
    return replace(
        state,
        phase=Declaring(round=number),
        declarations={},
        resolved=(),
        reacted=(),
        bondings=(),
        high_ground=(),
        ley_node=(),
        breakaway=None,
    )


def _declared(state: State, event: ev.Declared) -> State:
    declaration = event.declaration
    burned = state.round if declaration.heroic_burn else None

    def change(c: Character) -> Character:
        return replace(
            c,
            token_on=declaration.defence_token,
            burned_round=c.burned_round if burned is None else burned,
            stance=declaration.stance or c.stance,
        )

    state = _update(state, declaration.character, change)
    return replace(state, declarations={**state.declarations, declaration.character: declaration})


def _claimed(state: State, event: ev.TokenClaimed) -> State:
    tokens = dict(state.tokens)
    if event.returned is not None and event.returned in tokens:
        tokens[event.returned] = replace(tokens[event.returned], holder=None)
    token = replace(tokens[event.token], holder=event.character)
    tokens[event.token] = token
    held = HeldToken(token=token.id, kind=token.kind, claimed_round=state.round or 0)
    state = replace(state, tokens=tokens)
    return _update(state, event.character, lambda c: replace(c, tactical=held))


def _spent(state: State, event: ev.TokenSpent) -> State:
    tokens = {k: t for k, t in state.tokens.items() if k != event.token}
    state = _reacted(replace(state, tokens=tokens), event.character, tactical=None)
    match event.kind:
        case "cover":
            return _update(state, event.character, lambda c: replace(c, cover_mod=2))
        case "energy_hub":
            return _update(state, event.character, lambda c: replace(c, energy_bonus=2))
        case "high_ground":
            return replace(state, high_ground=(*state.high_ground, event.character))
        case "ley_node":
            return replace(state, ley_node=(*state.ley_node, event.character))
        case "vent" | "void_slick" | "sprint_lane":
            return state  # their effects arrive as events of their own
        case _:
            assert_never(event.kind)


def _attacked(state: State, event: ev.AttackRolled) -> State:
    what = f"{_name(state, event.attacker)}'s attack on {_name(state, event.target)}"
    state = _remember(state, event.rolls, what)
    if event.kind == "overwatch":
        state = _reacted(state, event.attacker, watch=None)
    elif event.kind == "free_strike":
        state = _reacted(state, event.attacker)
    if event.kind == "free_strike" and state.breakaway is not None:
        foes = _without(state.breakaway.foes, event.attacker)
        state = replace(state, breakaway=replace(state.breakaway, foes=foes))
    if event.bonded_by is not None:
        bondings = tuple(
            b
            for b in state.bondings
            if (b.by, b.ally, b.attacker) != (event.bonded_by, event.target, event.attacker)
        )
        state = replace(state, bondings=bondings)
    if event.backlash_used:
        state = _update(state, event.target, lambda c: replace(c, backlash=0))
    if event.high_ground:
        state = replace(state, high_ground=_without(state.high_ground, event.attacker))
    return state


def _damaged(state: State, event: ev.DamageRolled) -> State:
    used = event.used
    state = _update(
        state,
        event.target,
        lambda c: replace(
            c, wounds=event.wounds_after, cover_mod=0 if "cover" in used else c.cover_mod
        ),
    )
    if "energy_hub" not in used and "charge" not in used:
        return state
    return _update(
        state,
        event.attacker,
        lambda c: replace(
            c,
            energy_bonus=0 if "energy_hub" in used else c.energy_bonus,
            charge_foe=None if "charge" in used else c.charge_foe,
        ),
    )


def _moved(state: State, event: ev.Moved) -> State:
    bands = dict(state.bands)
    for change in event.changes:
        bands[pair_key(event.character, change.other)] = change.after
    state = replace(state, bands=bands)
    if event.zone is not None:
        zone = event.zone
        state = _update(state, event.character, lambda c: replace(c, zone=zone))
    return state


def _suppression_chosen(state: State, event: ev.SuppressionChosen) -> State:
    if event.choice == "hunker_down":
        hunkered = state.round
        return _update(state, event.character, lambda c: replace(c, hunkered_round=hunkered))
    if not event.lost_cover:
        return state
    held = state.characters[event.character].tactical
    tokens = {k: t for k, t in state.tokens.items() if held is None or k != held.token}
    state = replace(state, tokens=tokens)
    return _update(state, event.character, lambda c: replace(c, tactical=None))


def _shocked(character: Character, initiative: int | None) -> Character:
    character = replace(character, shocks=character.shocks + 1)
    return character if initiative is None else replace(character, initiative=initiative)


_EFFECT_FIELDS = {
    "hunker_down": "hunkered_round",
    "charge": "charged_round",
    "charge_bonus": "charge_foe",
}


def _effects_ended(character: Character, effects: tuple[str, ...]) -> Character:
    for effect in effects:
        if effect == "cover":
            character = replace(character, cover_mod=0)
        elif effect in _EFFECT_FIELDS:
            character = replace(character, **{_EFFECT_FIELDS[effect]: None})
    return character


def _set_value(character: Character, event: ev.ValueSet) -> Character:
    field = event.field
    if field.startswith("attribute:"):
        key = field.removeprefix("attribute:")
        return replace(character, attributes={**character.attributes, key: event.value})
    if field.startswith("skill:"):
        key = field.removeprefix("skill:")
        return replace(character, skills={**character.skills, key: event.value})
    return replace(character, **{field: event.value})


def _update(state: State, character_id: str, change: Callable[[Character], Character]) -> State:
    if character_id not in state.characters:
        return state
    characters = dict(state.characters)
    characters[character_id] = change(characters[character_id])
    return replace(state, characters=characters)


def _each(state: State, change: Callable[[Character], Character]) -> State:
    return replace(state, characters={k: change(c) for k, c in state.characters.items()})


def _reacted(state: State, character_id: str, **also: object) -> State:
    """The character's Reaction is used (and any ``also`` fields set in the same copy)."""
    state = _update(state, character_id, lambda c: replace(c, reaction_used=True, **also))
    return replace(state, reacted=(*state.reacted, character_id))


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    return tuple(i for i in items if i != item)


def _name(state: State, character_id: str) -> str:
    found = state.characters.get(character_id)
    return found.name if found else character_id


def _remember(state: State, rolls: tuple[RollRecord, ...], what: str) -> State:
    """Keep decided rolls for ``override_outcome``, forgetting the oldest beyond a limit."""
    recent = [
        RecentRoll(roll_id=r.roll_id, description=what, outcome=r.outcome)
        for r in rolls
        if r.outcome is not None
    ]
    return replace(state, recent=(*state.recent, *recent)[-RECENT_ROLLS:])
