"""``evolve``: apply one event. Events are facts ``decide`` checked; every number is
copied as is. One mechanical step: a karma boost is used up by the next pool roll of the
character it was bought for (the roll's ``roller``); ``reroll_window`` says which rolls
stay open to a karma reroll."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from service.dice.model import RollRecord
from service.ruleset import rolls_of
from service.rulesets.untold_aeons import events as ev
from service.rulesets.untold_aeons.reroll_window import open_rolls
from service.rulesets.untold_aeons.state import (
    Boost,
    CalledCheck,
    Character,
    Condition,
    Distance,
    Hardened,
    LastCheck,
    PendingAttack,
    State,
    pair_key,
)


def evolve(state: State, event: ev.Event) -> State:
    opened = open_rolls(state, event)
    rolls: tuple[RollRecord, ...] = rolls_of(event)
    if rolls and state.boosts:
        rollers = {r.roller for r in rolls if r.pool is not None}
        if rollers & state.boosts.keys():
            state = replace(
                state, boosts={k: v for k, v in state.boosts.items() if k not in rollers}
            )
    if opened is not None and rolls and state.last_check:
        # UAE-A6: a called check is no longer its roller's last roll once they roll again
        rolled = {r.roller for r in rolls}
        state = replace(
            state, last_check={k: v for k, v in state.last_check.items() if k not in rolled}
        )
    state = _apply(state, event)
    return state if state.open_rolls is opened else replace(state, open_rolls=opened)


def _update(state: State, ident: str, change: Callable[[Character], Character]) -> State:
    return replace(state, characters={**state.characters, ident: change(state.characters[ident])})


def _condition(c: Character, condition: Condition, on: bool) -> Character:
    rest = tuple(x for x in c.conditions if x != condition)
    return replace(c, conditions=(*rest, condition) if on else rest)


def _apply(state: State, event: ev.Event) -> State:
    match event:
        case ev.CharacterAdded():
            who = Character(
                id=event.character,
                name=event.name,
                side=event.side,
                pc=event.pc,
                dexterity=event.dexterity,
                toughness=event.toughness,
                willpower=event.willpower,
                intellect=event.intellect,
                skills=dict(event.skills),
                weapons=dict(event.weapons),
                xp=event.xp,
                stress=event.stress,
                damage=event.damage,
                hardened=dict(event.hardened),
                stress_limit=event.stress_limit,
                wound_limit=event.wound_limit,
                move_speed=event.move_speed,
            )
            return replace(
                state,
                characters={**state.characters, who.id: who},
                karma_players=event.karma_players,
            )
        case ev.DistanceSet():
            d = Distance(yards=event.yards, point_blank=event.point_blank)
            return replace(state, distances={**state.distances, pair_key(event.a, event.b): d})
        case ev.RoundStarted():
            return replace(
                state,
                round=event.round,
                initiating_side=event.initiating_side,
                phase="choosing" if event.choosing else "acting",
                turns={} if event.choosing else state.turns,
                slots=(),
                done=(),
                used_action=(),
                used_move=(),
            )
        case ev.TurnChosen():
            return replace(state, turns={**state.turns, event.character: event.speed})
        case ev.TurnsOrdered():
            turns = {c: s.speed for s in event.slots for c in s.characters}
            return replace(state, slots=event.slots, phase="acting", turns=turns)
        case ev.Moved():
            return replace(state, used_move=(*state.used_move, event.character))
        case ev.StoodUp():
            state = replace(state, used_action=(*state.used_action, event.character))
            return _update(state, event.character, lambda c: _condition(c, "prone", False))
        case ev.TurnEnded():
            return replace(state, done=(*state.done, event.character))
        case ev.AttackDeclared():
            pending = PendingAttack(
                attacker=event.attacker,
                target=event.target,
                weapon=event.weapon,
                ranged=event.ranged,
                rapid_fire=event.rapid_fire,
                difficulty=event.difficulty,
                modifiers=event.modifiers,
            )
            return replace(state, pending=pending, used_action=(*state.used_action, event.attacker))
        case ev.AttackResolved():
            state = replace(state, pending=None)
            for ident in event.prone:
                state = _update(state, ident, lambda c: _condition(c, "prone", True))
            if event.struck is not None and event.damage_after is not None:
                damage = event.damage_after
                state = _update(state, event.struck, lambda c: replace(c, damage=damage))
            return state
        case ev.LimitChecked():
            status, shaken = event.status_after, event.shaken_after
            return _update(
                state, event.character, lambda c: replace(c, status=status, shaken=shaken)
            )
        case ev.Bled():
            damage = event.damage_after
            return _update(state, event.character, lambda c: replace(c, damage=damage))
        case ev.CheckCalled():
            called = CalledCheck(
                label=event.label,
                trait=event.trait,
                knowledge_for=event.knowledge_for,
                difficulty=event.difficulty,
                behind_screen=event.behind_screen,
            )
            return replace(state, called={**state.called, event.character: called})
        case ev.CheckRolled():
            record = event.rolls[0]
            return _last(_uncalled(state, event.character), event.character, event.label, record)
        case ev.SkillDiceRolled():
            record = event.rolls[0]
            assert record.pool is not None
            called = replace(
                state.called[event.character],
                skill_roll=record.roll_id,
                difficulty=event.difficulty,
                skill_faces=tuple(d.face for d in record.dice),
                untrained=record.pool.untrained,
                spoken=record.pool.skill,
                difficulty_label=event.difficulty_label,
            )
            return replace(state, called={**state.called, event.character: called})
        case ev.DifficultyRolled():
            return _uncalled(state, event.character)
        case ev.CheckRerolled():
            last = state.last_check.get(event.character)
            if last is None:
                return state
            return replace(
                state,
                last_check={**state.last_check, event.character: replace(last, rerolled=True)},
            )
        case ev.RollRerolled():
            for values in event.after:
                state = replace(
                    state,
                    characters={
                        **state.characters,
                        values.character: _restored(state.characters[values.character], values),
                    },
                )
            return state
        case ev.SanityChecked():
            stress = event.stress_after
            return _update(state, event.character, lambda c: replace(c, stress=stress))
        case ev.NotchGained():
            hardened = Hardened(level=event.level, notches=event.notches)
            category = event.category
            return _update(
                state,
                event.character,
                lambda c: replace(c, hardened={**c.hardened, category: hardened}),
            )
        case ev.KarmaSpent():
            state = replace(
                state, karma_players=event.karma_players, karma_narrator=event.karma_narrator
            )
            if event.use in ("bonus", "difficulty") and event.target is not None:
                boost = state.boosts.get(event.target, Boost())
                boost = (
                    replace(boost, skill=boost.skill + 2)
                    if event.use == "bonus"
                    else replace(boost, difficulty=boost.difficulty + 2)
                )
                state = replace(state, boosts={**state.boosts, event.target: boost})
            return state
        case ev.Recovered():
            after, shaken = event.after, event.shaken_after
            if event.track == "stress":
                return _update(
                    state, event.character, lambda c: replace(c, stress=after, shaken=shaken)
                )
            return _update(state, event.character, lambda c: replace(c, damage=after))
        case ev.Advanced():
            trait, value, xp = event.trait, event.value, event.xp_after
            if trait in ("dexterity", "toughness", "willpower", "intellect"):
                return _update(
                    state, event.character, lambda c: replace(c, **{trait: value}, xp=xp)
                )
            return _update(
                state,
                event.character,
                lambda c: replace(c, skills={**c.skills, trait: value}, xp=xp),
            )
        case ev.ValueSet():
            if event.character is None:
                return replace(state, **{event.field: event.value})
            field, value, shaken_after = event.field, event.value, event.shaken_after
            return _update(
                state,
                event.character,
                lambda c: replace(
                    c, **{field: value}, shaken=c.shaken if shaken_after is None else shaken_after
                ),
            )
        case ev.ConditionSet():
            condition, on = event.condition, event.on
            return _update(state, event.character, lambda c: _condition(c, condition, on))
        case ev.StatusSet():
            status, shaken = event.status, event.shaken
            return _update(
                state, event.character, lambda c: replace(c, status=status, shaken=shaken)
            )
        case ev.EffectRuled():
            return state
        case ev.EncounterEnded():
            return replace(state, phase="ended", pending=None)
    return state


def _restored(c: Character, values: ev.CharacterAfter) -> Character:
    return replace(
        c,
        damage=values.damage,
        stress=values.stress,
        shaken=values.shaken,
        status=values.status,
        conditions=values.conditions,
        hardened=dict(values.hardened),
    )


def _uncalled(state: State, ident: str) -> State:
    return replace(state, called={k: v for k, v in state.called.items() if k != ident})


def _last(state: State, ident: str, label: str, record: RollRecord) -> State:
    summary = record.pool
    assert summary is not None
    last = LastCheck(
        label=label,
        skill_dice=sum(1 for d in record.dice if d.pool == "skill"),
        untrained=summary.untrained,
        spoken=summary.skill,
        difficulty_faces=tuple(d.face for d in record.dice if d.pool == "difficulty"),
        difficulty_label=summary.difficulty_label,
    )
    return replace(state, last_check={**state.last_check, ident: last})
