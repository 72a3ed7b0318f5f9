"""``evolve``: apply one event to the state.

Events are facts ``decide`` already checked, so nothing here validates or raises: every
number (wounds after a hit, Initiative after a Shock, bands after a move) is copied as is.
This module is the dispatch; the changes live in ``evolve_roster`` (characters added,
removed, values set), ``evolve_round`` (a round started, a declaration), ``evolve_tokens``
(Tactical Tokens claimed and spent), ``evolve_combat`` (attacks, damage, moves, Suppress,
Shock, effects ended) and ``evolve_common`` (the helpers they share).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from msgspec.structs import replace

from service.rulesets.aeonisk_tactical import events as ev
from service.rulesets.aeonisk_tactical.evolve_combat import (
    attacked,
    damaged,
    effects_ended,
    moved,
    shocked,
    suppression_chosen,
)
from service.rulesets.aeonisk_tactical.evolve_common import (
    each,
    name,
    reacted,
    remember,
    update,
    without,
    zoned,
)
from service.rulesets.aeonisk_tactical.evolve_roster import added, removed, set_value
from service.rulesets.aeonisk_tactical.evolve_round import declared, lapsed, round_started, surged
from service.rulesets.aeonisk_tactical.evolve_tokens import claimed, spent
from service.rulesets.aeonisk_tactical.state import (
    Bonding,
    Breakaway,
    Cleanup,
    Ended,
    Fast,
    Obscurement,
    ParryMade,
    PendingSuppress,
    Slow,
    State,
    TacticalToken,
    pair_key,
)

_PHASES = {"fast": Fast, "slow": Slow, "cleanup": Cleanup}


def evolve(state: State, event: ev.Event) -> State:
    """The state after ``event``."""
    match event:
        case ev.CharacterAdded():
            return added(state, event)
        case ev.CharacterRemoved():
            return removed(state, event.character)
        case ev.BandSet():
            return replace(state, bands={**state.bands, pair_key(event.a, event.b): event.band})
        case ev.ZoneEntered():
            state = update(state, event.character, lambda c: replace(c, zone=event.zone))
            return zoned(state, event.character)
        case ev.TokenPlaced():
            token = TacticalToken(id=event.token, kind=event.kind, label=event.label)
            return replace(state, tokens={**state.tokens, event.token: token})
        case ev.RoundStarted():
            return round_started(state, event)
        case ev.InitiativeRolled():
            totals = {r.character: r.total for r in event.results}
            due = tuple(c for c in state.initiative_due if c not in totals)
            state = replace(state, initiative_due=due)
            return each(state, lambda c: replace(c, initiative=totals.get(c.id, c.initiative)))
        case ev.PhaseStarted():
            return replace(state, phase=_PHASES[event.phase](round=event.round))
        case ev.Declared():
            return declared(state, event)
        case ev.DeclarationLapsed():
            return lapsed(state, event)
        case ev.VoidSurgeDeclared():
            return surged(state, event)
        case ev.InitiativeRerolled():
            return update(state, event.character, lambda c: replace(c, initiative=event.total))
        case ev.ActionBegan():
            done = f"{event.character}:{event.slot}"
            return replace(state, resolved=(*state.resolved, done))
        case ev.ActionFailed():
            done = f"{event.character}:{event.slot}"
            resolved = state.resolved if done in state.resolved else (*state.resolved, done)
            return replace(state, resolved=resolved, failed=(*state.failed, done))
        case ev.TokenClaimed():
            return claimed(state, event)
        case ev.TokenSpent():
            return spent(state, event)
        case ev.BondedDefenceGiven():
            bonding = Bonding(by=event.by, ally=event.ally, attacker=event.attacker)
            state = reacted(state, event.by, backlash=2)
            return replace(state, bondings=(*state.bondings, bonding))
        case ev.ParryCommitted():
            parry = ParryMade(
                by=event.character,
                attacker=event.attacker,
                attribute=event.attribute,
                skill=event.skill,
                bonus=event.bonus,
            )
            state = reacted(state, event.character)
            return replace(state, parries=(*state.parries, parry))
        case ev.HeroicBurnMade():
            if event.reaction:
                state = reacted(state, event.character)
            burned = state.round
            return update(state, event.character, lambda c: replace(c, burned_round=burned))
        case ev.AttackRolled():
            return attacked(state, event)
        case ev.DamageRolled():
            return damaged(state, event)
        case ev.FatalCheck():
            state = remember(state, event.rolls, f"{name(state, event.character)}'s Health check")
            if not event.dead:
                return state
            return update(state, event.character, lambda c: replace(c, status="dead"))
        case ev.CheckRolled():
            state = remember(state, event.rolls, f"{name(state, event.character)}'s {event.label}")
            if "ley_node" in event.used:
                state = replace(state, ley_node=without(state.ley_node, event.character))
            if "energy_hub" in event.used:
                state = update(state, event.character, lambda c: replace(c, energy_bonus=0))
            return state
        case ev.Moved():
            return moved(state, event)
        case ev.ChargeMade():
            number = state.round
            return update(
                state,
                event.character,
                lambda c: replace(c, charged_round=number, charge_foe=event.foe),
            )
        case ev.ProneChanged():
            return update(state, event.character, lambda c: replace(c, prone=event.prone))
        case ev.StunChanged():
            return update(state, event.character, lambda c: replace(c, stun=event.stun))
        case ev.ShockSuffered():
            return update(state, event.character, lambda c: shocked(c, event.initiative))
        case ev.VoidChanged():
            return update(state, event.character, lambda c: replace(c, void=event.void))
        case ev.OverwatchSet():
            return update(state, event.character, lambda c: replace(c, watch=event.watch))
        case ev.SuppressionPending():
            return replace(state, suppressed=PendingSuppress(target=event.target, by=event.by))
        case ev.SuppressionChosen():
            return suppression_chosen(replace(state, suppressed=None), event)
        case ev.BreakawayOpened():
            window = Breakaway(mover=event.mover, foes=event.foes, move=event.move)
            return replace(state, breakaway=window)
        case ev.BreakawayClosed():
            return replace(state, breakaway=None)
        case ev.EffectsEnded():
            return update(state, event.character, lambda c: effects_ended(c, event.effects))
        case ev.Obscured():
            vent = Obscurement(by=event.by, label=event.label, until_round=event.until_round)
            return replace(state, obscured=(*state.obscured, vent))
        case ev.ObscurementCleared():
            return replace(state, obscured=())
        case ev.ValueSet():
            return update(state, event.character, lambda c: set_value(c, event))
        case ev.OutcomeOverridden():
            recent = tuple(
                replace(r, outcome=event.outcome) if r.roll_id == event.roll_id else r
                for r in state.recent
            )
            return replace(state, recent=recent)
        case ev.EnergyNullified():
            return update(state, event.character, lambda c: replace(c, energy_bonus=0))
        case ev.ExtraTokenIgnored():
            return state
        case ev.EncounterEnded():
            return replace(state, phase=Ended(round=state.round))
        case _:
            assert_never(event)


def fold(state: State, events: Iterable[ev.Event]) -> State:
    """The state after ``events``, in order."""
    for event in events:
        state = evolve(state, event)
    return state
