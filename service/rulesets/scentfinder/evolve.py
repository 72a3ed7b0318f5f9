"""``evolve``: apply one event to the state. No rules, no dice: events say it all."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from service.rulesets.scentfinder import events as ev
from service.rulesets.scentfinder import sheet
from service.rulesets.scentfinder.state import Area, Combatant, Condition, Pending, State


def _put(state: State, who: Combatant) -> State:
    return replace(state, combatants={**state.combatants, who.id: who})


def _drop(who: Combatant, ids: tuple[str, ...]) -> Combatant:
    if not ids:
        return who
    return replace(who, conditions=tuple(c for c in who.conditions if c.id not in ids))


def _counter(state: State, condition: Condition) -> int:
    number = condition.id[1:]
    return max(state.next_condition, int(number) + 1) if number.isdigit() else state.next_condition


def evolve(state: State, event: ev.Event) -> State:
    c = state.combatants
    match event:
        case ev.AreaDefined():
            area = Area(
                id=event.area,
                name=event.name,
                difficult=event.difficult,
                hazard=event.hazard,
                obstacle=event.obstacle,
                uneven=event.uneven,
                cover=event.cover,
            )
            links = set(state.links)
            for other in event.adjacent:
                links.add((min(event.area, other), max(event.area, other)))
            return replace(
                state, areas={**state.areas, event.area: area}, links=tuple(sorted(links))
            )
        case ev.CombatantAdded():
            who = Combatant(
                id=event.combatant,
                name=event.name,
                pc=event.pc,
                side=event.side,
                sentient=event.sentient,
                minion_of=event.minion_of,
                hp=event.hp,
                max_hp=event.max_hp,
                fp=event.fp,
                max_fp=event.max_fp,
                saves=event.saves,
                skills=event.skills,
                weapons=event.weapons,
                held=event.held,
                hands=event.hands,
                spells=event.spells,
                magic_skill=event.magic_skill,
                refocus_skill=event.refocus_skill,
                healing_tools=event.healing_tools,
                shield=event.shield,
                area=event.area,
                start_area=event.area,
                phase=event.phase,
                index=len(c),
            )
            return _put(state, who)
        case ev.CombatantRemoved():
            who = replace(c[event.combatant], out=True)
            state = _put(state, who)
            if state.current == event.combatant:
                state = replace(state, current=None)
            return state
        case ev.InitiativeSet():
            who = replace(
                c[event.combatant],
                phase=event.phase,
                init_value=event.value,
                area=event.start_area or c[event.combatant].area,
            )
            return _put(state, who)
        case ev.CombatBegan():
            return replace(state, stage="combat")
        case ev.RoundStarted():
            return replace(state, round=event.round, done=(), current=None)
        case ev.TurnStarted():
            who = _drop(c[event.combatant], event.expired)
            who = replace(
                who,
                actions=event.actions,
                reaction=event.reaction,
                turn_before=who.had_turn,
                reaction_before=who.reaction,
                had_turn=True,
                acted=False,
                attacked_with=(),
            )
            return replace(_put(state, who), current=event.combatant)
        case ev.Delayed():
            who = replace(
                c[event.combatant],
                phase=event.to_phase,
                rank=event.rank,
                actions=event.actions,
                reaction=event.reaction,
                had_turn=c[event.combatant].turn_before,
            )
            return replace(_put(state, who), current=None)
        case ev.PhaseReordered():
            for rank, ident in enumerate(event.order):
                state = _put(state, replace(state.combatants[ident], rank=rank))
            return state
        case ev.ActionTaken():
            who = _drop(c[event.actor], event.ended)
            if event.via == "turn":
                who = replace(who, actions=who.actions - event.cost)
            elif event.via == "reaction":
                who = replace(who, reaction=who.reaction - 1)
            elif event.via == "minion":
                who = replace(who, granted=who.granted - event.cost)
            who = replace(who, acted=True, fp=who.fp - event.fp_spent)
            if event.skill and event.action in _ATTACKS:
                who = replace(who, attacked_with=(*who.attacked_with, event.skill))
            state = _put(state, who)
            if event.pending:
                pending = Pending(
                    actor=event.actor,
                    action=event.action,
                    target=event.target,
                    skill=event.skill,
                    weapon=event.weapon,
                    spell=event.spell,
                    area=event.area,
                    condition=event.condition,
                    via=event.via,
                )
                state = replace(state, pending=pending)
            return state
        case ev.ActionResolved():
            if event.action != "aid":
                # An Aid given while an ally's test waits leaves that test waiting.
                state = replace(state, pending=None)
            if event.hp_after is not None and event.target is not None:
                state = _put(state, replace(state.combatants[event.target], hp=event.hp_after))
            return state
        case ev.ConditionAdded():
            who = c[event.bearer]
            who = replace(who, conditions=(*who.conditions, event.condition))
            return replace(_put(state, who), next_condition=_counter(state, event.condition))
        case ev.ConditionRemoved():
            return _put(state, _drop(c[event.bearer], (event.condition,)))
        case ev.ConditionChanged():
            who = c[event.bearer]
            conditions = tuple(
                replace(x, remaining=event.remaining, skips=event.skips, intense=event.intense)
                if x.id == event.condition
                else x
                for x in who.conditions
            )
            return _put(state, replace(who, conditions=conditions))
        case ev.Moved():
            return _put(state, replace(c[event.combatant], area=event.to_area))
        case ev.HazardTriggered():
            pending = Pending(
                kind="hazard",
                actor=event.combatant,
                action="save",
                area=event.area,
                save=event.save,
                die=event.die,
            )
            return replace(state, pending=pending)
        case ev.SaveMade():
            state = _put(state, replace(c[event.combatant], hp=event.hp_after))
            if event.hazard_area is not None:
                state = replace(state, pending=None)
            return state
        case ev.TurnEnded():
            who = _drop(c[event.combatant], event.dissipated)
            remaining = {t.condition: t.remaining for t in event.ticked}
            conditions = tuple(
                replace(x, remaining=remaining[x.id])
                if x.id in remaining
                else replace(x, skips=x.skips - 1)
                if x.id in event.skipped
                else x
                for x in who.conditions
            )
            who = replace(
                who,
                hp=event.hp_after,
                persistent=event.persistent_after,
                conditions=conditions,
                attacked_with=(),
                acted=False,
                actions=0 if not state.options.carry_over else who.actions,
            )
            state = _put(state, who)
            for minion in event.minions_lost:
                state = _put(state, replace(state.combatants[minion], granted=0))
            return replace(state, current=None, done=(*state.done, event.combatant))
        case ev.WeaponDropped():
            who = c[event.combatant]
            held = list(who.held)
            if event.weapon in held:
                held.remove(event.weapon)
            return _put(state, replace(who, held=tuple(held)))
        case ev.FpChanged():
            return _put(state, replace(c[event.combatant], fp=event.fp_after))
        case ev.PersistentChanged():
            return _put(state, replace(c[event.combatant], persistent=event.persistent_after))
        case ev.DeathsDoorChanged():
            who = replace(
                c[event.combatant],
                deaths_door=event.deaths_door,
                hp=event.hp_after,
                dd_action_loss=event.dd_action_loss,
            )
            return _put(state, who)
        case ev.ActionsGranted():
            return _put(state, replace(c[event.minion], granted=event.actions))
        case ev.Ruling():
            if event.combatant is None:
                return state
            who = c[event.combatant]
            if event.hp is not None:
                who = replace(who, hp=event.hp)
            if event.fp is not None:
                who = replace(who, fp=event.fp)
            if event.deaths_door is not None:
                who = replace(who, deaths_door=event.deaths_door)
            if event.dd_action_loss is not None:
                who = replace(who, dd_action_loss=event.dd_action_loss)
            if event.persistent is not None:
                who = replace(who, persistent=event.persistent)
            if event.area is not None:
                who = replace(who, area=event.area)
            if event.sheet is not None:
                who = sheet.apply(who, event.sheet)
            if event.condition_removed is not None:
                who = _drop(who, (event.condition_removed,))
            if event.condition_added is not None:
                who = replace(who, conditions=(*who.conditions, event.condition_added))
                state = replace(state, next_condition=_counter(state, event.condition_added))
            return _put(state, who)
        case ev.GmRolled():
            return state
        case ev.CombatEnded():
            return replace(state, stage="ended", current=None, pending=None)
        case _:
            assert_never(event)


_ATTACKS = frozenset(
    {
        "analyse",
        "cast_spell",
        "disarm",
        "grapple",
        "intimidate",
        "knockdown",
        "shove",
        "strike",
        "taunt",
    }
)
